/** The bearer authentication middleware, the signed-in customer it provides, and their id. */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Context, Effect, Schema } from "effect"
import { AppTokenCookie } from "./Cookie.js"
import { Failures } from "./Envelope.js"
import type { AccountWithCustomer } from "@app/domain"
/** The signed-in customer of a bearer-authenticated request. */
export class CurrentAccount extends Context.Tag("http/CurrentAccount")<CurrentAccount, AccountWithCustomer>() {}

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("http/Authentication", {
  failure: Schema.Union(Failures[401], Failures[403]),
  provides: CurrentAccount,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/**
 * The same signed-in customer, from the `app_token` cookie (GET/PATCH /users/profile): a web
 * client's access token, set by sign-in (shared/Cookie.ts).
 */
export class CookieAuthentication extends HttpApiMiddleware.Tag<CookieAuthentication>()("http/CookieAuthentication", {
  failure: Schema.Union(Failures[401], Failures[403]),
  provides: CurrentAccount,
  security: { cookie: AppTokenCookie }
}) {}

/** The account id of the signed-in customer. */
export const signedIn = Effect.map(CurrentAccount, ({ account }) => account.id)
