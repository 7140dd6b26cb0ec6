/**
 * Reading the signed-in account.
 */
import { Effect, Option } from "effect"
import { AccountNotFound, AccountSuspended } from "./Errors.js"
import type { AccountWithCustomer } from "./Model.js"
import { AccountRepo } from "./Ports.js"
import { AccountId } from "../shared/Ids.js"

/** The account and its customer, or AccountNotFound. */
export const requireAccount = (accountId: AccountId) =>
  Effect.flatMap(AccountRepo, (repo) => repo.findById(accountId)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.fail(new AccountNotFound()), onSome: Effect.succeed }))
  )

/**
 * Refuses a customer who may not use their account (sign in, use a PIN): a suspended (frozen) one
 * with AccountSuspended, a deleted one with `deleted()`, the refusal each caller tells it.
 */
export const ensureUsable = <E>(found: AccountWithCustomer, deleted: () => E): Effect.Effect<void, AccountSuspended | E> => {
  switch (found.customer.customerStatus) {
    case "suspended":
      return Effect.fail(new AccountSuspended())
    case "deleted":
      return Effect.fail(deleted())
    default:
      return Effect.void
  }
}

export const getProfile = (accountId: AccountId) => requireAccount(accountId)
