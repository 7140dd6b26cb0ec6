import { HttpApiBuilder } from "@effect/platform"
import { type Plan, Plans } from "@app/domain"
import { Effect, Option } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { signedIn } from "../shared/Security.js"
import { transactionView } from "../transactions/Views.js"
import { planMovementView, planView } from "./Views.js"

const plans = mapDomainErrors("Disbursement")

/** The plan with what the wallet lacks for it (omitted when the bank cannot tell now). */
const withFunding = (plan: Plan) =>
  Effect.map(Plans.fundingNeeded(plan), (needed) => planView(plan, Option.getOrUndefined(needed)))

export const PlanHandlers = HttpApiBuilder.group(Api, "plans", (handlers) =>
  handlers
    .handle("quote", ({ urlParams }) => Plans.quote(urlParams.amountKobo).pipe(plans))
    .handle("upsert", ({ payload: { otpCode, otpPinId, ...terms } }) =>
      Effect.flatMap(signedIn, (accountId) => Plans.upsertPlan(accountId, terms, { otpPinId, otpCode })).pipe(
        Effect.flatMap(withFunding),
        plans
      ))
    .handle("patch", ({ payload: { otpCode, otpPinId, ...terms } }) =>
      Effect.flatMap(signedIn, (accountId) => Plans.patchPlan(accountId, terms, otpPinId, otpCode)).pipe(
        Effect.flatMap(withFunding),
        plans
      ))
    .handle("get", () => Effect.flatMap(signedIn, Plans.getPlan).pipe(Effect.flatMap(withFunding), plans))
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
