/**
 * Where beneficiaries are kept.
 */
import { Context, type Effect, type Option } from "effect"
import type { Beneficiary } from "./Model.js"
import type { BeneficiaryId, CustomerId } from "../shared/Ids.js"

export interface NewBeneficiary {
  readonly id: BeneficiaryId
  readonly customerId: CustomerId
  readonly accountNumber: string
  readonly bankCode: string
  readonly bankName: string
  readonly accountName: string
  readonly createdAt: Date
}

/**
 * Saved bank accounts. Writes of one customer are serialised (the SQL adapter locks the customer
 * row), so the "exactly one default while any exist" rule holds under concurrency.
 */
export class BeneficiaryRepo extends Context.Tag("domain/BeneficiaryRepo")<BeneficiaryRepo, {
  /**
   * Saves it, as the default when the customer has no default yet (i.e. none saved); none when the
   * customer already saved this account number at this bank (nothing changes).
   */
  readonly add: (beneficiary: NewBeneficiary) => Effect.Effect<Option.Option<Beneficiary>>
  /** The default first, then oldest first. */
  readonly list: (customerId: CustomerId) => Effect.Effect<ReadonlyArray<Beneficiary>>
  /** Only the customer's own. */
  readonly findById: (customerId: CustomerId, id: BeneficiaryId) => Effect.Effect<Option.Option<Beneficiary>>
  /** Makes it the only default; none when the customer has no such beneficiary. */
  readonly setDefault: (customerId: CustomerId, id: BeneficiaryId) => Effect.Effect<Option.Option<Beneficiary>>
  /** Deletes it and returns it as it was; none when the customer has no such beneficiary. */
  readonly remove: (customerId: CustomerId, id: BeneficiaryId) => Effect.Effect<Option.Option<Beneficiary>>
  /** When the customer has beneficiaries but no default, the oldest becomes the default and is returned. */
  readonly promoteOldest: (customerId: CustomerId) => Effect.Effect<Option.Option<Beneficiary>>
}>() {}
