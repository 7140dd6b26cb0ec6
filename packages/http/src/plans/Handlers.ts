import { HttpApiBuilder } from "@effect/platform"
import { Plans } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { signedIn } from "../shared/Security.js"
import { transactionView } from "../transactions/Views.js"
import { planMovementView, planView } from "./Views.js"

const plans = mapDomainErrors("Disbursement")

export const PlanHandlers = HttpApiBuilder.group(Api, "plans", (handlers) =>
  handlers
    .handle("quote", ({ urlParams }) => Plans.quote(urlParams.amountKobo).pipe(plans))
    .handle("upsert", ({ payload: { otpCode, otpPinId, ...terms } }) =>
      Effect.flatMap(signedIn, (accountId) => Plans.upsertPlan(accountId, terms, { otpPinId, otpCode })).pipe(
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
