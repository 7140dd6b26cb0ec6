import { HttpServerRequest } from "@effect/platform"
import { AccessTokens, AccountRepo, Auth, StaffAccess, StaffRepo, StaffTokens, Unauthenticated } from "@app/domain"
import { type Context, Effect, Layer, Option, Redacted } from "effect"
import { toHttpFailure } from "./DomainErrors.js"
import { apiObjectForUrl } from "./ErrorMiddleware.js"
import { Authentication, AuthenticationAllowingSuspended, CookieAuthentication, StaffAuthentication } from "./shared/Security.js"

/** An access token, however it came: missing, expired or invalid is 401; a suspended customer is 403. */
const authenticateWith = (context: Context.Context<AccessTokens | AccountRepo>) => (token: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    return yield* Auth.authenticate(Redacted.value(token)).pipe(Effect.mapError(toHttpFailure(apiObjectForUrl(request.url))))
  }).pipe(Effect.provide(context))

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
const authenticateSuspendedToo = (context: Context.Context<AccessTokens | AccountRepo>) => (token: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    return yield* Auth.authenticate(Redacted.value(token)).pipe(
      Effect.catchTag("AccountSuspended", () => suspendedAccount(Redacted.value(token))),
      Effect.mapError(toHttpFailure(apiObjectForUrl(request.url)))
    )
  }).pipe(Effect.provide(context))

/** Bearer tokens (Authorization header). */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(Effect.context<AccessTokens | AccountRepo>(), (context) => Authentication.of({ bearer: authenticateWith(context) }))
)

/** Bearer tokens of suspended customers too (delete-account). */
export const AuthenticationAllowingSuspendedLive = Layer.effect(
  AuthenticationAllowingSuspended,
  Effect.map(
    Effect.context<AccessTokens | AccountRepo>(),
    (context) => AuthenticationAllowingSuspended.of({ bearer: authenticateSuspendedToo(context) })
  )
)

/** The app_token cookie (GET/PATCH /users/profile): the same checks as a bearer token. */
export const CookieAuthenticationLive = Layer.effect(
  CookieAuthentication,
  Effect.map(Effect.context<AccessTokens | AccountRepo>(), (context) => CookieAuthentication.of({ cookie: authenticateWith(context) }))
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
