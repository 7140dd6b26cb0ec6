/**
 * Failures of closing and deleting an account.
 */
import { Failure } from "../shared/Failure.js"
import type { AlertId } from "../shared/Ids.js"

/** No plan withdrawal account and no default saved beneficiary: nowhere to send the balance. */
export class NoClosureDestination extends Failure("NoClosureDestination", {
  status: 400,
  code: "NO_DESTINATION_ACCOUNT",
  message: "No destination bank account: save a beneficiary or set your plan's withdrawal account first",
  meaning: "Closing needs a destination: the plan's withdrawal account or a default saved beneficiary"
}) {}
/** Deletion of an account that still has a bank account, without an idempotency key to close it first. */
export class CloseAccountFirst extends Failure("CloseAccountFirst", {
  status: 409,
  code: "CLOSE_ACCOUNT_FIRST",
  message: "Your account must be closed first: send an idempotencyKey to close it and then delete it",
  meaning: "delete-account of an account with a bank account and no idempotencyKey: send one to close it first (also `data.code`)"
}) {}
/** Deletion of a frozen account (suspended, or its core account frozen at the bank). */
export class AccountFrozen extends Failure("AccountFrozen", {
  status: 409,
  code: "ACCOUNT_FROZEN",
  message: "Your account is frozen; contact support",
  meaning: "delete-account of a frozen account (suspended by staff or the PIN lock, or frozen at the bank without a closure)"
}) {}
/** The deletion failed part-way; nothing changed (rolled back) and staff were alerted. */
export class DeletionFailed extends Failure("DeletionFailed", {
  status: 500,
  code: "ACCOUNT_DELETION_FAILED",
  message: "We could not delete your account; nothing was changed and our staff were alerted",
  meaning: "The deletion failed part-way and was rolled back (nothing changed); staff were alerted"
})<{ readonly alertId: AlertId }> {}
