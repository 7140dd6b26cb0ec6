/** The bearer authentication middleware, the signed-in customer it provides, and their id. */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Context, Effect, Schema } from "effect"
import { Failures } from "./Envelope.js"
import type { AccountWithCustomer } from "@app/domain"
/** The signed-in customer of a bearer-authenticated request. */
export class CurrentAccount extends Context.Tag("http/CurrentAccount")<CurrentAccount, AccountWithCustomer>() {}

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("http/Authentication", {
  failure: Schema.Union(Failures[401], Failures[403]),
  provides: CurrentAccount,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** The account id of the signed-in customer. */
export const signedIn = Effect.map(CurrentAccount, ({ account }) => account.id)
