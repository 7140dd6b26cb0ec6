/**
 * Failures of plans, Borrow and Extra Cash.
 */
import { Data } from "effect"
import { Failure, validation, ValidationKind } from "../shared/Failure.js"

/** Someone else changed the plan since it was read (optimistic concurrency), or a second open plan. */
export class PlanConflict extends Data.TaggedError("PlanConflict")<{}> {}

/** The customer has no disbursement plan (404 'No disbursement plan found'). */
export class PlanNotFound extends Failure("PlanNotFound", {
  status: 404,
  code: "PLAN_NOT_FOUND",
  message: "No disbursement plan found",
  meaning: "The customer has no disbursement plan"
}) {}
/** Plan terms that cannot make a schedule: each entry is a field and why (400 with fieldErrors). */
export class InvalidPlanTerms extends Failure("InvalidPlanTerms", ValidationKind)<{
  readonly fieldErrors: Readonly<Record<string, ReadonlyArray<string>>>
}> {
  override answer() {
    return validation(this.fieldErrors)
  }
}
/** The operation needs an active plan (funded, not depleted, paused or completed) (400). */
export class PlanNotActive extends Failure("PlanNotActive", {
  status: 400,
  code: "PLAN_NOT_ACTIVE",
  message: "No active disbursement plan",
  meaning: "The operation needs an active plan"
}) {}
/** A payout of the plan is being processed; the plan cannot change until it settles (400). */
export class PayoutInProgress extends Failure("PayoutInProgress", {
  status: 400,
  code: "PAYOUT_IN_PROGRESS",
  message: "A payout of your plan is in progress; try again shortly",
  meaning: "A payout of the plan is being made; retry shortly"
}) {}
/** Borrow refused by one of its eligibility rules; `reason` says which (400). */
export class BorrowNotEligible extends Failure("BorrowNotEligible", {
  status: 400,
  code: "BORROW_NOT_ELIGIBLE",
  meaning: "Borrow is not available now; the message says why"
})<{ readonly reason: string }> {
  override answer() {
    return { ...super.answer(), message: this.reason }
  }
}
/** Extra Cash refused: above the maximum, or a daily/lifetime cap reached (400). */
export class ExtraCashNotAllowed extends Failure("ExtraCashNotAllowed", {
  status: 400,
  code: "EXTRA_CASH_NOT_ALLOWED",
  meaning: "Extra Cash is not available now; the message says why"
})<{ readonly reason: string }> {
  override answer() {
    return { ...super.answer(), message: this.reason }
  }
}
