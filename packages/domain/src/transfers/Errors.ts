/**
 * Failures of money movements.
 */
import { Data } from "effect"
import { Failure } from "../shared/Failure.js"

/** Another money movement of this customer is still in flight (one at a time per customer). */
export class MovementInFlight extends Failure("MovementInFlight", {
  status: 400,
  code: "MOVEMENT_IN_FLIGHT",
  message: "Another transaction is in progress. Please wait for it to finish.",
  meaning: "Another movement of the customer is in progress; retry when it finishes"
}) {}

/** A journal write named an epoch that is no longer the movement's: another driver has claimed it. */
export class MovementLost extends Data.TaggedError("MovementLost")<{ readonly transferId: string; readonly epoch: number }> {}

/** Withdrawals need a first confirmed deposit (the customer-facing PND). */
export class WithdrawalsNotAllowed extends Failure("WithdrawalsNotAllowed", {
  status: 400,
  code: "WITHDRAWALS_NOT_ALLOWED",
  message: "Withdrawals are allowed after your first deposit is confirmed",
  meaning: "Money can leave only after the first deposit is confirmed"
}) {}
/** The wallet cannot cover the amount plus its fee. */
export class InsufficientBalance extends Failure("InsufficientBalance", {
  status: 400,
  code: "INSUFFICIENT_BALANCE",
  message: "Insufficient balance",
  meaning: "The balance does not cover amount plus fee (`error.requiredKobo`, `error.availableKobo`)"
})<{
  readonly requiredKobo: bigint
  readonly availableKobo: bigint
}> {
  override answer() {
    return { ...super.answer(), detail: { requiredKobo: this.requiredKobo.toString(), availableKobo: this.availableKobo.toString() } }
  }
}
/** The idempotency key was used before with a different request (409). */
export class IdempotencyConflict extends Failure("IdempotencyConflict", {
  status: 409,
  code: "IDEMPOTENCY_CONFLICT",
  message: "This idempotencyKey was already used for a different request",
  meaning: "The idempotencyKey was used before for a different request"
}) {}
/** The movement ended failed (its debit, if any, reversed). */
export class TransferFailed extends Failure("TransferFailed", {
  status: 400,
  code: "TRANSFER_FAILED",
  meaning: "The bank refused the transfer and it was reversed (`error.transactionId`); no money left"
})<{
  readonly transactionId: string
  readonly reason: string
}> {
  override answer() {
    return { ...super.answer(), message: `Transfer failed: ${this.reason}`, detail: { transactionId: this.transactionId } }
  }
}

/**
 * "Resolve movement" refused: only a movement parked waiting for an operator (its reversal refused
 * by the bank, the account put back) can be resolved. `why`: `in_progress` (the saga or
 * reconciliation still drives it), `final` (already confirmed or failed, resolved or not),
 * `not_a_movement` (a deposit: nothing of ours to finish).
 */
export class MovementNotAwaitingOperator extends Failure("MovementNotAwaitingOperator", {
  status: 409,
  code: "MOVEMENT_NOT_AWAITING_OPERATOR",
  meaning: "Resolve movement: only a movement parked for an operator (its reversal refused by the bank) can be resolved; " +
    "`error.reason` says why not: `in_progress` (the saga still drives it), `final` (already confirmed, failed or " +
    "resolved), `not_a_movement` (a deposit)"
})<{
  readonly transactionId: string
  readonly status: string
  readonly why: "in_progress" | "final" | "not_a_movement"
}> {
  override answer() {
    return {
      ...super.answer(),
      message: this.why === "in_progress"
        ? "This movement is still being driven by the saga or reconciliation: it cannot be resolved by hand"
        : this.why === "final"
        ? "This movement is already final (confirmed, failed or resolved): it cannot be resolved again"
        : "This transaction is not a money movement out of the wallet: there is nothing to resolve",
      detail: { transactionId: this.transactionId, transactionStatus: this.status, reason: this.why }
    }
  }
}
