/**
 * Closing and deleting an account: the closure (the sweep of the wallet, then the freeze) and the
 * deletion record that staff review.
 */
import { Schema } from "effect"
import { CustomerId, DeletionId, PlanId, TransactionId } from "../shared/Ids.js"

/**
 * - closing: the sweep movement was started (or there was nothing to sweep); the customer is
 *   `closing` and may start no other movement nor get payouts;
 * - closed: the sweep confirmed, the core account is frozen, the plan ended, the customer `closed`;
 * - failed: the sweep failed (reversed by the saga); the customer is `active` again.
 */
export const ClosureStatus = Schema.Literal("closing", "closed", "failed")
export type ClosureStatus = typeof ClosureStatus.Type

export class AccountClosure extends Schema.Class<AccountClosure>("AccountClosure")({
  id: Schema.String,
  customerId: CustomerId,
  idempotencyKey: Schema.String,
  requestHash: Schema.String,
  /** the sweep movement; null when the balance could not cover the NIP fee (nothing was sent) */
  transactionId: Schema.NullOr(TransactionId),
  amountKobo: Schema.BigIntFromSelf,
  /** the plan ended by the closure, if the customer had an open one */
  planId: Schema.NullOr(PlanId),
  status: ClosureStatus,
  /** the provider's reference of the freeze (kept for an unfreeze) */
  freezeReference: Schema.NullOr(Schema.String),
  /** the customer asked for deletion (delete-account with a key): it follows once the closure is done */
  deleteRequested: Schema.Boolean,
  /** where the deletion was asked from (mobile or web), if it was */
  deleteVia: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  closedAt: Schema.NullOr(Schema.DateFromSelf)
}) {}

/** Counts of what was tied to the customer, by name (`transactions`, `beneficiaries`, …): extensible. */
export type ErasureCounts = Readonly<Record<string, number>>

/**
 * What a deletion left for review: the counts of what was erased or retained, the plan, the last
 * balance. Nothing personal (ids and numbers only).
 */
export class DeletionRecord extends Schema.Class<DeletionRecord>("DeletionRecord")({
  id: DeletionId,
  customerId: CustomerId,
  status: Schema.Literal("pending_review", "reviewed"),
  via: Schema.NullOr(Schema.String),
  counts: Schema.Record({ key: Schema.String, value: Schema.Number }),
  planId: Schema.NullOr(PlanId),
  /** the withdrawable balance last read from the provider (null: unknown or no bank account) */
  lastBalanceKobo: Schema.NullOr(Schema.BigIntFromSelf),
  retainUntil: Schema.DateFromSelf,
  createdAt: Schema.DateFromSelf
}) {}
