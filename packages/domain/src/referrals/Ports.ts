/**
 * Where referrals are read: who owns a code, and whom a customer referred.
 */
import { Context, type Effect, type Option } from "effect"
import type { CustomerStatus } from "../account/Model.js"
import { CustomerId } from "../shared/Ids.js"

export interface ReferredCustomer {
  readonly customerId: CustomerId
  readonly firstName: string | null
  readonly lastName: string | null
  readonly customerStatus: CustomerStatus
  readonly joinedAt: Date
  /** the referred customer's first confirmed deposit; null = not (yet) a successful referral */
  readonly firstDepositAt: Date | null
}

export class ReferralRepo extends Context.Tag("domain/ReferralRepo")<ReferralRepo, {
  /** The customer who owns this referral code (codes are stored upper-case). */
  readonly findReferrer: (code: string) => Effect.Effect<Option.Option<{ readonly customerId: CustomerId }>>
  /** The customers `customerId` referred, oldest first. */
  readonly listReferred: (customerId: CustomerId) => Effect.Effect<ReadonlyArray<ReferredCustomer>>
}>() {}
