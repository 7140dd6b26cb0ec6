/**
 * Reading the signed-in account.
 */
import { Effect, Option } from "effect"
import { AccountNotFound } from "./Errors.js"
import { AccountRepo } from "./Ports.js"
import { AccountId } from "../shared/Ids.js"

/** The account and its customer, or AccountNotFound. */
export const requireAccount = (accountId: AccountId) =>
  Effect.flatMap(AccountRepo, (repo) => repo.findById(accountId)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.fail(new AccountNotFound()), onSome: Effect.succeed }))
  )

export const getProfile = (accountId: AccountId) => requireAccount(accountId)
