/**
 * Where transactions are kept.
 */
import { Context, type Effect, type Option } from "effect"
import type { Kobo } from "../shared/Money.js"
import type { Page, PageRequest } from "../shared/Paging.js"
import type { Transaction, TransactionPurpose } from "./Model.js"
import { CustomerId } from "../shared/Ids.js"

/** An inbound deposit as the provider posted it. */
export interface NewDeposit {
  readonly id: string
  readonly customerId: CustomerId
  readonly amountKobo: Kobo
  /** the provider's reference of the posting: the idempotency key of the row */
  readonly providerReference: string
  /** when the provider posted it: the row's createdAt */
  readonly postedAt: Date
  readonly now: Date
}

export class TransactionRepo extends Context.Tag("domain/TransactionRepo")<TransactionRepo, {
  /**
   * Records a confirmed deposit (type credit, purpose deposit, fee 0), once per customer and
   * provider reference however often or concurrently it is called; true when this call inserted it.
   */
  readonly recordDeposit: (deposit: NewDeposit) => Effect.Effect<boolean>
  readonly findById: (id: string) => Effect.Effect<Option.Option<Transaction>>
  /** Newest first (createdAt, then id, descending). */
  readonly listForCustomer: (customerId: CustomerId, page: PageRequest) => Effect.Effect<Page<Transaction>>
  /**
   * Every row of the customer (any type and status) created in [from, until): `from` inclusive,
   * `until` exclusive; oldest first (createdAt, then id, ascending).
   */
  readonly listForCustomerBetween: (customerId: CustomerId, from: Date, until: Date) => Effect.Effect<ReadonlyArray<Transaction>>
  /** Every row of the customer with this purpose, newest first (createdAt, then id, descending). */
  readonly listForCustomerByPurpose: (customerId: CustomerId, purpose: TransactionPurpose) => Effect.Effect<ReadonlyArray<Transaction>>
}>() {}
