/** The bearer authentication middleware, the signed-in customer it provides, and their id. */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Context, Effect, Schema } from "effect"
import { Failures } from "./Envelope.js"
import type { AccountWithCustomer, StaffMember } from "@app/domain"

/**
 * The `app_token` cookie's security scheme (set by shared/Cookie.ts). Defined here, in the contract,
 * rather than beside the cookie setter, which reads the server's configuration: so the API
 * definition imports nothing server-only and the typed client (@app/client) can bundle it.
 */
export const APP_TOKEN_COOKIE = "app_token"

export const AppTokenCookie = HttpApiSecurity.apiKey({ key: APP_TOKEN_COOKIE, in: "cookie" })
/** The signed-in customer of a bearer-authenticated request. */
export class CurrentAccount extends Context.Tag("http/CurrentAccount")<CurrentAccount, AccountWithCustomer>() {}

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("http/Authentication", {
  failure: Schema.Union(Failures[401], Failures[403]),
  provides: CurrentAccount,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/**
 * The bearer authentication of the one endpoint a suspended customer may reach: delete-account,
 * whose use case answers them 409 `ACCOUNT_FROZEN` (the issue: "409 for a frozen (suspended)
 * account"), which `Authentication`'s 403 would hide. Every other check is `Authentication`'s: a
 * missing, expired or invalid token, or a deleted account, is 401.
 */
export class AuthenticationAllowingSuspended
  extends HttpApiMiddleware.Tag<AuthenticationAllowingSuspended>()("http/AuthenticationAllowingSuspended", {
    failure: Failures[401],
    provides: CurrentAccount,
    security: { bearer: HttpApiSecurity.bearer }
  })
{}

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

/** The signed-in staff member of an admin-bearer request. */
export class CurrentStaff extends Context.Tag("http/CurrentStaff")<CurrentStaff, StaffMember>() {}

/**
 * The admin bearer token (POST /admin/auth/sign-in): a customer token, a missing or expired one,
 * or a member no longer active is 401.
 */
export class StaffAuthentication extends HttpApiMiddleware.Tag<StaffAuthentication>()("http/StaffAuthentication", {
  failure: Failures[401],
  provides: CurrentStaff,
  security: { bearer: HttpApiSecurity.bearer }
}) {}
