/**
 * Failures about the account itself: missing, suspended, not active.
 */
import { Data } from "effect"

export class AccountNotFound extends Data.TaggedError("AccountNotFound")<{}> {}
export class AccountSuspended extends Data.TaggedError("AccountSuspended")<{}> {}
/** The customer is not active (closed, or not yet provisioned). */
export class AccountNotActive extends Data.TaggedError("AccountNotActive")<{ readonly customerStatus: string }> {}
