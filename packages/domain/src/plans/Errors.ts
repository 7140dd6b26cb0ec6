/**
 * Failures of plans, Borrow and Extra Cash.
 */
import { Data } from "effect"

/** Someone else changed the plan since it was read (optimistic concurrency), or a second open plan. */
export class PlanConflict extends Data.TaggedError("PlanConflict")<{}> {}

/** The customer has no disbursement plan (404 'No disbursement plan found'). */
export class PlanNotFound extends Data.TaggedError("PlanNotFound")<{}> {}
/** Plan terms that cannot make a schedule: each entry is a field and why (400 with fieldErrors). */
export class InvalidPlanTerms extends Data.TaggedError("InvalidPlanTerms")<{
  readonly fieldErrors: Readonly<Record<string, ReadonlyArray<string>>>
}> {}
/** The operation needs an active plan (funded, not depleted, paused or completed) (400). */
export class PlanNotActive extends Data.TaggedError("PlanNotActive")<{}> {}
/** A payout of the plan is being processed; the plan cannot change until it settles (400). */
export class PayoutInProgress extends Data.TaggedError("PayoutInProgress")<{}> {}
/** Borrow refused by one of its eligibility rules; `reason` says which (400). */
export class BorrowNotEligible extends Data.TaggedError("BorrowNotEligible")<{ readonly reason: string }> {}
/** Extra Cash refused: above the maximum, or a daily/lifetime cap reached (400). */
export class ExtraCashNotAllowed extends Data.TaggedError("ExtraCashNotAllowed")<{ readonly reason: string }> {}
