/**
 * Where spendings, and the claims of the monthly report, are kept.
 */
import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../shared/Paging.js"
import type { Spending } from "./Model.js"
import type { CustomerId, SpendingId } from "../shared/Ids.js"

export interface SpendingFilter {
  /** a normalised category (exact match) */
  readonly category?: string | undefined
  /** YYYY-MM-DD, inclusive */
  readonly from?: string | undefined
  /** YYYY-MM-DD, inclusive */
  readonly to?: string | undefined
}

export interface SpendingChanges {
  readonly amountKobo?: bigint | undefined
  readonly category?: string | undefined
  /** null clears it */
  readonly description?: string | null | undefined
  readonly date?: string | undefined
}

export class SpendingRepo extends Context.Tag("domain/SpendingRepo")<SpendingRepo, {
  readonly add: (spending: Spending) => Effect.Effect<Spending>
  /** Newest date first (then newest logged first). */
  readonly list: (customerId: CustomerId, filter: SpendingFilter, page: PageRequest) => Effect.Effect<Page<Spending>>
  /** Every spending of the customer dated from..to (inclusive), oldest date first. */
  readonly between: (customerId: CustomerId, from: string, to: string) => Effect.Effect<ReadonlyArray<Spending>>
  /** Only the customer's own; none for an unknown id or another customer's. */
  readonly update: (customerId: CustomerId, id: SpendingId, changes: SpendingChanges, at: Date) => Effect.Effect<Option.Option<Spending>>
  /** Deletes it and returns it as it was; none for an unknown id or another customer's. */
  readonly remove: (customerId: CustomerId, id: SpendingId) => Effect.Effect<Option.Option<Spending>>
  /**
   * Customers with a spending dated from..to whose report of `month` is not claimed yet, by
   * customer id, after `afterCustomerId` (keyset paging), at most `limit`.
   */
  readonly customersToReport: (
    month: string,
    from: string,
    to: string,
    afterCustomerId: CustomerId | null,
    limit: number
  ) => Effect.Effect<ReadonlyArray<CustomerId>>
  /**
   * Claims the report of (customer, month): true for the one caller that claims it first, false for
   * every later or concurrent one, in any process (a primary key decides).
   */
  readonly claimMonthlyReport: (customerId: CustomerId, month: string, at: Date) => Effect.Effect<boolean>
}>() {}
