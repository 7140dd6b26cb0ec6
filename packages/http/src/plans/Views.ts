/** What the plan endpoints answer: the plan, its quotes, and the movements of Borrow and Extra Cash. */
import { CustomerId, KoboString, PlanFrequency, PlanState, PlanWeekDay, Plans, TransactionId, type Plan, type Transfer } from "@app/domain"
import { Schema } from "effect"
import { movementView, MovementView } from "../transfers/Views.js"

/** The spec's DisbursementPlan, plus status, cycle counts, bank name and timestamps. */
export const PlanView = Schema.Struct({
  id: Schema.String,
  customerId: CustomerId,
  /** the regular per-cycle amount (the last instalment also carries the remainder) */
  amount: KoboString,
  totalAmountKobo: KoboString,
  durationDays: Schema.Number,
  frequency: PlanFrequency,
  weekDay: Schema.NullOr(PlanWeekDay),
  nextDueAt: Schema.NullOr(Schema.String),
  withdrawalAccountNumber: Schema.String,
  withdrawalBankCode: Schema.String,
  withdrawalBankName: Schema.String,
  withdrawalAccountName: Schema.String,
  scheduledTime: Schema.String,
  scheduledTimezone: Schema.String,
  /** payouts stopped after repeated failures at the destination bank, until the plan is edited */
  withdrawalBlocked: Schema.Boolean,
  borrowCount: Schema.Number,
  active: Schema.Boolean,
  status: PlanState,
  cyclesTotal: Schema.Number,
  cyclesPaid: Schema.Number,
  /**
   * what the customer must add to the wallet for the plan to start or resume (the rest of the pot and
   * its payouts' fees, less the balance); "0" when nothing is needed. On the plan endpoints only.
   */
  fundingNeededKobo: Schema.optional(KoboString),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

export const FeeLine = Schema.Struct({ feeKobo: KoboString, description: Schema.String })

export const PlanQuoteView = Schema.Struct({
  amountKobo: KoboString,
  depositFee: FeeLine,
  disbursementFee: FeeLine,
  totalFeesKobo: KoboString
})

export const BorrowQuoteView = Schema.Struct({
  eligible: Schema.Boolean,
  amountKobo: KoboString,
  /** why not, when not eligible */
  reason: Schema.optional(Schema.String)
})

export const ExtraCashQuoteView = Schema.Struct({
  vaultBalanceKobo: KoboString,
  reservedKobo: KoboString,
  maxWithdrawalKobo: KoboString,
  /** the flat fee as a fraction: 0.04 = 4% */
  feeRate: Schema.Number,
  usedToday: Schema.Number,
  usedTotal: Schema.Number,
  perDay: Schema.Number,
  perPlan: Schema.Number
})

/** The movement row, as POST /transactions/transfer answers, with its id also as transactionId. */
export const PlanMovementView = Schema.Struct({ ...MovementView.fields, transactionId: TransactionId })

/** The plan as the API shows it (the spec's DisbursementPlan and our extras). */
export const planView = (plan: Plan, fundingNeededKobo?: bigint) => ({
  id: plan.id,
  customerId: plan.customerId,
  amount: Plans.instalmentAmount(plan),
  // the whole pot, instalments paid under replaced schedules included (domain plans/Pot.ts)
  totalAmountKobo: Plans.wholePotKobo(plan),
  durationDays: plan.durationDays,
  frequency: plan.frequency,
  weekDay: plan.weekDay,
  nextDueAt: plan.nextDueAt === null ? null : plan.nextDueAt.toISOString(),
  withdrawalAccountNumber: plan.withdrawalAccountNumber,
  withdrawalBankCode: plan.withdrawalBankCode,
  withdrawalBankName: plan.withdrawalBankName,
  withdrawalAccountName: plan.withdrawalAccountName,
  scheduledTime: plan.scheduledTime,
  scheduledTimezone: plan.timeZone,
  withdrawalBlocked: plan.state === "paused",
  borrowCount: plan.borrowCount,
  active: plan.state === "active",
  status: plan.state,
  cyclesTotal: Plans.wholeCycles(plan),
  cyclesPaid: Plans.cyclesPaid(plan),
  ...(fundingNeededKobo === undefined ? {} : { fundingNeededKobo }),
  createdAt: plan.createdAt.toISOString(),
  updatedAt: plan.updatedAt.toISOString()
})

export const planMovementView = (t: Transfer) => ({ ...movementView(t), transactionId: t.id })
