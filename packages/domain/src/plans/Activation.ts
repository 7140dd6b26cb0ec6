/**
 * Activation: a plan starts paying once the wallet covers its pot and every payout's NIP fee.
 */
import { Duration, Effect, Option } from "effect"
import { AccountRepo } from "../account/Ports.js"
import { CoreBanking } from "../banking/CoreBanking.js"
import * as Settings from "../settings/Settings.js"
import type { Kobo } from "../shared/Money.js"
import { now } from "../shared/UseCase.js"
import * as Fees from "../transfers/Fees.js"
import { LEASE } from "../transfers/Steps.js"
import { Plan } from "./Model.js"
import { PlanRepo } from "./Ports.js"
import { findPlan } from "./Queries.js"
import * as Schedule from "./Schedule.js"
import { termsOf } from "./Terms.js"
import { withSpan } from "../shared/Spans.js"

export const walletBalance = (customerId: string) =>
  Effect.gen(function*() {
    const found = yield* (yield* AccountRepo).findByCustomerId(customerId)
    const accountNumber = Option.flatMapNullable(found, (a) => a.customer.coreAccountNumber)
    if (Option.isNone(accountNumber)) return Option.none<{ accountNumber: string; withdrawableKobo: Kobo }>()
    const snapshot = yield* (yield* CoreBanking).account(accountNumber.value)
    return Option.some({ accountNumber: accountNumber.value, withdrawableKobo: snapshot.withdrawableBalanceKobo })
  })

/**
 * What the wallet must hold for the plan to be "covered": its remaining payouts AND the NIP fee
 * (with VAT) each of them debits. One definition for activation, the depleted notice and Extra
 * Cash's reserve. A payout needs only its own instalment and fee, never more than this, so a plan
 * that is activated can pay its next cycle, and a depleted plan is not resumed before it can (a
 * plan on its last cycle with exactly the pot in the wallet used to loop depleted → active).
 */
export const reservedFor = (plan: Plan, nip: Fees.NipFeeSchedule): Kobo => {
  const remaining = plan.cycleCount - plan.nextCycle
  if (remaining <= 0 || plan.state === "completed" || plan.state === "closed") return 0n
  const regular = Schedule.regularAmount(plan.totalAmountKobo, plan.cycleCount)
  const last = Schedule.amountOfCycle(plan.totalAmountKobo, plan.cycleCount, plan.cycleCount - 1)
  const feeOf = (amount: Kobo) => Fees.quote(amount, nip).totalKobo
  return BigInt(remaining - 1) * feeOf(regular) + feeOf(last)
}

/** `reservedFor` under the current NIP fee settings. */
export const coverageNeeded = (plan: Plan) => Effect.map(Settings.get(Settings.NipFees), (nip) => reservedFor(plan, nip))

/**
 * Activates a plan awaiting funds, or resumes a depleted one, when the wallet covers the rest of the
 * pot. A new plan is anchored at the first slot after now; a depleted one keeps its anchor, so its
 * missed cycles are due at once and are caught up in order. Provider trouble leaves it as it is.
 * The plan as it then stands is returned: when someone else saved it first, the stored one.
 */
export const activateIfFunded = (plan: Plan) =>
  Effect.gen(function*() {
    if (plan.state !== "awaiting_funds" && plan.state !== "depleted") return plan
    const wallet = yield* walletBalance(plan.customerId)
    if (Option.isNone(wallet) || wallet.value.withdrawableKobo < (yield* coverageNeeded(plan))) return plan
    const at = yield* now
    const terms = termsOf(plan)
    const anchor = plan.state === "awaiting_funds" || plan.anchorDate === null ? Schedule.anchorDate(terms, at) : plan.anchorDate
    const activated = yield* (yield* PlanRepo).save(
      new Plan({
        ...plan,
        state: "active",
        anchorDate: anchor,
        nextDueAt: Schedule.dueAt(terms, anchor, plan.nextCycle),
        activatedAt: plan.activatedAt ?? at,
        updatedAt: at
      })
    )
    yield* Effect.logInfo("plan activated").pipe(Effect.annotateLogs({ planId: plan.id, from: plan.state }))
    return activated
  }).pipe(
    Effect.catchTags({
      // saved meanwhile (most often activated by the activation job, or by a deposit, between our
      // read and our save): the plan as it now stands, not the stale one we read
      PlanConflict: () => Effect.map(Effect.flatMap(PlanRepo, (repo) => repo.findById(plan.id)), Option.getOrElse(() => plan)),
      ProviderRefused: () => Effect.succeed(plan),
      ProviderUnknownOutcome: () => Effect.succeed(plan),
      ProviderMisconfigured: () => Effect.succeed(plan)
    })
  )

/**
 * The activation job: plans awaiting funds or depleted whose wallet now covers them become active.
 * An activated plan is released at once (the due-payout job must see it); one still short keeps its
 * lease until it expires, which sends it to the back of the queue: every waiting plan gets its turn.
 */
export const activateFundedPlans = (options: { readonly limit?: number; readonly concurrency?: number } = {}) =>
  Effect.gen(function*() {
    const repo = yield* PlanRepo
    const at = yield* now
    const claimed = yield* repo.claimInactive(at, new Date(at.getTime() + Duration.toMillis(LEASE)), options.limit ?? 200)
    const activated = yield* Effect.forEach(
      claimed,
      (plan) =>
        activateIfFunded(plan).pipe(
          Effect.map((p) => p.state === "active"),
          Effect.tap((activated) => (activated ? repo.release(plan.id) : Effect.void))
        ),
      { concurrency: options.concurrency ?? 8 }
    )
    return { checked: claimed.length, activated: activated.filter(Boolean).length }
  }).pipe(withSpan("Plans.activateFundedPlans"))

/** After a deposit: the customer's plan may now be covered. */
export const activateForCustomer = (customerId: string) =>
  Effect.flatMap(findPlan(customerId), Option.match({ onNone: () => Effect.void, onSome: (p) => Effect.asVoid(activateIfFunded(p)) }))
