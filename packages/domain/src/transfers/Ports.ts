/**
 * Where movements and their journals are kept.
 */
import { Context, type Effect, type Option } from "effect"
import { MovementInFlight, MovementLost } from "./Errors.js"
import type { Transfer, TransferClaim, TransferPatch } from "./Model.js"
import { CustomerId } from "../shared/Ids.js"

export class TransferRepo extends Context.Tag("domain/TransferRepo")<TransferRepo, {
  /**
   * Inserts a new movement, or returns the one already stored under the same customer and
   * idempotency key (`existing`), whatever its state. Fails with MovementInFlight when another
   * movement of the customer is pending and its account not yet restored (a database constraint,
   * so it holds across processes).
   */
  readonly create: (transfer: Transfer) => Effect.Effect<{ readonly created: boolean; readonly transfer: Transfer }, MovementInFlight>
  /**
   * Inserts a new movement whose idempotency key cannot be stored yet (it embeds the movement's new
   * id, as scheduled payouts' keys do), so no lookup by key comes first; fails with MovementInFlight
   * as `create` does. Inside the caller's transaction: a failure aborts that transaction.
   */
  readonly createFresh: (transfer: Transfer) => Effect.Effect<Transfer, MovementInFlight>
  readonly findById: (id: string) => Effect.Effect<Option.Option<Transfer>>
  readonly findByIdempotencyKey: (customerId: CustomerId, idempotencyKey: string) => Effect.Effect<Option.Option<Transfer>>
  /** Whether a movement of this customer is pending with its account not yet restored. */
  readonly hasMovementInFlight: (customerId: CustomerId) => Effect.Effect<boolean>
  /**
   * Whether a movement of this customer other than `except` is not final (status pending), the
   * account restored or not: a transfer the bank answered "pending" counts until reconciliation
   * settles it. What closing and deleting an account wait for (a reversal may still come).
   */
  readonly hasUnsettledMovement: (customerId: CustomerId, except?: string) => Effect.Effect<boolean>
  /**
   * Writes journal fields (and updated_at = now) only while `claim.epoch` is still the movement's
   * epoch; returns the updated record. MovementLost when it is not: another driver claimed the
   * movement since (the caller must stop at once, with no further provider call).
   */
  readonly update: (claim: TransferClaim, patch: TransferPatch, now: Date) => Effect.Effect<Transfer, MovementLost>
  /**
   * `update` for the driver holding the movement's current record (`current`: as its claim, its
   * insert or its last write returned it, under the epoch it holds): the same fenced write, and
   * what it returns is `current` with the patch applied (the lease as the database set it), not the
   * row read back. Exact because a movement's row changes only by the writes of its epoch's holder
   * and by claims, which bump the epoch and so fence this write out (MovementLost).
   */
  readonly updateCurrent: (current: Transfer, patch: TransferPatch, now: Date) => Effect.Effect<Transfer, MovementLost>
  /**
   * Claims up to `limit` pending movements that need driving and that no live process holds (lease
   * expired or none): sagas whose account is not restored (their driver died mid-way), restored ones
   * whose final status was never written (the driver died just before), and pending transfers whose
   * requery is due (`nextAttemptAt <= now`). Sets their lease to `leaseUntil` and bumps their epoch,
   * so whoever held them before is fenced out. Safe across processes (FOR UPDATE SKIP LOCKED).
   */
  readonly claimDue: (now: Date, leaseUntil: Date, limit: number) => Effect.Effect<ReadonlyArray<Transfer>>
}>() {}
