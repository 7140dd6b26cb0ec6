/**
 * Retrying a failed payout (the operator CLI's `jobs failed --retry ID`): the plan of that payout
 * becomes due now, so the next due-payout run pays it through the transfer saga like any other
 * payout; nothing here moves money.
 *
 * - A plan `paused` after its attempts ran out is `active` again, due now, and the instalment's
 *   failed attempts start again from 0 (so it gets the full `plans.payoutRetry.maxAttempts`).
 * - An active plan waiting for its retry hour is due now (a failure then counts as one attempt).
 * - Refused (JobRetryRefused): the transaction is not a failed scheduled payout of a plan; the
 *   plan is completed or closed, waits for funds (awaiting_funds, depleted: it resumes by itself
 *   once the wallet covers it), or its customer is not active (no payout is made to them); the
 *   instalment of that cycle has since been paid, its schedule was replaced by an edit, or an
 *   attempt of it is in progress. A failed Borrow is not retried here: the customer may borrow again.
 * - The destination is not changed: a payout failing at the bank for its account fails again;
 *   the customer's edit of the withdrawal account is the way out of that.
 * - Audited as `job.retry` on the plan, with the plan's state before and after.
 */
import { Effect, Option } from "effect"
import { AccountRepo } from "../account/Ports.js"
import { Instalment, Plan } from "../plans/Model.js"
import { cycleIndex } from "../plans/Payouts.js"
import { PlanRepo } from "../plans/Ports.js"
import { TransactionRepo } from "../transactions/Ports.js"
import { TransferRepo } from "../transfers/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import * as Audit from "./Audit.js"
import { AdminTransactionNotFound } from "./Ledger.js"
import { requirePermission } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"
import { withSpan } from "../shared/Spans.js"
import { Failure } from "../shared/Failure.js"
import { PlanId, TransactionId } from "../shared/Ids.js"

/** The payout cannot be retried; the message says why. */
export class JobRetryRefused extends Failure("JobRetryRefused", {
  status: 409,
  code: "JOB_RETRY_REFUSED",
  meaning:
    "Failed-job retry: not a failed plan payout, its instalment was since paid or is being paid, or the plan or customer cannot be paid now"
})<{ readonly message: string }> {
  override answer() {
    return { ...super.answer(), message: `This payout cannot be retried: ${this.message}` }
  }
}

export interface RetryResult {
  readonly transactionId: TransactionId
  readonly planId: PlanId
  /** the plan's global instalment number the failed payout was for */
  readonly cycle: number
  readonly stateBefore: Plan["state"]
  readonly state: Plan["state"]
  /** when the plan is due now: the next due-payout run pays it */
  readonly nextDueAt: Date
}

const refuse = (message: string) => Effect.fail(new JobRetryRefused({ message }))

/** The cycle a scheduled payout was for: its request hash is `plan:<planId>:<cycle>` (Payouts.ts). */
const cycleOf = (requestHash: string, planId: PlanId): number | null => {
  const match = /^plan:([^:]+):(\d+)$/.exec(requestHash)
  return match === null || match[1] !== planId ? null : Number(match[2])
}

/** Makes the plan of a failed payout due now (jobs:retry); see the module notes. */
export const retryFailedPayout = (actor: StaffMember, transactionId: TransactionId) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "jobs:retry")
    // payouts are movements (transfers); any other transaction is refused, an unknown id not found
    const found = yield* (yield* TransferRepo).findById(transactionId)
    if (Option.isNone(found)) {
      const other = yield* (yield* TransactionRepo).findById(transactionId)
      if (Option.isNone(other)) return yield* new AdminTransactionNotFound()
      return yield* refuse(`transaction ${transactionId} is not a payout (${other.value.purpose})`)
    }
    const t = found.value
    if (t.purpose !== "disbursement" || t.status !== "failed" || t.planId === null) {
      return yield* refuse(`transaction ${t.id} is not a failed payout (${t.purpose}, ${t.status})`)
    }
    const cycle = cycleOf(t.requestHash, t.planId)
    if (cycle === null) return yield* refuse("a failed Borrow is not retried: the customer may borrow again")
    const planId = t.planId
    return yield* atomically(Effect.gen(function*() {
      const repo = yield* PlanRepo
      const at = yield* now
      const plan = yield* Effect.map(repo.lock(planId), Option.getOrThrow)
      if (plan.state === "completed" || plan.state === "closed") return yield* refuse(`the plan is ${plan.state}`)
      if (plan.state === "awaiting_funds" || plan.state === "depleted") {
        return yield* refuse(`the plan is ${plan.state}: it resumes by itself once the wallet covers it`)
      }
      const owner = yield* (yield* AccountRepo).findByCustomerId(plan.customerId)
      const customerStatus = Option.match(owner, { onNone: () => "gone", onSome: (a) => a.customer.customerStatus })
      if (customerStatus !== "active") return yield* refuse(`the customer is ${customerStatus}: no payout is made to them`)
      const instalment = yield* repo.findInstalment(plan.id, cycle)
      if (Option.isSome(instalment) && instalment.value.status === "paid") return yield* refuse(`instalment ${cycle} has since been paid`)
      if (cycle !== cycleIndex(plan) || Option.isNone(instalment)) {
        return yield* refuse(`instalment ${cycle} is no longer the plan's next one (its schedule was edited)`)
      }
      if (instalment.value.transactionId !== null) {
        return yield* refuse(`a payout of instalment ${cycle} is in progress (${instalment.value.transactionId})`)
      }
      const before = { state: plan.state, nextDueAt: plan.nextDueAt, attempts: instalment.value.attempts }
      const resumed = plan.state === "paused"
      if (resumed) yield* repo.saveInstalment(new Instalment({ ...instalment.value, attempts: 0, updatedAt: at }))
      const nextDueAt = plan.nextDueAt !== null && plan.nextDueAt.getTime() <= at.getTime() ? plan.nextDueAt : at
      const saved = yield* repo.save(new Plan({ ...plan, state: "active", nextDueAt, updatedAt: at }))
      yield* Audit.record({
        actorKind: "staff",
        actorId: actor.id,
        action: "job.retry",
        targetKind: "plan",
        targetId: plan.id,
        before,
        after: { state: saved.state, nextDueAt, attempts: resumed ? 0 : before.attempts, transactionId: t.id, cycle }
      })
      return { transactionId: t.id, planId: plan.id, cycle, stateBefore: plan.state, state: saved.state, nextDueAt } satisfies RetryResult
    }))
  }).pipe(
    // the plan changed under its lock-free read (a payout run or the customer's edit got there first)
    Effect.catchTag("PlanConflict", () => refuse("the plan changed meanwhile; look at it again and retry")),
    withSpan("StaffAccess.retryFailedPayout", { attributes: { transactionId } })
  )
