/**
 * The due-payout job: one instalment per cycle, paid once through the transfer saga.
 */
import { Duration, Effect, Metric, Option } from "effect"
import { AccountRepo } from "../account/Ports.js"
import { NoBankAccount } from "../banking/Errors.js"
import * as Notices from "../notifications/Notices.js"
import * as Settings from "../settings/Settings.js"
import { formatNaira, type Kobo } from "../shared/Money.js"
import { atomically, now } from "../shared/UseCase.js"
import { startAndDrive } from "../transfers/Executor.js"
import { processDue } from "../transfers/Reconcile.js"
import type { NipFeeSchedule } from "../transfers/Fees.js"
import { newTransfer, type Transfer } from "../transfers/Model.js"
import { TransferRepo } from "../transfers/Ports.js"
import { INSUFFICIENT_BALANCE, LEASE } from "../transfers/Steps.js"
import { coverageNeeded, payoutFee } from "./Activation.js"
import { Instalment, Plan } from "./Model.js"
import { PlanRepo } from "./Ports.js"
import { wholePotKobo } from "./Pot.js"
import * as Schedule from "./Schedule.js"
import { termsOf } from "./Terms.js"
import { withSpan } from "../shared/Spans.js"
import { CustomerId, PlanId, TransactionId, newId } from "../shared/Ids.js"

export const cycleIndex = (plan: Plan) => plan.cycleBase + plan.nextCycle

/**
 * The NIP fee (with VAT) of the payout of the plan's next cycle, of `amountKobo`, under the current
 * fee settings and the plan's fee caps (`payoutFee`).
 */
export const nextPayoutFee = (plan: Plan, amountKobo: Kobo) =>
  Effect.map(Settings.get(Settings.NipFees), (schedule) => payoutFee(plan, plan.nextCycle, amountKobo, schedule))

const sourceAccount = (customerId: CustomerId) =>
  Effect.flatMap(AccountRepo, (repo) => repo.findByCustomerId(customerId)).pipe(
    Effect.flatMap((found) =>
      Option.isSome(found) && found.value.customer.coreAccountNumber !== null
        ? Effect.succeed(found.value.customer.coreAccountNumber)
        : Effect.fail(new NoBankAccount())
    )
  )

/** The instalment record of the plan's next cycle as the current terms schedule it: open, no attempt. */
const scheduledInstalment = (plan: Plan, at: Date) =>
  new Instalment({
    planId: plan.id,
    cycle: cycleIndex(plan),
    amountKobo: Schedule.amountOfCycle(plan.totalAmountKobo, plan.cycleCount, plan.nextCycle),
    kind: "scheduled",
    status: "open",
    attempts: 0,
    transactionId: null,
    dueAt: Schedule.dueAt(termsOf(plan), plan.anchorDate!, plan.nextCycle),
    paidAt: null,
    createdAt: at,
    updatedAt: at
  })

/** The open instalment record of the plan's next cycle, created (as scheduled) when missing. */
export const ensureCurrentInstalment = (plan: Plan, at: Date) =>
  Effect.gen(function*() {
    const repo = yield* PlanRepo
    const scheduled = scheduledInstalment(plan, at)
    const { amountKobo, dueAt } = scheduled
    const stored = yield* repo.ensureInstalment(scheduled)
    // an edit may have replaced the schedule since the record was made: it takes the current terms
    if (stored.status === "open" && stored.transactionId === null && (stored.amountKobo !== amountKobo || stored.dueAt.getTime() !== dueAt.getTime())) {
      return yield* repo.saveInstalment(new Instalment({ ...stored, amountKobo, dueAt, updatedAt: at }))
    }
    return stored
  })

interface PayoutRequest {
  readonly kind: "scheduled" | "borrow" | "extra_cash"
  readonly amountKobo: Kobo
  readonly feeKobo: Kobo
  readonly reserveKobo?: Kobo
  readonly idempotencyKey: string
  readonly requestHash: string
  readonly narration: string
}

const movementOf = (plan: Plan, request: PayoutRequest, at: Date, id: TransactionId, sourceAccountNumber: string) =>
  newTransfer({
    id,
    customerId: plan.customerId,
    sourceAccountNumber,
    planId: plan.id,
    purpose: request.kind === "extra_cash" ? "early_withdrawal" : "disbursement",
    amountKobo: request.amountKobo,
    feeKobo: request.feeKobo,
    reserveKobo: request.reserveKobo ?? 0n,
    destinationAccountNumber: plan.withdrawalAccountNumber,
    destinationBankCode: plan.withdrawalBankCode,
    destinationBankName: plan.withdrawalBankName,
    destinationAccountName: plan.withdrawalAccountName,
    // of unknown age: the saga makes a fresh name enquiry before it sends (NIP sessions expire)
    nameEnquirySessionId: plan.nameEnquirySessionId,
    narration: request.narration,
    idempotencyKey: request.idempotencyKey.replace("{id}", id),
    requestHash: request.requestHash,
    leaseUntil: new Date(at.getTime() + Duration.toMillis(LEASE)),
    createdAt: at
  })

/** A new movement from the wallet to the plan's withdrawal account (stored, not yet driven). */
export const createMovement = (plan: Plan, request: PayoutRequest, at: Date) =>
  Effect.gen(function*() {
    const id = yield* newId(TransactionId)
    return yield* (yield* TransferRepo).create(movementOf(plan, request, at, id, yield* sourceAccount(plan.customerId)))
  })

/** A payout started: its movement, and the plan and instalment as they stood when it was linked. */
interface Started {
  readonly transfer: Transfer
  readonly plan: Plan
  readonly instalment: Instalment
}

/**
 * Starts the payout of the plan's next cycle, if it is due and has no live attempt: under the plan's
 * row lock the instalment record is made (or taken) and linked to a new movement, so however many
 * schedulers get here, one attempt exists. Returns the movement to drive, if one was started. The
 * fee schedule is the caller's (read once per batch of plans).
 */
const startDuePayout = (planId: PlanId, fees: NipFeeSchedule) =>
  atomically(Effect.gen(function*() {
    const repo = yield* PlanRepo
    const at = yield* now
    const plan = Option.getOrThrow(yield* repo.lock(planId))
    if (plan.state !== "active" || plan.nextDueAt === null || plan.nextDueAt.getTime() > at.getTime()) return Option.none<Started>()
    if (plan.nextCycle >= plan.cycleCount) return Option.none<Started>()
    // a customer being closed (moved to `closing` under this same lock) gets no payout
    const owner = yield* (yield* AccountRepo).findStanding(plan.customerId)
    if (Option.isNone(owner) || owner.value.customerStatus !== "active") return Option.none<Started>()
    const source = owner.value.coreAccountNumber
    if (source === null) return yield* new NoBankAccount()
    const id = yield* newId(TransactionId)
    // the instalment is linked to the new movement's id first (made, or taken while open with no
    // attempt, with the current terms), which releases the customer's slot held for this payout:
    // when it is not free, nothing is written and there is no attempt; when the movement then
    // cannot be stored, the unit of work undoes the link (and the release)
    const linked = yield* repo.linkInstalment(new Instalment({ ...scheduledInstalment(plan, at), transactionId: id }))
    if (Option.isNone(linked)) return Option.none<Started>()
    const instalment = linked.value
    // the key embeds the new id: it cannot be stored yet, so the movement is inserted without a lookup
    const transfer = yield* (yield* TransferRepo).createFresh(movementOf(plan, {
      kind: "scheduled",
      amountKobo: instalment.amountKobo,
      feeKobo: payoutFee(plan, plan.nextCycle, instalment.amountKobo, fees),
      idempotencyKey: `plan-payout:{id}`,
      requestHash: `plan:${plan.id}:${instalment.cycle}`,
      narration: `Plan payout ${plan.nextCycle + 1} of ${plan.cycleCount}`
    }, at, id, source))
    return Option.some<Started>({ transfer, plan, instalment })
  }))

/**
 * Records the outcome of the live attempt of the plan's current instalment, once its movement is
 * final (see the module notes): paid → the schedule moves on (or the plan completes); failed → the
 * instalment is free again and the plan is depleted, retried later or paused. Idempotent.
 */
export const settle = (planId: PlanId) =>
  Effect.gen(function*() {
    const repo = yield* PlanRepo
    const transfers = yield* TransferRepo
    const at = yield* now
    const raised = yield* atomically(Effect.gen(function*() {
      const plan = Option.getOrThrow(yield* repo.lock(planId))
      // a plan ended by the account's closure keeps its state whatever its last attempt did
      if (plan.nextCycle >= plan.cycleCount || plan.state === "closed") return null
      const found = yield* repo.findInstalment(plan.id, cycleIndex(plan))
      if (Option.isNone(found)) return null
      const instalment = found.value
      const transfer = instalment.transactionId === null ? Option.none<Transfer>() : yield* transfers.findById(instalment.transactionId)
      if (instalment.status === "open" && (Option.isNone(transfer) || transfer.value.status === "pending")) return null
      if (instalment.status === "paid" || (Option.isSome(transfer) && transfer.value.status === "confirmed")) {
        const paidAt = instalment.paidAt ?? (Option.isSome(transfer) ? transfer.value.updatedAt : at)
        yield* repo.saveInstalment(new Instalment({ ...instalment, status: "paid", paidAt, updatedAt: at }))
        const saved = yield* repo.save(advanced(plan, instalment.kind === "borrow" && instalment.status === "open", at))
        return completedNotice(saved)
      }
      // the attempt failed (its debit, if any, reversed by the saga)
      const failed = transfer.pipe(Option.getOrThrow)
      if (instalment.kind === "borrow") {
        // a Borrow that did not go through leaves the cycle to the schedule
        yield* repo.saveInstalment(new Instalment({ ...instalment, kind: "scheduled", transactionId: null, updatedAt: at }))
        return null
      }
      if (failed.failureReason === INSUFFICIENT_BALANCE && failed.debitState !== "applied") {
        const needed = yield* coverageNeeded(plan)
        yield* repo.saveInstalment(new Instalment({ ...instalment, transactionId: null, updatedAt: at }))
        yield* repo.save(new Plan({ ...plan, state: "depleted", nextDueAt: null, updatedAt: at }))
        return {
          kind: "plan_depleted" as const,
          subject: "Your plan payout is on hold: fund your wallet",
          message: `Your ${formatNaira(instalment.amountKobo)} payout due ${instalment.dueAt.toISOString()} could not be made: ` +
            `your wallet does not cover it and its fee. Fund your wallet with at least ${formatNaira(needed)} ` +
            `and your plan resumes, paying what is due.`
        }
      }
      const rules = yield* Settings.get(Settings.PayoutRetrySetting)
      const attempts = instalment.attempts + 1
      yield* repo.saveInstalment(new Instalment({ ...instalment, attempts, transactionId: null, updatedAt: at }))
      if (attempts >= rules.maxAttempts) {
        yield* repo.save(new Plan({ ...plan, state: "paused", nextDueAt: null, updatedAt: at }))
        return {
          kind: "plan_paused" as const,
          subject: "Your plan payouts are paused",
          message: `We could not pay ${formatNaira(instalment.amountKobo)} to ${plan.withdrawalAccountName} ` +
            `(${plan.withdrawalAccountNumber}) after ${attempts} attempts. The money is in your wallet. ` +
            `Check the withdrawal account and update your plan to resume the payouts.`
        }
      }
      yield* repo.save(
        new Plan({ ...plan, nextDueAt: new Date(at.getTime() + rules.retryAfterMinutes * 60_000), updatedAt: at })
      )
      return null
    }))
    if (raised !== null) yield* Notices.raise({ customerId: (yield* repo.findById(planId)).pipe(Option.getOrThrow).customerId, planId, ...raised })
  }).pipe(
    // someone else settled it first: that is fine
    Effect.catchTag("PlanConflict", () => Effect.void),
    withSpan("Plans.settle", { attributes: { planId } })
  )

/** The plan once its current cycle is paid: on to the next cycle, or completed after the last. */
const advanced = (plan: Plan, borrowed: boolean, at: Date) => {
  const nextCycle = plan.nextCycle + 1
  const completed = nextCycle >= plan.cycleCount
  return new Plan({
    ...plan,
    nextCycle,
    borrowCount: plan.borrowCount + (borrowed ? 1 : 0),
    state: completed ? "completed" : plan.state,
    nextDueAt: completed ? null : Schedule.dueAt(termsOf(plan), plan.anchorDate!, nextCycle),
    completedAt: completed ? at : null,
    updatedAt: at
  })
}

const completedNotice = (plan: Plan) =>
  plan.state === "completed"
    ? {
      kind: "plan_completed" as const,
      subject: "Your disbursement plan is complete",
      message: `Every instalment of your ${formatNaira(wholePotKobo(plan))} plan has been paid.`
    }
    : null

/**
 * `settle` for the common case, a scheduled payout this run started and saw confirmed: the
 * instalment is marked paid only while it is still open on this movement, and the plan moves on only
 * while it is as this run locked it (its version), in one step (`markPaidAndSave`: one statement)
 * without reading either again.
 * Anything else (the plan edited or closed meanwhile, the instalment settled by someone else) falls
 * back to `settle`. Returns the plan as it stands afterwards.
 */
const settlePaid = (started: Started, confirmed: Transfer) =>
  Effect.gen(function*() {
    const repo = yield* PlanRepo
    const at = yield* now
    const { instalment, plan } = started
    const fast = instalment.kind !== "scheduled"
      ? Option.none<Plan>()
      : yield* repo.markPaidAndSave(advanced(plan, false, at), instalment.cycle, confirmed.id, confirmed.updatedAt, at)
    if (Option.isSome(fast)) {
      const notice = completedNotice(fast.value)
      if (notice !== null) yield* Notices.raise({ customerId: plan.customerId, planId: plan.id, ...notice })
      return fast.value
    }
    yield* settle(plan.id)
    return Option.getOrThrow(yield* repo.findById(plan.id))
  }).pipe(withSpan("Plans.settlePaid", { attributes: { planId: started.plan.id } }))

/**
 * The process-transfers job: recovery and reconciliation of movements (Transfers.processDue), and
 * the bookkeeping of every plan payout whose outcome it learnt, at once (`settle`): a payout the
 * bank confirmed on a requery has its instalment paid and its plan moved on in the same pass,
 * instead of waiting for the next due-payout run to find it.
 */
export const processDueMovements = (options: { readonly limit?: number; readonly concurrency?: number } = {}) =>
  processDue({
    ...options,
    onFinished: (t) => (t.planId !== null && t.purpose === "disbursement" ? settle(t.planId) : Effect.void)
  }).pipe(withSpan("Plans.processDueMovements"))

/** `payouts_total{outcome}`: instalment payouts that reached a final outcome in a plan run (paid or failed). */
const payoutsTotal = Metric.counter("payouts_total", {
  description: "Plan instalment payouts that reached a final outcome in a payout run, by outcome (paid, failed)",
  incremental: true
})
// each series made once: Metric.tagged makes a new metric key, hashed and looked up, on every call
const payoutOutcome = {
  paid: Metric.tagged(payoutsTotal, "outcome", "paid"),
  failed: Metric.tagged(payoutsTotal, "outcome", "failed")
} as const

export interface PlanRun {
  readonly paid: number
  readonly failed: number
}

/**
 * Works one plan as far as it goes now: pays every due cycle, one after the other (catch-up after
 * downtime), until the plan is not due, waits on a pending payout, or the customer has another
 * movement in flight (tried again on the next run, the customer's new movements held back until
 * then: `PlanRepo.holdForPayout`). A live attempt found at the start (a finished
 * payout not yet recorded) is settled first. `fees`: the NIP fee schedule (read once per batch).
 */
export const runPlan = (planId: PlanId, fees?: NipFeeSchedule) =>
  Effect.gen(function*() {
    const schedule = fees ?? (yield* Settings.get(Settings.NipFees))
    let paid = 0
    let failed = 0
    let settledFirst = false
    for (let guard = 0; guard < 10_000; guard++) {
      const driven = yield* startAndDrive(startDuePayout(planId, schedule).pipe(
        // the customer is busy: their next movements wait behind this payout, which the next run
        // makes (a payout is late by one run at most because of its customer's own activity)
        Effect.catchTag("MovementInFlight", () =>
          Effect.flatMap(now, (at) => (Effect.flatMap(PlanRepo, (repo) => repo.holdForPayout(planId, at)))).pipe(
            Effect.as(Option.none<Started>())
          ))
      ))
      if (Option.isNone(driven)) {
        // not due, or an attempt is live: settle it (once) and look again
        if (settledFirst) break
        settledFirst = true
        yield* settle(planId)
        continue
      }
      settledFirst = true
      const t = driven.value.transfer
      if (t.status === "confirmed") {
        paid++
        yield* Metric.increment(payoutOutcome.paid)
        const plan = yield* settlePaid(driven.value, t)
        const at = yield* now
        // the next cycle is not due yet (the common case): nothing more to look at
        if (plan.state !== "active" || plan.nextDueAt === null || plan.nextDueAt.getTime() > at.getTime()) break
        continue
      }
      if (t.status === "failed") {
        failed++
        yield* Metric.increment(payoutOutcome.failed)
      }
      // failed: the plan is due again later (retry) or stopped; pending: reconciliation settles it
      // when the bank's answer comes (processDueMovements) and the plan waits on this cycle
      yield* settle(planId)
      break
    }
    return { paid, failed } satisfies PlanRun
  }).pipe(withSpan("Plans.runPlan", { attributes: { planId } }))

/**
 * The due-payout job: claims due plans in batches (FOR UPDATE SKIP LOCKED, with a lease), works each
 * with bounded concurrency, and goes on until nothing is due or `maxBatches` batches ran. Safe to
 * run in several processes at once.
 */
export const processDuePayouts = (
  options: { readonly batchSize?: number; readonly concurrency?: number; readonly maxBatches?: number } = {}
) =>
  Effect.gen(function*() {
    const repo = yield* PlanRepo
    const batchSize = options.batchSize ?? 200
    let plans = 0
    let paid = 0
    let failed = 0
    for (let batch = 0; batch < (options.maxBatches ?? 50); batch++) {
      const at = yield* now
      const claimed = yield* repo.claimDue(at, new Date(at.getTime() + Duration.toMillis(LEASE)), batchSize)
      if (claimed.length === 0) break
      // one read of the fee schedule per batch: a fee change applies from the next batch
      const fees = yield* Settings.get(Settings.NipFees)
      const runs = yield* Effect.forEach(
        claimed,
        (plan) =>
          runPlan(plan.id, fees).pipe(
            Effect.catchAllCause((cause) =>
              Effect.logError("plan run failed").pipe(
                Effect.annotateLogs({ planId: plan.id, cause: String(cause) }),
                Effect.as({ paid: 0, failed: 0 })
              )
            )
          ),
        { concurrency: options.concurrency ?? 16 }
      ).pipe(
        // the batch's claims are given back together (one statement), whatever happened; a plan
        // worked early in the batch stays claimed until then, which only delays its next cycle's
        // claim by a batch. Interrupted (a SIGTERM): the same, so the next process takes them at once
        Effect.ensuring(repo.releaseMany(claimed.map((plan) => plan.id)))
      )
      plans += claimed.length
      for (const r of runs) {
        paid += r.paid
        failed += r.failed
      }
      if (claimed.length < batchSize) break
    }
    return { plans, paid, failed }
  }).pipe(withSpan("Plans.processDuePayouts"))
