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
import { CustomerId } from "../shared/Ids.js"

export const walletBalance = (customerId: CustomerId) =>
  Effect.gen(function*() {
    const found = yield* (yield* AccountRepo).findByCustomerId(customerId)
    const accountNumber = Option.flatMapNullable(found, (a) => a.customer.coreAccountNumber)
    if (Option.isNone(accountNumber)) return Option.none<{ accountNumber: string; withdrawableKobo: Kobo }>()
    const snapshot = yield* (yield* CoreBanking).account(accountNumber.value)
    return Option.some({ accountNumber: accountNumber.value, withdrawableKobo: snapshot.withdrawableBalanceKobo })
  })

/**
 * The NIP fee (with VAT) charged on the payout of `amountKobo` for cycle `index` of the plan's
 * current schedule: the fee under `nip`, never more than the one the schedule was funded for (its
 * caps, kept at activation). A fee raised by staff after a plan was funded is borne by the service
 * for that plan; a fee lowered is passed on (docs/decisions/nip-fee-raised-mid-plan.md).
 */
export const payoutFee = (plan: Plan, index: number, amountKobo: Kobo, nip: Fees.NipFeeSchedule): Kobo => {
  const q = Fees.quote(amountKobo, nip)
  const current = q.feeKobo + q.vatKobo
  const cap = index === plan.cycleCount - 1 ? plan.lastPayoutFeeCapKobo : plan.payoutFeeCapKobo
  return cap === null || cap === undefined || cap > current ? current : cap
}

/**
 * What the wallet must hold for the plan to be "covered": its remaining payouts AND the NIP fee
 * (with VAT) each of them debits (`payoutFee`: what the payouts will really be charged). One
 * definition for activation, the depleted notice and Extra Cash's reserve. A payout needs only its
 * own instalment and fee, never more than this, so a plan that is activated can pay its next cycle,
 * and a depleted plan is not resumed before it can (a plan on its last cycle with exactly the pot in
 * the wallet used to loop depleted → active).
 */
export const reservedFor = (plan: Plan, nip: Fees.NipFeeSchedule): Kobo => {
  const remaining = plan.cycleCount - plan.nextCycle
  if (remaining <= 0 || plan.state === "completed" || plan.state === "closed") return 0n
  const lastIndex = plan.cycleCount - 1
  const regular = Schedule.regularAmount(plan.totalAmountKobo, plan.cycleCount)
  const last = Schedule.amountOfCycle(plan.totalAmountKobo, plan.cycleCount, lastIndex)
  const regularTotal = remaining > 1 ? BigInt(remaining - 1) * (regular + payoutFee(plan, plan.nextCycle, regular, nip)) : 0n
  return regularTotal + last + payoutFee(plan, lastIndex, last, nip)
}

/** `reservedFor` under the current NIP fee settings. */
export const coverageNeeded = (plan: Plan) => Effect.map(Settings.get(Settings.NipFees), (nip) => reservedFor(plan, nip))

/** The fee caps of a schedule funded now, under `nip` (see `payoutFee`). */
const feeCaps = (plan: Plan, nip: Fees.NipFeeSchedule) => {
  const feeOf = (amount: Kobo) => {
    const q = Fees.quote(amount, nip)
    return q.feeKobo + q.vatKobo
  }
  return {
    payoutFeeCapKobo: feeOf(Schedule.regularAmount(plan.totalAmountKobo, plan.cycleCount)),
    lastPayoutFeeCapKobo: feeOf(Schedule.amountOfCycle(plan.totalAmountKobo, plan.cycleCount, plan.cycleCount - 1))
  }
}

/**
 * What the customer must add to the wallet for the plan to start (or resume): the rest of the pot
 * and the fees of its payouts, less the withdrawable balance. 0 when the plan is not waiting for
 * funds (awaiting_funds or depleted), or the wallet covers it. Provider trouble: unknown (none).
 */
export const fundingNeeded = (plan: Plan) =>
  Effect.gen(function*() {
    if (plan.state !== "awaiting_funds" && plan.state !== "depleted") return Option.some<Kobo>(0n)
    const needed = yield* coverageNeeded(plan)
    const wallet = yield* walletBalance(plan.customerId)
    const held = Option.match(wallet, { onNone: () => 0n, onSome: (w) => w.withdrawableKobo })
    return Option.some(needed > held ? needed - held : 0n)
  }).pipe(
    Effect.catchTags({
      ProviderRefused: () => Effect.succeed(Option.none<Kobo>()),
      ProviderUnknownOutcome: () => Effect.succeed(Option.none<Kobo>()),
      ProviderMisconfigured: () => Effect.succeed(Option.none<Kobo>())
    })
  )

/**
 * The instant a replaced schedule's first payout must come after: now, or, when the last instalment
 * paid was due later than that (a Borrow paid it early), the end of its local day. A new schedule
 * never pays in a period a Borrow already paid, nor twice on the day of the last payout.
 */
const notBefore = (plan: Plan, at: Date) =>
  Effect.gen(function*() {
    if (plan.cycleBase === 0) return at
    const last = yield* (yield* PlanRepo).findInstalment(plan.id, plan.cycleBase - 1)
    if (Option.isNone(last) || last.value.status !== "paid") return at
    const endOfItsDay = Schedule.localDayBounds(last.value.dueAt, plan.timeZone).end.getTime() - 1
    return endOfItsDay > at.getTime() ? new Date(endOfItsDay) : at
  })

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
    const nip = yield* Settings.get(Settings.NipFees)
    if (Option.isNone(wallet) || wallet.value.withdrawableKobo < reservedFor(plan, nip)) return plan
    const at = yield* now
    const terms = termsOf(plan)
    const fresh = plan.state === "awaiting_funds" || plan.anchorDate === null
    const anchor = fresh ? Schedule.anchorDate(terms, yield* notBefore(plan, at)) : plan.anchorDate!
    // a new schedule is funded for today's fees; a resumed one keeps those it was funded for
    const caps = fresh || plan.payoutFeeCapKobo === null ? feeCaps(plan, nip) : {}
    const activated = yield* (yield* PlanRepo).save(
      new Plan({
        ...plan,
        ...caps,
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
export const activateForCustomer = (customerId: CustomerId) =>
  Effect.flatMap(findPlan(customerId), Option.match({ onNone: () => Effect.void, onSome: (p) => Effect.asVoid(activateIfFunded(p)) }))
