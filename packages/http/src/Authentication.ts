import { HttpServerRequest } from "@effect/platform"
import {
  AccessTokens,
  AccountRepo,
  type AccountSuspended,
  Auth,
  StaffAccess,
  StaffRepo,
  StaffTokens,
  Unauthenticated
} from "@app/domain"
import { type Context, Effect, Layer, Option, Redacted } from "effect"
import { toHttpFailure } from "./DomainErrors.js"
import { apiObjectForUrl } from "./ErrorMiddleware.js"
import { Authentication, AuthenticationAllowingSuspended, CookieAuthentication, StaffAuthentication } from "./shared/Security.js"

/**
 * The failure's HTTP answer, named for the API object of the request's URL: read only when a token
 * is refused, so a request that passes does not look the request up.
 */
const refused = <E extends Unauthenticated | AccountSuspended>(e: E) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => Effect.fail(toHttpFailure(apiObjectForUrl(request.url))(e)))

/**
 * An access token, however it came: missing, expired or invalid is 401; a suspended customer is 403.
 * The authenticator holds its services (Auth.authenticator), so a request provides nothing.
 */
const authenticateWith = (authenticate: Auth.Authenticator) => (token: Redacted.Redacted<string>) =>
  Effect.catchAll(authenticate(Redacted.value(token)), refused)

/**
 * The account of a token `Auth.authenticate` refused only because its customer is suspended (read
 * again: a customer deleted meanwhile is 401, as always).
 */
const suspendedAccount = (raw: string) =>
  Effect.gen(function*() {
    const claims = yield* (yield* AccessTokens).verify(raw)
    if (Option.isNone(claims)) return yield* new Unauthenticated()
    const found = yield* (yield* AccountRepo).findById(claims.value.accountId)
    if (Option.isNone(found) || found.value.customer.customerStatus === "deleted") return yield* new Unauthenticated()
    return found.value
  })

/** Every check of `authenticateWith` but suspension: for delete-account only (see AuthenticationAllowingSuspended). */
const authenticateSuspendedToo =
  (authenticate: Auth.Authenticator, context: Context.Context<AccessTokens | AccountRepo>) =>
  (token: Redacted.Redacted<string>) =>
    authenticate(Redacted.value(token)).pipe(
      Effect.catchTag("AccountSuspended", () => suspendedAccount(Redacted.value(token)).pipe(Effect.provide(context))),
      Effect.catchAll(refused)
    )

/** Bearer tokens (Authorization header). */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(Auth.authenticator, (authenticate) => Authentication.of({ bearer: authenticateWith(authenticate) }))
)

/** Bearer tokens of suspended customers too (delete-account). */
export const AuthenticationAllowingSuspendedLive = Layer.effect(
  AuthenticationAllowingSuspended,
  Effect.zipWith(
    Auth.authenticator,
    Effect.context<AccessTokens | AccountRepo>(),
    (authenticate, context) => AuthenticationAllowingSuspended.of({ bearer: authenticateSuspendedToo(authenticate, context) })
  )
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
