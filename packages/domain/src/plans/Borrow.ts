/**
 * Borrow: the next instalment paid now, within the eligibility rules.
 */
import { Effect, Option } from "effect"
import * as Settings from "../settings/Settings.js"
import type { Kobo } from "../shared/Money.js"
import { SecretHasher } from "../shared/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import { WithdrawalsNotAllowed } from "../transfers/Errors.js"
import { driveFresh } from "../transfers/Executor.js"
import { requireWallet } from "./Editing.js"
import { BorrowNotEligible, PlanNotFound } from "./Errors.js"
import { Instalment, Plan } from "./Model.js"
import { createMovement, cycleIndex, ensureCurrentInstalment, nextPayoutFee, settle } from "./Payouts.js"
import { PlanRepo } from "./Ports.js"
import { findPlan, requireCustomer } from "./Queries.js"
import { replay, replayOr, sameRequest } from "./Replay.js"
import * as Schedule from "./Schedule.js"
import { termsOf } from "./Terms.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, CustomerId } from "../shared/Ids.js"

export type BorrowEligibility =
  | { readonly eligible: true; readonly amountKobo: Kobo }
  | { readonly eligible: false; readonly amountKobo: Kobo; readonly reason: string }

/**
 * Borrow rules (pure): the plan is active; the next cycle is not the final one; the customer has
 * not already borrowed or been paid this period; the lifetime cap is not reached. "This period" is
 * the one ending at the next due date on the plan's calendar: Borrow pays that cycle now, so a
 * second Borrow (or one after the cycle was paid) would reach into a later period. A cycle whose
 * payout is due or in progress also refuses. `replaced`: the last instalment paid under a schedule
 * an edit replaced, while the new one has paid none: when it was a Borrow of a period still ahead, the
 * new schedule's first cycle is the period after it, and is refused like a second Borrow.
 */
export const borrowEligibility = (
  plan: Plan,
  at: Date,
  cap: number,
  current: Option.Option<Instalment>,
  replaced: Option.Option<Instalment> = Option.none()
): BorrowEligibility => {
  const amountKobo = plan.nextCycle < plan.cycleCount
    ? Schedule.amountOfCycle(plan.totalAmountKobo, plan.cycleCount, plan.nextCycle)
    : 0n
  const no = (reason: string): BorrowEligibility => ({ eligible: false, amountKobo, reason })
  if (plan.state !== "active" || plan.anchorDate === null) return no("Your plan is not active")
  if (plan.nextCycle >= plan.cycleCount - 1) return no("Borrow is not available for the final period of a plan")
  if (Option.isSome(current) && current.value.status === "open" && current.value.transactionId !== null) {
    return no("A payout of your plan is in progress")
  }
  if (plan.nextDueAt !== null && plan.nextDueAt.getTime() <= at.getTime()) return no("A scheduled payout of your plan is due now")
  // the calendar's next cycle: the first whose due date is still ahead
  const terms = termsOf(plan)
  let calendar = 0
  while (calendar < plan.cycleCount && Schedule.dueAt(terms, plan.anchorDate, calendar).getTime() <= at.getTime()) calendar++
  if (plan.nextCycle > calendar) return no("You have already borrowed or been paid this period")
  if (
    plan.nextCycle === 0 && Option.isSome(replaced) && replaced.value.status === "paid" &&
    replaced.value.dueAt.getTime() > at.getTime()
  ) return no("You have already borrowed or been paid this period")
  if (plan.borrowCount >= cap) return no(`You have used all ${cap} borrows of this plan`)
  return { eligible: true, amountKobo }
}

/** The last instalment paid under the schedule an edit replaced, while the current one has paid none. */
const replacedInstalment = (plan: Plan) =>
  plan.nextCycle === 0 && plan.cycleBase > 0
    ? Effect.flatMap(PlanRepo, (repo) => repo.findInstalment(plan.id, plan.cycleBase - 1))
    : Effect.succeed(Option.none<Instalment>())

const requireOpenPlan = (customerId: CustomerId) =>
  Effect.flatMap(findPlan(customerId), (found) =>
    Option.isSome(found) && found.value.state !== "completed" ? Effect.succeed(found.value) : Effect.fail(new PlanNotFound()))

/** `GET /disbursements/plan/borrow/quote`. */
export const borrowQuote = (accountId: AccountId) =>
  Effect.gen(function*() {
    const customer = yield* requireCustomer(accountId)
    const found = yield* findPlan(customer.id)
    if (Option.isNone(found)) return yield* new PlanNotFound()
    const plan = found.value
    const current = yield* (yield* PlanRepo).findInstalment(plan.id, cycleIndex(plan))
    return borrowEligibility(plan, yield* now, yield* Settings.get(Settings.BorrowCap), current, yield* replacedInstalment(plan))
  }).pipe(withSpan("Plans.borrowQuote"))

/**
 * `POST /disbursements/plan/borrow`: pays the next cycle now (no fee beyond its NIP fee). The cycle
 * then counts as paid: its scheduled payout is skipped and the schedule continues from the next
 * one. The idempotency key works as for transfers. Eligibility is checked again under the plan's
 * row lock, so concurrent requests cannot exceed the cap or borrow twice in a period.
 */
export const borrow = (accountId: AccountId, idempotencyKey: string) =>
  Effect.gen(function*() {
    const { customer } = yield* requireWallet(accountId)
    if (customer.firstDepositAt === null) return yield* new WithdrawalsNotAllowed()
    const requestHash = yield* (yield* SecretHasher).digest("plan-request", "borrow")
    const earlier = yield* replay(customer.id, idempotencyKey, requestHash)
    if (Option.isSome(earlier)) return earlier.value
    const planId = (yield* requireOpenPlan(customer.id)).id
    const repo = yield* PlanRepo
    const cap = yield* Settings.get(Settings.BorrowCap)
    // stored and driven as one uninterruptible step: a client that goes away does not leave the
    // customer's account in flight until recovery takes over
    const started = yield* Effect.uninterruptible(atomically(Effect.gen(function*() {
      const at = yield* now
      const plan = Option.getOrThrow(yield* repo.lock(planId))
      const current = yield* repo.findInstalment(plan.id, cycleIndex(plan))
      const eligibility = borrowEligibility(plan, at, cap, current, yield* replacedInstalment(plan))
      if (!eligibility.eligible) return yield* new BorrowNotEligible({ reason: eligibility.reason })
      const instalment = yield* ensureCurrentInstalment(plan, at)
      const created = yield* createMovement(plan, {
        kind: "borrow",
        amountKobo: instalment.amountKobo,
        feeKobo: yield* nextPayoutFee(plan, instalment.amountKobo),
        idempotencyKey,
        requestHash,
        narration: `Borrow: plan payout ${plan.nextCycle + 1} of ${plan.cycleCount}`
      }, at)
      // a concurrent request with the same key got there first: its movement is the answer (its
      // own request drives it)
      if (!created.created) return { transfer: created.transfer, created: false }
      yield* repo.saveInstalment(new Instalment({ ...instalment, kind: "borrow", transactionId: created.transfer.id, updatedAt: at }))
      return { transfer: created.transfer, created: true }
    })).pipe(
      Effect.flatMap(({ created, transfer }) =>
        created ? Effect.zipLeft(driveFresh(transfer), settle(planId)) : Effect.succeed(transfer)
      )
    ))
    return yield* sameRequest(started, requestHash)
  }).pipe(
    Effect.catchTags({
      MovementInFlight: (e) => replayOr(accountId, idempotencyKey, "borrow", e),
      BorrowNotEligible: (e) => replayOr(accountId, idempotencyKey, "borrow", e)
    }),
    withSpan("Plans.borrow")
  )
