/** What the plan endpoints answer: the plan, its quotes, and the movements of Borrow and Extra Cash. */
import { CustomerId, KoboString, PlanFrequency, PlanState, PlanWeekDay, Plans, TransactionId, type Plan, type Transfer } from "@app/domain"
import { Schema } from "effect"
import { movementExample, movementView, MovementView } from "../transfers/Views.js"
import * as Ex from "../shared/Examples.js"

/** A plan of ₦180,000 over 90 days, paid monthly at 09:00 in Lagos, one instalment paid. */
export const planExample = {
  id: Ex.PLAN_ID,
  customerId: Ex.CUSTOMER_ID,
  amount: 6_000_000n,
  totalAmountKobo: 18_000_000n,
  durationDays: 90,
  frequency: "monthly",
  weekDay: null,
  nextDueAt: "2026-12-14T08:00:00.000Z",
  withdrawalAccountNumber: Ex.ACCOUNT_NUMBER,
  withdrawalBankCode: Ex.BANK_CODE,
  withdrawalBankName: Ex.BANK_NAME,
  withdrawalAccountName: "CHIAMAKA ADAEZE OKAFOR",
  scheduledTime: "09:00",
  scheduledTimezone: "Africa/Lagos",
  withdrawalBlocked: false,
  borrowCount: 0,
  active: true,
  status: "active",
  cyclesTotal: 3,
  cyclesPaid: 1,
  fundingNeededKobo: 0n,
  createdAt: "2026-10-14T07:42:10.000Z",
  updatedAt: "2026-11-14T08:00:04.000Z"
} as const

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
}).annotations({ examples: [planExample] })

export const FeeLine = Schema.Struct({ feeKobo: KoboString, description: Schema.String })

export const PlanQuoteView = Schema.Struct({
  amountKobo: KoboString,
  depositFee: FeeLine,
  disbursementFee: FeeLine,
  totalFeesKobo: KoboString
}).annotations({
  examples: [{
    amountKobo: 6_000_000n,
    depositFee: { feeKobo: 5_375n, description: "Estimated charge of your own bank to fund the wallet; not charged by us" },
    disbursementFee: { feeKobo: 5_375n, description: "NIP transfer fee with VAT, added to each payout" },
    totalFeesKobo: 10_750n
  }]
})

export const BorrowQuoteView = Schema.Struct({
  eligible: Schema.Boolean,
  amountKobo: KoboString,
  /** why not, when not eligible */
  reason: Schema.optional(Schema.String)
}).annotations({ examples: [{ eligible: true, amountKobo: 6_000_000n }] })

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
}).annotations({
  examples: [{
    vaultBalanceKobo: 15_000_000n,
    reservedKobo: 12_010_750n,
    maxWithdrawalKobo: 2_871_694n,
    feeRate: 0.04,
    usedToday: 0,
    usedTotal: 1,
    perDay: 3,
    perPlan: 5
  }]
})

/** The movement row, as POST /transactions/transfer answers, with its id also as transactionId. */
export const PlanMovementView = Schema.Struct({ ...MovementView.fields, transactionId: TransactionId })
  .annotations({
    examples: [{
      ...movementExample,
      planId: Ex.PLAN_ID,
      purpose: "disbursement",
      amountKobo: 6_000_000n,
      feeKobo: 5_375n,
      destinationAccountNumber: Ex.ACCOUNT_NUMBER,
      destinationBankCode: Ex.BANK_CODE,
      destinationBankName: Ex.BANK_NAME,
      destinationAccountName: "CHIAMAKA ADAEZE OKAFOR",
      narration: "Borrow: plan payout 2 of 3",
      transactionId: Ex.TRANSACTION_ID
    }]
  })

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
