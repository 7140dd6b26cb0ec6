/**
 * Where closures and deletions are kept, and the erasure of a customer's personal data.
 */
import { Context, type Effect, type Option } from "effect"
import type { AccountClosure, DeletionRecord, ErasureCounts } from "./Model.js"
import { AccountId, CustomerId, DeletionId } from "../shared/Ids.js"

export class ClosureRepo extends Context.Tag("domain/ClosureRepo")<ClosureRepo, {
  /**
   * Stores a new closure (in the caller's unit of work); false, storing nothing, when the customer
   * already has a `closing` closure or a closure under this key (a database constraint: a
   * concurrent insert waits for the other unit of work and is refused if it commits).
   */
  readonly insert: (closure: AccountClosure) => Effect.Effect<boolean>
  readonly findById: (id: string) => Effect.Effect<Option.Option<AccountClosure>>
  readonly findByKey: (customerId: CustomerId, idempotencyKey: string) => Effect.Effect<Option.Option<AccountClosure>>
  /** The customer's closure in status `closing`, if any (at most one, a database constraint). */
  readonly findOpen: (customerId: CustomerId) => Effect.Effect<Option.Option<AccountClosure>>
  /**
   * Claims one closure with work left (status `closing`; or `closed` with its deletion requested
   * while the customer is still `closed`) that no live process holds (lease null or expired, on
   * the database's clock); sets its lease. None otherwise.
   */
  readonly claim: (id: string, now: Date, leaseUntil: Date) => Effect.Effect<Option.Option<AccountClosure>>
  /**
   * Claims up to `limit` closures with work left whose sweep is no longer pending (or that have
   * none), that no live process holds; sets their lease. FOR UPDATE SKIP LOCKED.
   */
  readonly claimSettled: (now: Date, leaseUntil: Date, limit: number) => Effect.Effect<ReadonlyArray<AccountClosure>>
  /** Writes status, freezeReference, deleteRequested, deleteVia, closedAt, updatedAt; clears the lease. */
  readonly save: (closure: AccountClosure) => Effect.Effect<void>
  /** Asks for the deletion after the closure (delete-account while closing). */
  readonly requestDeletion: (id: string, via: string | null, now: Date) => Effect.Effect<void>
}>() {}

export interface Erasure {
  readonly customerId: CustomerId
  readonly accountId: AccountId
  readonly deletionId: DeletionId
  readonly retainUntil: Date
  readonly now: Date
  /** the digest of the core account number being erased (`coreAccountDigest`), kept on the row; null without one */
  readonly coreAccountDigest: string | null
}

/**
 * The erasure of a customer's personal data (SQL: one statement per kind of data, run in the
 * caller's unit of work). `erase` copies what must be retained (transactions, KYC) to the retention
 * store under the deletion's id, encrypted so that nothing personal is readable without the
 * retention key, keeps the transaction rows themselves (a movement row is never deleted: one not
 * final yet is still reconciled), deletes what must go (saved beneficiaries, sessions, PIN, queued messages but a
 * closure statement not sent yet, …),
 * replaces the personal fields of the account with a non-personal tombstone (freeing email, phone
 * and BVN), and answers the counts of what was tied to the customer. Features added later register
 * their own erase statements and counters with the adapter.
 */
export class AccountErasure extends Context.Tag("domain/AccountErasure")<AccountErasure, {
  /**
   * Marks the customer `deleted` and erases (in the caller's unit of work, which it locks the
   * customer's row for); None, with nothing done, when the customer already was deleted.
   */
  readonly erase: (erasure: Erasure) => Effect.Effect<Option.Option<ErasureCounts>>
  readonly recordDeletion: (record: DeletionRecord) => Effect.Effect<void>
  readonly findDeletion: (customerId: CustomerId) => Effect.Effect<Option.Option<DeletionRecord>>
  /**
   * Deletes retained records whose retainUntil has passed (answers how many), and the closure
   * statements a deletion kept that have been sent since.
   */
  readonly purgeRetained: (now: Date) => Effect.Effect<number>
}>() {}
