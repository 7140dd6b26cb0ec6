/**
 * Failures of closing and deleting an account.
 */
import { Data } from "effect"

/** No plan withdrawal account and no default saved beneficiary: nowhere to send the balance. */
export class NoClosureDestination extends Data.TaggedError("NoClosureDestination")<{}> {}
/** Deletion of an account that still has a bank account, without an idempotency key to close it first. */
export class CloseAccountFirst extends Data.TaggedError("CloseAccountFirst")<{}> {}
/** Deletion of a frozen account (suspended, or its core account frozen at the bank). */
export class AccountFrozen extends Data.TaggedError("AccountFrozen")<{}> {}
/** The deletion failed part-way; nothing changed (rolled back) and staff were alerted. */
export class DeletionFailed extends Data.TaggedError("DeletionFailed")<{ readonly alertId: string }> {}
