/**
 * Where accounts and customers are kept.
 */
import { Context, Data, type Effect, type Option } from "effect"
import type { Account, AccountWithCustomer, Customer, PersonalDetails } from "./Model.js"
import { AccountId, CustomerId } from "../shared/Ids.js"

export type CustomerStanding = Pick<Customer, "customerStatus" | "coreAccountNumber">

export interface NewAccount {
  readonly account: Account
  readonly customer: Customer
}

export class AccountRepo extends Context.Tag("domain/AccountRepo")<AccountRepo, {
  /** Fails with the taken field when the email or phone is already registered. */
  readonly create: (input: NewAccount) => Effect.Effect<void, UniqueViolation>
  readonly findById: (accountId: AccountId) => Effect.Effect<Option.Option<AccountWithCustomer>>
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<AccountWithCustomer>>
  readonly findByPhone: (phone: string) => Effect.Effect<Option.Option<AccountWithCustomer>>
  readonly emailExists: (email: string) => Effect.Effect<boolean>
  readonly phoneExists: (phone: string) => Effect.Effect<boolean>
  readonly markEmailVerified: (accountId: AccountId, now: Date) => Effect.Effect<void>
  readonly markPhoneVerified: (accountId: AccountId, now: Date) => Effect.Effect<void>
  /** Moves the customer from `from` to `to`; no-op when the status is not `from`. */
  readonly transitionStatus: (
    accountId: AccountId,
    from: Customer["customerStatus"],
    to: Customer["customerStatus"],
    now: Date
  ) => Effect.Effect<void>
  readonly setPasswordHash: (accountId: AccountId, hash: string, now: Date) => Effect.Effect<void>
  /**
   * A provider identity proved the email of an account whose email was never verified: whatever the
   * earlier registrant set up is undone, in one step: the password and the transaction PIN are
   * cleared, the phone is detached (phone null, not verified), the email is marked verified, the
   * customer moves from unverified to verified, and the session version moves on (every access
   * token issued before is refused). Refresh tokens and saved accounts are the caller's.
   */
  readonly resetUnprovenSetup: (accountId: AccountId, now: Date) => Effect.Effect<void>
  /** Sets the password hash only while the account has none; false (nothing changes) otherwise. */
  readonly setFirstPasswordHash: (accountId: AccountId, hash: string, now: Date) => Effect.Effect<boolean>
  /**
   * Records a verified BVN: stores its digest, sets kycStatus `bvn_verified` and replaces the
   * account's identity fields, all in one atomic step, only while kycStatus is `pending` (false
   * otherwise, and nothing changes). A changed phone number is no longer verified. Fails with the
   * field when another customer holds the BVN digest or another account the phone.
   */
  readonly setBvnVerified: (accountId: AccountId, details: BvnVerifiedDetails, now: Date) => Effect.Effect<boolean, UniqueViolation>
  readonly findByBvnHash: (bvnHash: string) => Effect.Effect<Option.Option<AccountWithCustomer>>
  /** Links the provider account, only when the customer has none yet; false otherwise (nothing changes). */
  readonly setCoreAccount: (
    accountId: AccountId,
    core: { readonly accountNumber: string; readonly reference: string },
    now: Date
  ) => Effect.Effect<boolean>
  readonly findByCoreAccountNumber: (accountNumber: string) => Effect.Effect<Option.Option<AccountWithCustomer>>
  /** The deleted customer whose erased core account number has this digest (`coreAccountDigest`). */
  readonly findDeletedByCoreAccountDigest: (digest: string) => Effect.Effect<Option.Option<AccountWithCustomer>>
  readonly findByCustomerId: (customerId: CustomerId) => Effect.Effect<Option.Option<AccountWithCustomer>>
  /**
   * The customer's status and bank account number alone: what a payout checks under its plan's
   * lock, read without the ~35 other columns of the account and customer (every payout reads it).
   */
  readonly findStanding: (customerId: CustomerId) => Effect.Effect<Option.Option<CustomerStanding>>
  /** Accounts that have a bank account, ordered by account id, after `afterAccountId` (keyset paging). */
  readonly listWithBankAccount: (
    afterAccountId: AccountId | null,
    limit: number
  ) => Effect.Effect<ReadonlyArray<{ readonly accountId: AccountId; readonly accountNumber: string }>>
  /** Sets firstDepositAt to `at`, only when it is still null; true when this call set it. */
  readonly markFirstDeposit: (accountId: AccountId, at: Date, now: Date) => Effect.Effect<boolean>
  /** Sets the profile fields given (undefined = unchanged, null = cleared). */
  readonly setProfile: (
    accountId: AccountId,
    patch: { readonly displayName?: string | undefined; readonly whatsappNumber?: string | null | undefined },
    now: Date
  ) => Effect.Effect<void>
  /** Sets the flags given (undefined = unchanged). */
  readonly setNotificationSettings: (
    accountId: AccountId,
    patch: { readonly smsEnabled?: boolean | undefined; readonly emailEnabled?: boolean | undefined },
    now: Date
  ) => Effect.Effect<void>
}>() {}

export interface BvnVerifiedDetails extends PersonalDetails {
  readonly bvnHash: string
}

/** A unique column already holds the value (raced registrations, referral code collisions). */
export class UniqueViolation extends Data.TaggedError("UniqueViolation")<{
  readonly field: "email" | "phone" | "referralCode" | "bvnHash"
}> {}
