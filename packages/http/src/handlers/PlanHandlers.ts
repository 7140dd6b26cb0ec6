import { HttpApiBuilder } from "@effect/platform"
import { type Plan, Plans, type Transfer } from "@app/domain"
import { Effect } from "effect"
import { Api, CurrentAccount } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { transactionView } from "./TransactionHandlers.js"
import { movementView } from "./TransferHandlers.js"

/** The plan as the API shows it (the spec's DisbursementPlan and our extras). */
export const planView = (plan: Plan) => ({
  id: plan.id,
  customerId: plan.customerId,
  amount: Plans.instalmentAmount(plan),
  totalAmountKobo: plan.totalAmountKobo,
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
  cyclesTotal: plan.cycleCount,
  cyclesPaid: plan.nextCycle,
  createdAt: plan.createdAt.toISOString(),
  updatedAt: plan.updatedAt.toISOString()
})

const planMovementView = (t: Transfer) => ({ ...movementView(t), transactionId: t.id })

const signedIn = Effect.map(CurrentAccount, ({ account }) => account.id)

const plans = mapDomainErrors("Disbursement")

export const PlanHandlers = HttpApiBuilder.group(Api, "plans", (handlers) =>
  handlers
    .handle("quote", ({ urlParams }) => Plans.quote(urlParams.amountKobo).pipe(plans))
    .handle("upsert", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Plans.upsertPlan(accountId, payload)).pipe(
        Effect.map(planView),
        plans
      ))
    .handle("patch", ({ payload: { otpCode, otpPinId, ...terms } }) =>
      Effect.flatMap(signedIn, (accountId) => Plans.patchPlan(accountId, terms, otpPinId, otpCode)).pipe(
          Effect.map(planView),
          plans
        ))
    .handle("get", () => Effect.flatMap(signedIn, Plans.getPlan).pipe(Effect.map(planView), plans))
    .handle("history", () =>
      Effect.flatMap(signedIn, Plans.history).pipe(Effect.map((rows) => rows.map(transactionView)), plans))
    .handle("borrowQuote", () =>
      Effect.flatMap(signedIn, Plans.borrowQuote).pipe(
        Effect.map((q) =>
          q.eligible
            ? { eligible: true, amountKobo: q.amountKobo }
            : { eligible: false, amountKobo: q.amountKobo, reason: q.reason }
        ),
        plans
      ))
    .handle("borrow", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Plans.borrow(accountId, payload.idempotencyKey)).pipe(
        Effect.map(planMovementView),
        plans
      ))
    .handle("extraCashQuote", () => Effect.flatMap(signedIn, Plans.extraCashQuote).pipe(plans))
    .handle("extraCash", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Plans.extraCash(accountId, payload.amountKobo, payload.idempotencyKey)).pipe(
        Effect.map(planMovementView),
        plans
      )))
