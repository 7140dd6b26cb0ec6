/**
 * Where plans and instalments are kept.
 */
import { Context, type Effect, type Option } from "effect"
import type { TransactionPurpose } from "../transactions/Model.js"
import { PlanConflict } from "./Errors.js"
import type { Instalment, Plan } from "./Model.js"
import { CustomerId, PlanId, TransactionId } from "../shared/Ids.js"

/**
 * Disbursement plans and their instalments. A customer has at most one plan that is not completed
 * (a database constraint). Plans are written with optimistic concurrency (`version`); scheduler
 * processes claim due work with leases (FOR UPDATE SKIP LOCKED), which do not change the version.
 */
export class PlanRepo extends Context.Tag("domain/PlanRepo")<PlanRepo, {
  /** The customer's plan that is not completed; else their most recently created one. */
  readonly findForCustomer: (customerId: CustomerId) => Effect.Effect<Option.Option<Plan>>
  readonly findById: (id: string) => Effect.Effect<Option.Option<Plan>>
  /** Inserts a new plan; PlanConflict when the customer already has one that is not completed. */
  readonly insert: (plan: Plan) => Effect.Effect<Plan, PlanConflict>
  /**
   * Writes every field but id, customerId, createdAt and leaseUntil, and sets version + 1, only
   * when the stored version is still `plan.version`; PlanConflict otherwise. Returns the stored plan.
   */
  readonly save: (plan: Plan) => Effect.Effect<Plan, PlanConflict>
  /** Locks the plan's row until the current unit of work ends (SELECT … FOR UPDATE); the plan as stored. */
  readonly lock: (id: string) => Effect.Effect<Option.Option<Plan>>
  /**
   * Claims up to `limit` active plans that no live process holds (lease null or expired) and that
   * have work: the next cycle is due (`nextDueAt <= now`), or their open instalment's payout has
   * finished and waits to be settled. Sets `leaseUntil`; earliest due first. Safe across processes.
   */
  readonly claimDue: (now: Date, leaseUntil: Date, limit: number) => Effect.Effect<ReadonlyArray<Plan>>
  /**
   * Claims up to `limit` plans awaiting funds or depleted that no live process holds; sets
   * `leaseUntil`. Never-claimed plans first, then by oldest lease (so a caller that lets the lease of
   * a still-unfunded plan expire gets round-robin over all of them), then least recently updated.
   */
  readonly claimInactive: (now: Date, leaseUntil: Date, limit: number) => Effect.Effect<ReadonlyArray<Plan>>
  /** Clears the lease (version unchanged). */
  readonly release: (id: string) => Effect.Effect<void>
  /** Clears the leases of these plans in one go (version unchanged). */
  readonly releaseMany: (ids: ReadonlyArray<string>) => Effect.Effect<void>
  /** Where the due-payout job stands at `now` (for operators). */
  readonly payoutBoard: (now: Date) => Effect.Effect<PayoutBoard>
  readonly findInstalment: (planId: PlanId, cycle: number) => Effect.Effect<Option.Option<Instalment>>
  /** Inserts the instalment unless (planId, cycle) exists; returns the stored one either way. */
  readonly ensureInstalment: (instalment: Instalment) => Effect.Effect<Instalment>
  /**
   * Links the instalment (planId, cycle) to a new attempt (`instalment.transactionId`), in one step:
   * inserted as given when missing; when stored, open and linked to no attempt, its transactionId,
   * amountKobo, dueAt and updatedAt become the given ones (kind and attempts are kept). The stored
   * instalment then; none when it is stored but not free (paid, or linked to an attempt), and
   * nothing is written. A linked instalment's payout has started: the plan's payout hold
   * (`holdForPayout`), if any, is released in the same step.
   */
  readonly linkInstalment: (instalment: Instalment) => Effect.Effect<Option.Option<Instalment>>
  /** Writes kind, status, attempts, transactionId, amountKobo, dueAt, paidAt, updatedAt. */
  readonly saveInstalment: (instalment: Instalment) => Effect.Effect<Instalment>
  /**
   * Marks the instalment (plan.id, cycle) paid at `paidAt` and writes `plan` as `save` does, in one
   * atomic step and only if both apply: the instalment is still open on the live attempt
   * `transactionId`, and the stored plan is still at `plan.version`. The plan as stored then; none
   * when either did not apply, and nothing is written (someone settled it, or the plan changed): the
   * caller then settles the plan the general way.
   */
  readonly markPaidAndSave: (plan: Plan, cycle: number, transactionId: TransactionId, paidAt: Date, now: Date) => Effect.Effect<Option.Option<Plan>>
  /**
   * A due payout goes ahead of its customer's new movements: the payout run found the customer with
   * a movement in flight, so until the payout starts (`linkInstalment` releases the hold) the
   * customer's new movements (TransferRepo.create) are refused as in flight while the plan is active
   * and due.
   */
  readonly holdForPayout: (planId: PlanId, at: Date) => Effect.Effect<void>
  /** The plan's instalments in cycle order. */
  readonly listInstalments: (planId: PlanId) => Effect.Effect<ReadonlyArray<Instalment>>
  /** The plan's movements with this purpose that have not failed, created at or after `since` (all when null). */
  readonly countMovements: (planId: PlanId, purpose: TransactionPurpose, since: Date | null) => Effect.Effect<number>
}>() {}

/** Active plans, those due now, those claimed by a live run, the next due time, payouts at the bank. */
export interface PayoutBoard {
  readonly activePlans: number
  readonly dueNow: number
  readonly claimed: number
  readonly nextDueAt: Date | null
  readonly payoutsInFlight: number
}
