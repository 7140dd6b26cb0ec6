/**
 * Failures of money movements.
 */
import { Data } from "effect"

/** Another money movement of this customer is still in flight (one at a time per customer). */
export class MovementInFlight extends Data.TaggedError("MovementInFlight")<{}> {}

/** A journal write named an epoch that is no longer the movement's: another driver has claimed it. */
export class MovementLost extends Data.TaggedError("MovementLost")<{ readonly transferId: string; readonly epoch: number }> {}

/** Withdrawals need a first confirmed deposit (the customer-facing PND). */
export class WithdrawalsNotAllowed extends Data.TaggedError("WithdrawalsNotAllowed")<{}> {}
/** The wallet cannot cover the amount plus its fee. */
export class InsufficientBalance extends Data.TaggedError("InsufficientBalance")<{
  readonly requiredKobo: bigint
  readonly availableKobo: bigint
}> {}
/** The idempotency key was used before with a different request (409). */
export class IdempotencyConflict extends Data.TaggedError("IdempotencyConflict")<{}> {}
/** The movement ended failed (its debit, if any, reversed). */
export class TransferFailed extends Data.TaggedError("TransferFailed")<{
  readonly transactionId: string
  readonly reason: string
}> {}

/**
 * "Resolve movement" refused: only a movement parked waiting for an operator (its reversal refused
 * by the bank, the account put back) can be resolved. `why`: `in_progress` (the saga or
 * reconciliation still drives it), `final` (already confirmed or failed, resolved or not),
 * `not_a_movement` (a deposit: nothing of ours to finish).
 */
export class MovementNotAwaitingOperator extends Data.TaggedError("MovementNotAwaitingOperator")<{
  readonly transactionId: string
  readonly status: string
  readonly why: "in_progress" | "final" | "not_a_movement"
}> {}
