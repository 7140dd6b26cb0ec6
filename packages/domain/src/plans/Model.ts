/**
 * Disbursement plans and their instalments.
 */
import { Schema } from "effect"
import { CustomerId, PlanId, TransactionId } from "../shared/Ids.js"

export const PlanFrequency = Schema.Literal("daily", "weekly", "monthly")
export const PlanWeekDay = Schema.Literal("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

/**
 * Where a plan is in its life (the spec shows only `active`; the others are ours, see Plans.ts):
 * - awaiting_funds: created, the wallet does not cover the total yet;
 * - active: paying on schedule;
 * - depleted: a payout found the wallet short; it resumes (catching up) once the wallet covers the rest;
 * - paused: a payout kept failing at the destination bank; resumes when the customer edits the plan;
 * - completed: the last cycle is paid;
 * - closed: ended by the closure of the customer's account (never pays again).
 */
export const PlanState = Schema.Literal("awaiting_funds", "active", "depleted", "paused", "completed", "closed")
export type PlanState = typeof PlanState.Type

export class Plan extends Schema.Class<Plan>("Plan")({
  id: PlanId,
  customerId: CustomerId,
  /**
   * the pot of the current schedule; the whole pot the customer sees is paidBeforeKobo + this
   * (Pot.ts, docs/decisions/plan-patch-after-paid-cycles.md)
   */
  totalAmountKobo: Schema.BigIntFromSelf,
  /** what the schedules an edit replaced paid out (instalments cycle 0..cycleBase-1) */
  paidBeforeKobo: Schema.optionalWith(Schema.BigIntFromSelf, { default: () => 0n }),
  /** the whole plan's length (all schedules), as the customer gave it */
  durationDays: Schema.Number,
  frequency: PlanFrequency,
  weekDay: Schema.NullOr(PlanWeekDay),
  /** "HH:MM" in timeZone */
  scheduledTime: Schema.String,
  timeZone: Schema.String,
  withdrawalAccountNumber: Schema.String,
  withdrawalBankCode: Schema.String,
  withdrawalBankName: Schema.String,
  withdrawalAccountName: Schema.String,
  nameEnquirySessionId: Schema.String,
  state: PlanState,
  /** cycles of the current schedule */
  cycleCount: Schema.Number,
  /** the global instalment number of the current schedule's cycle 0 (schedules replaced by an edit keep their numbers) */
  cycleBase: Schema.Number,
  /** the current schedule's next cycle to pay (0-based); cycleCount when all are paid */
  nextCycle: Schema.Number,
  /** local date of cycle 0 ("YYYY-MM-DD"), fixed at activation */
  anchorDate: Schema.NullOr(Schema.String),
  /** when the next cycle is due (or its retry); null unless active */
  nextDueAt: Schema.NullOr(Schema.DateFromSelf),
  borrowCount: Schema.Number,
  /**
   * The NIP fee (with VAT) of the current schedule's regular and last payout under the fees in force
   * when it was funded (activation): a payout is never charged more, so a fee raised by staff
   * later does not leave the reserve short (docs/decisions/nip-fee-raised-mid-plan.md). Null:
   * not funded yet (or activated before these were kept): the current fee.
   */
  payoutFeeCapKobo: Schema.optionalWith(Schema.NullOr(Schema.BigIntFromSelf), { default: () => null }),
  lastPayoutFeeCapKobo: Schema.optionalWith(Schema.NullOr(Schema.BigIntFromSelf), { default: () => null }),
  /** a scheduler process working on the plan holds it until then */
  leaseUntil: Schema.NullOr(Schema.DateFromSelf),
  /** optimistic concurrency: every save increments it and requires the value read */
  version: Schema.Number,
  activatedAt: Schema.NullOr(Schema.DateFromSelf),
  completedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) {}

export const InstalmentKind = Schema.Literal("scheduled", "borrow")
export const InstalmentStatus = Schema.Literal("open", "paid")

/**
 * One cycle of a plan: unique per (planId, cycle), so however many schedulers run, a cycle has one
 * record and at most one live payout attempt (`transactionId`). A failed attempt clears the link;
 * the next attempt is a new transaction with a new idempotency key (`attempts` counts them).
 */
export class Instalment extends Schema.Class<Instalment>("Instalment")({
  planId: PlanId,
  /** global instalment number (plan.cycleBase + the schedule's cycle index) */
  cycle: Schema.Number,
  amountKobo: Schema.BigIntFromSelf,
  /** borrow: paid early at the customer's request; scheduled otherwise */
  kind: InstalmentKind,
  status: InstalmentStatus,
  /** failed payout attempts at the destination bank (not counting a short wallet) */
  attempts: Schema.Number,
  /** the live payout attempt, if any */
  transactionId: Schema.NullOr(TransactionId),
  dueAt: Schema.DateFromSelf,
  paidAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) {}
