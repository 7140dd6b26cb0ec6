/** The failures of closing and deleting an account, over HTTP. */
import type { AccountFrozen, CloseAccountFirst, DeletionFailed, NoClosureDestination } from "@app/domain"
import { Data } from "effect"
import type { Catalogue, ErrorTable } from "../shared/ErrorTable.js"

/**
 * close-account's answer to a code the OTP gate refused (invalid, expired or spent): the spec's row
 * for close-account lists "OTP invalid or expired" under 400, where every other OTP-gated operation
 * (delete-account included) answers 401 `OTP_INVALID`. The handler turns the gate's
 * `OtpGateRejected` into this one; a code keeps one status, so it has its own code.
 */
export class CloseOtpRejected extends Data.TaggedError("CloseOtpRejected")<{}> {}

/**
 * close-account's and delete-account's answer while a movement of the customer is not final (a
 * transfer the bank answered "pending" included): the spec's "a transaction in progress". The
 * domain's `MovementInFlight` is the same refusal; these two endpoints name it for what it means
 * here, since waiting is the customer's only way forward.
 */
export class TransactionInProgress extends Data.TaggedError("TransactionInProgress")<{}> {}

export type LifecycleError =
  | NoClosureDestination
  | CloseAccountFirst
  | AccountFrozen
  | DeletionFailed
  | CloseOtpRejected
  | TransactionInProgress

export const lifecycleErrors = {
  NoClosureDestination: () => ({
    status: 400,
    code: "NO_DESTINATION_ACCOUNT",
    message: "No destination bank account: save a beneficiary or set your plan's withdrawal account first"
  }),
  CloseOtpRejected: () => ({ status: 400, code: "CLOSE_OTP_INVALID", message: "Invalid or expired OTP" }),
  TransactionInProgress: () => ({
    status: 400,
    code: "TRANSACTION_IN_PROGRESS",
    message: "A transaction is in progress. Please wait for it to finish."
  }),
  CloseAccountFirst: () => ({
    status: 409,
    code: "CLOSE_ACCOUNT_FIRST",
    message: "Your account must be closed first: send an idempotencyKey to close it and then delete it"
  }),
  AccountFrozen: () => ({ status: 409, code: "ACCOUNT_FROZEN", message: "Your account is frozen; contact support" }),
  DeletionFailed: () => ({
    status: 500,
    code: "ACCOUNT_DELETION_FAILED",
    message: "We could not delete your account; nothing was changed and our staff were alerted"
  })
} satisfies ErrorTable<LifecycleError>

/** The codes of lifecycleErrors, with their meaning (published in the catalogue). */
export const lifecycleCodes = {
  NO_DESTINATION_ACCOUNT: { status: 400, meaning: "Closing needs a destination: the plan's withdrawal account or a default saved beneficiary" },
  CLOSE_OTP_INVALID: {
    status: 400,
    meaning: "close-account's otpPinId/otpCode is invalid, expired or already spent (the spec answers 400 there; every other OTP-gated operation answers 401 `OTP_INVALID`); request a new code"
  },
  TRANSACTION_IN_PROGRESS: {
    status: 400,
    meaning: "close-account or delete-account while a movement of the customer is not final (pending at the bank included); retry once it settles"
  },
  CLOSE_ACCOUNT_FIRST: { status: 409, meaning: "delete-account of an account with a bank account and no idempotencyKey: send one to close it first (also `data.code`)" },
  ACCOUNT_FROZEN: { status: 409, meaning: "delete-account of a frozen account (suspended by staff or the PIN lock, or frozen at the bank without a closure)" },
  ACCOUNT_DELETION_FAILED: { status: 500, meaning: "The deletion failed part-way and was rolled back (nothing changed); staff were alerted" }
} satisfies Catalogue<typeof lifecycleErrors>
