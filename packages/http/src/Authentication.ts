import { HttpServerRequest } from "@effect/platform"
import { AccessTokens, AccountRepo, Auth } from "@app/domain"
import { type Context, Effect, Layer, Redacted } from "effect"
import { toHttpFailure } from "./DomainErrors.js"
import { apiObjectForUrl } from "./ErrorMiddleware.js"
import { Authentication, CookieAuthentication } from "./shared/Security.js"

/** An access token, however it came: missing, expired or invalid is 401; a suspended customer is 403. */
const authenticateWith = (context: Context.Context<AccessTokens | AccountRepo>) => (token: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    return yield* Auth.authenticate(Redacted.value(token)).pipe(Effect.mapError(toHttpFailure(apiObjectForUrl(request.url))))
  }).pipe(Effect.provide(context))

/** Bearer tokens (Authorization header). */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(Effect.context<AccessTokens | AccountRepo>(), (context) => Authentication.of({ bearer: authenticateWith(context) }))
)

/** The app_token cookie (GET/PATCH /users/profile): the same checks as a bearer token. */
export const CookieAuthenticationLive = Layer.effect(
  CookieAuthentication,
  Effect.map(Effect.context<AccessTokens | AccountRepo>(), (context) => CookieAuthentication.of({ cookie: authenticateWith(context) }))
)
