import { HttpServerRequest } from "@effect/platform"
import { type AccountSuspended, Auth, StaffAccess, StaffRepo, StaffTokens, type Unauthenticated } from "@app/domain"
import { Effect, Layer, Redacted } from "effect"
import { toHttpFailure } from "./shared/Envelope.js"
import { apiObjectForUrl } from "./ErrorMiddleware.js"
import { Authentication, AuthenticationAllowingSuspended, CookieAuthentication, StaffAuthentication } from "./shared/Security.js"

/**
 * The failure's HTTP answer, named for the API object of the request's URL: read only when a token
 * is refused, so a request that passes does not look the request up.
 */
const refused = <E extends Unauthenticated | AccountSuspended>(e: E) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => Effect.fail(toHttpFailure(apiObjectForUrl(request.url))(e)))

/**
 * An access token, however it came: missing, expired or invalid is 401; a suspended customer is 403
 * (unless the authenticator lets them through). The authenticator holds its services
 * (Auth.authenticator), so a request provides nothing.
 */
const authenticateWith = <E extends Unauthenticated | AccountSuspended>(authenticate: Auth.Authenticator<E>) => (token: Redacted.Redacted<string>) =>
  Effect.catchAll(authenticate(Redacted.value(token)), refused)

/** Bearer tokens (Authorization header). */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(Auth.authenticator, (authenticate) => Authentication.of({ bearer: authenticateWith(authenticate) }))
)

/** Bearer tokens of suspended customers too (delete-account). */
export const AuthenticationAllowingSuspendedLive = Layer.effect(
  AuthenticationAllowingSuspended,
  Effect.map(Auth.authenticatorAllowingSuspended, (authenticate) => AuthenticationAllowingSuspended.of({ bearer: authenticateWith(authenticate) }))
)

/** The app_token cookie (GET/PATCH /users/profile): the same checks as a bearer token. */
export const CookieAuthenticationLive = Layer.effect(
  CookieAuthentication,
  Effect.map(Auth.authenticator, (authenticate) => CookieAuthentication.of({ cookie: authenticateWith(authenticate) }))
)

/** Admin bearer tokens: only a staff token of an active member passes. */
export const StaffAuthenticationLive = Layer.effect(
  StaffAuthentication,
  Effect.map(Effect.context<StaffTokens | StaffRepo>(), (context) =>
    StaffAuthentication.of({
      bearer: (token) =>
        StaffAccess.authenticate(Redacted.value(token)).pipe(Effect.mapError(toHttpFailure("Admin")), Effect.provide(context))
    }))
)
