/**
 * Reading a plan, its history and a quote.
 */
import { Effect, Option } from "effect"
import { requireAccount } from "../account/Accounts.js"
import * as Settings from "../settings/Settings.js"
import type { Kobo } from "../shared/Money.js"
import { TransactionRepo } from "../transactions/Ports.js"
import * as Fees from "../transfers/Fees.js"
import { activateIfFunded } from "./Activation.js"
import { PlanNotFound } from "./Errors.js"
import { Plan } from "./Model.js"
import { PlanRepo } from "./Ports.js"
import * as Schedule from "./Schedule.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, CustomerId } from "../shared/Ids.js"

export const requireCustomer = (accountId: AccountId) => Effect.map(requireAccount(accountId), (a) => a.customer)

/** The customer's plan (the open one, else the latest completed one), or none. */
export const findPlan = (customerId: CustomerId) => Effect.flatMap(PlanRepo, (repo) => repo.findForCustomer(customerId))

/**
 * `GET /disbursements/plan`: the customer's plan or PlanNotFound. A plan waiting for funds (or
 * depleted) is checked against the wallet first, so a customer who just funded it sees it active
 * at once rather than after the activation job's next run.
 */
export const getPlan = (accountId: AccountId) =>
  Effect.gen(function*() {
    const customer = yield* requireCustomer(accountId)
    const plan = yield* findPlan(customer.id)
    if (Option.isNone(plan)) return yield* new PlanNotFound()
    return yield* activateIfFunded(plan.value)
  }).pipe(withSpan("Plans.getPlan"))

/** The per-cycle amount a client shows: the regular instalment (the last one also carries the remainder). */
export const instalmentAmount = (plan: Plan): Kobo => Schedule.regularAmount(plan.totalAmountKobo, plan.cycleCount)

/** `GET /disbursements/history`: the customer's payouts (scheduled and Borrow), newest first. */
export const history = (accountId: AccountId) =>
  Effect.gen(function*() {
    const customer = yield* requireCustomer(accountId)
    return yield* (yield* TransactionRepo).listForCustomerByPurpose(customer.id, "disbursement")
  }).pipe(withSpan("Plans.history"))

/**
 * `GET /disbursements/plan/quote`: depositFee estimates what the customer's own bank may charge to
 * send `amountKobo` into the wallet by NIP (not charged by us); disbursementFee is the NIP fee (with
 * VAT) we debit on top of a payout of `amountKobo`, each cycle.
 */
export const quote = (amountKobo: Kobo) =>
  Effect.gen(function*() {
    const fee = Fees.quote(amountKobo, yield* Settings.get(Settings.NipFees))
    const depositFee = { feeKobo: fee.feeKobo + fee.vatKobo, description: "Estimate of what your bank may charge to fund your wallet by transfer; not charged by us" }
    const disbursementFee = { feeKobo: fee.feeKobo + fee.vatKobo, description: "NIP transfer fee (with VAT) debited with each payout" }
    return { amountKobo, depositFee, disbursementFee, totalFeesKobo: depositFee.feeKobo + disbursementFee.feeKobo }
  })
