/**
 * "Resolve movement" (transactions:resolve): the operator's way out of the one state the saga
 * cannot leave by itself. When the bank refuses both a movement's transfer and then the reversal of
 * its debit, the saga puts the account back and parks the movement `pending` (`decide` answers
 * AwaitOperator) with a `reversal_refused` alert: the customer's money is in the bank's settlement
 * account and only staff, talking to the bank, can find out where it ends. They record here what
 * they established:
 *
 * - `credited_back`: the transfer failed and the customer's money (amount + fee) was given back by
 *   hand. The movement becomes `failed`, and the customer gets the failure notice the saga sends.
 * - `delivered`: the bank confirmed the money did reach the destination. The movement becomes
 *   `confirmed` (its transfer `successful`).
 *
 * Nothing moves at the bank here: this only records the outcome (with a note: the bank's reference,
 * who confirmed it). Then what waited on the movement goes on by itself, at once (and, should that
 * fail, through the jobs, which pick up any movement no longer pending): a plan payout is settled
 * (paid and the schedule moves on, or a failed attempt retried later), a closure is finished
 * (closed, and the deletion asked with it) or reopened, as for any sweep that ended that way. The
 * `reversal_refused` alert is acknowledged under the operator's name.
 *
 * Refused (409 MOVEMENT_NOT_AWAITING_OPERATOR) for anything else: a movement still driven by the
 * saga or reconciliation, one already final (a second resolution included), a deposit. The write is
 * a compare-and-set on the movement's claim epoch and status, and it bumps the epoch: two operators
 * racing resolve it once, and a stale saga driver is fenced out. Audited (`movement.resolve`, the
 * journal before and after, the outcome, note and who asked). Under ADMIN_FOUR_EYES it is filed for
 * a second member's approval (Approvals.ts).
 */
import { Context, Effect, Option, Schema } from "effect"
import { BalanceCache } from "../banking/Caches.js"
import { settleClosure } from "../lifecycle/Closing.js"
import { ClosureRepo } from "../lifecycle/Ports.js"
import { settle as settlePlan } from "../plans/Payouts.js"
import { PlanRepo } from "../plans/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import type { Transaction } from "../transactions/Model.js"
import { TransactionRepo } from "../transactions/Ports.js"
import { MovementNotAwaitingOperator } from "../transfers/Errors.js"
import type { Transfer, TransferClaim, TransferPatch } from "../transfers/Model.js"
import { TransferRepo } from "../transfers/Ports.js"
import { decide } from "../transfers/Saga.js"
import { journalOf, notifyFailure } from "../transfers/Steps.js"
import { AlertRepo } from "./Alerts.js"
import * as Audit from "./Audit.js"
import { AdminTransactionNotFound } from "./Ledger.js"
import { requirePermission } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"
import { withSpan } from "../shared/Spans.js"
import { CustomerId, StaffId, TransactionId } from "../shared/Ids.js"

export const ResolutionOutcome = Schema.Literal("credited_back", "delivered")
export type ResolutionOutcome = typeof ResolutionOutcome.Type

export class MovementResolution extends Schema.Class<MovementResolution>("MovementResolution")({
  transactionId: TransactionId,
  customerId: CustomerId,
  outcome: ResolutionOutcome,
  note: Schema.String,
  /** who asked (under four-eyes: the first member) */
  requestedBy: StaffId,
  /** who applied it (under four-eyes: the approver) */
  resolvedBy: Schema.String,
  resolvedAt: Schema.DateFromSelf
}) {}

export class MovementResolutionRepo extends Context.Tag("domain/MovementResolutionRepo")<MovementResolutionRepo, {
  /**
   * In the caller's unit of work: writes the movement's final journal (`patch`, updated_at, lease
   * cleared, epoch bumped) only while it is still `pending` under `held.epoch`, and stores the
   * resolution (one per movement). false, with nothing written, when the movement changed since.
   */
  readonly record: (held: TransferClaim, patch: TransferPatch, resolution: MovementResolution) => Effect.Effect<boolean>
  readonly find: (transactionId: TransactionId) => Effect.Effect<Option.Option<MovementResolution>>
}>() {}

export interface ResolveInput {
  readonly transactionId: TransactionId
  readonly outcome: ResolutionOutcome
  readonly note: string
}

/** What a resolution did: the movement as it now stands, the record, and where what waited on it went. */
export interface ResolveResult {
  readonly transaction: Transaction
  readonly resolution: MovementResolution
  /** the closure whose sweep this was, as it stands now (closed, failed = reopened), else null */
  readonly closureStatus: string | null
  /** the plan whose payout this was, as it stands now, else null */
  readonly planState: string | null
}

/** Whether the movement is parked waiting for an operator (the saga's AwaitOperator). */
export const awaitsOperator = (t: Transfer): boolean => decide(journalOf(t))._tag === "AwaitOperator"

const refusal = (t: { readonly id: string; readonly status: string }, why: MovementNotAwaitingOperator["why"]) =>
  new MovementNotAwaitingOperator({ transactionId: t.id, status: t.status, why })

/** The movement, if it can be resolved now; else why not. */
const stuckMovement = (transactionId: TransactionId) =>
  Effect.gen(function*() {
    const found = yield* (yield* TransferRepo).findById(transactionId)
    if (Option.isNone(found)) {
      const other = yield* (yield* TransactionRepo).findById(transactionId)
      if (Option.isNone(other)) return yield* new AdminTransactionNotFound()
      return yield* refusal(other.value, "not_a_movement")
    }
    const t = found.value
    if (!awaitsOperator(t)) return yield* refusal(t, t.status === "pending" ? "in_progress" : "final")
    return t
  })

/** The checks a resolution makes before anything changes (also run when four-eyes files a request). */
export const checkResolve = (actor: StaffMember, transactionId: TransactionId) =>
  Effect.zipRight(requirePermission(actor, "transactions:resolve"), stuckMovement(transactionId))

const patchOf = (outcome: ResolutionOutcome): TransferPatch =>
  outcome === "credited_back"
    ? { status: "failed" }
    : { status: "confirmed", transferState: "successful", failureReason: null }

/** The movement's `reversal_refused` alert, acknowledged by the member who resolved it. */
const acknowledgeAlert = (transactionId: TransactionId, staffId: StaffId, at: Date) =>
  Effect.gen(function*() {
    const alerts = yield* AlertRepo
    const open = (yield* alerts.listOpen()).filter((a) => a.dedupKey === `reversal_refused:${transactionId}`)
    for (const alert of open) yield* alerts.acknowledge(alert.id, staffId, at)
  })

/**
 * What waited on the movement goes on: the plan's payout is settled, the closure finished or
 * reopened (and the deletion asked with it follows). A failure here is logged and left to the jobs
 * (they pick up every movement that is no longer pending).
 */
const continueAfter = (t: Transfer) =>
  Effect.gen(function*() {
    yield* Effect.flatMap(BalanceCache, (cache) => cache.invalidate(t.sourceAccountNumber))
    let planState: string | null = null
    if (t.planId !== null) {
      yield* settlePlan(t.planId)
      planState = Option.getOrNull(Option.map(yield* (yield* PlanRepo).findById(t.planId), (p) => p.state))
    }
    let closureStatus: string | null = null
    const closure = yield* (yield* ClosureRepo).findOpen(t.customerId)
    if (Option.isSome(closure) && closure.value.transactionId === t.id) {
      closureStatus = (yield* settleClosure(closure.value.id)).status
    }
    return { planState, closureStatus }
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.logError("after a movement's resolution, its plan or closure could not go on now; the jobs will").pipe(
        Effect.annotateLogs({ transactionId: t.id, cause: String(cause) }),
        Effect.as({ planState: null, closureStatus: null })
      )
    )
  )

/**
 * POST /admin/transactions/{id}/resolve (run directly, or by the approver under four-eyes, with
 * `requestedBy` the member who asked). See the module notes.
 */
export const resolve = (actor: StaffMember, input: ResolveInput, requestedBy: StaffId = actor.id) =>
  Effect.gen(function*() {
    const t = yield* checkResolve(actor, input.transactionId)
    const at = yield* now
    const patch = patchOf(input.outcome)
    const resolution = new MovementResolution({
      transactionId: t.id,
      customerId: t.customerId,
      outcome: input.outcome,
      note: input.note,
      requestedBy,
      resolvedBy: actor.id,
      resolvedAt: at
    })
    const recorded = yield* atomically(Effect.gen(function*() {
      if (!(yield* (yield* MovementResolutionRepo).record(t, patch, resolution))) return false
      yield* Audit.record({
        actorKind: "staff",
        actorId: actor.id,
        action: "movement.resolve",
        targetKind: "transaction",
        targetId: t.id,
        before: { status: t.status, transferState: t.transferState, reversalState: t.reversalState, failureReason: t.failureReason },
        after: {
          status: patch.status!,
          transferState: patch.transferState ?? t.transferState,
          reversalState: t.reversalState,
          outcome: input.outcome,
          note: input.note,
          requestedBy
        }
      })
      return true
    }))
    if (!recorded) {
      // someone else resolved it, or a driver moved it, since it was read
      const current = Option.getOrThrow(yield* (yield* TransferRepo).findById(t.id))
      return yield* refusal(current, current.status === "pending" ? "in_progress" : "final")
    }
    yield* acknowledgeAlert(t.id, actor.id, at)
    const resolved = Option.getOrThrow(yield* (yield* TransferRepo).findById(t.id))
    yield* Effect.logInfo("money movement resolved by an operator").pipe(
      Effect.annotateLogs({ transactionId: t.id, outcome: input.outcome, staffId: actor.id })
    )
    // the customer is told their money is back, as the saga tells them of a reversed movement
    if (input.outcome === "credited_back") yield* notifyFailure(resolved)
    // read before what follows: a deletion asked with the closure moves the customer's transactions
    // to the retention store
    const transaction = Option.getOrThrow(yield* (yield* TransactionRepo).findById(t.id))
    const continued = yield* continueAfter(resolved)
    return { transaction, resolution, ...continued } satisfies ResolveResult
  }).pipe(withSpan("MovementResolution.resolve", { attributes: { transactionId: input.transactionId } }))
