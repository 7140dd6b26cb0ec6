/**
 * The `app_token` cookie: the access token for web clients (GET/PATCH /users/profile read it).
 * Set by every answer that issues tokens (login, OTP verification, refresh, social sign-in):
 * HttpOnly (no script reads it), SameSite=Lax (not sent with cross-site subrequests or POST/PATCH
 * from other sites), Secure in production, Path=/, and the lifetime of the access token.
 */
import { HttpApiBuilder } from "@effect/platform"
import { AppConfig } from "@app/adapters"
import { Auth } from "@app/domain"
import { Effect } from "effect"
import { AppTokenCookie } from "./Security.js"


/** Sets `app_token` to the access token of a successful answer. */
export const withAppTokenCookie = <A extends { readonly accessToken: string }, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.tap(self, ({ accessToken }) =>
    Effect.flatMap(AppConfig, (config) =>
      HttpApiBuilder.securitySetCookie(AppTokenCookie, accessToken, {
        httpOnly: true,
        secure: config.appEnv === "production",
        sameSite: "lax",
        path: "/",
        maxAge: Auth.TokenPolicy.accessTokenTtl
      })))
