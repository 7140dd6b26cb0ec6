/**
 * Ports: what the domain needs from the outside world. Adapters implement them; tests
 * supply in-memory versions. Nothing here knows about SQL, HTTP or Node.
 */
import { Context, Data, type Effect, type Option, type Redacted } from "effect"
import type {
  Transfer,
  TransferClaim,
  TransferPatch,
  Account,
  AccountWithCustomer,
  Beneficiary,
  Customer,
  Gender,
  Instalment,
  Notice,
  OneTimeCode,
  Plan,
  OtpChannel,
  OtpPurpose,
  Page,
  PageRequest,
  RefreshToken,
  Transaction,
  TransactionPurpose
} from "./Models.js"
import type { Kobo } from "./Money.js"

/** Identifiers (UUIDs), so tests can predict them. */
export class Ids extends Context.Tag("domain/Ids")<Ids, { readonly next: Effect.Effect<string> }>() {}

/** Cryptographically secure randomness. */
export class SecureRandom extends Context.Tag("domain/SecureRandom")<SecureRandom, {
  /** n decimal digits, uniformly distributed, leading zeros kept. */
  readonly digits: (n: number) => Effect.Effect<string>
  /** n random characters from the alphabet, uniformly distributed. */
  readonly fromAlphabet: (n: number, alphabet: string) => Effect.Effect<string>
  /** an unguessable URL-safe token with `bytes` bytes of entropy. */
  readonly token: (bytes: number) => Effect.Effect<string>
}>() {}

/** Slow, salted password hashing (argon2id). */
export class PasswordHasher extends Context.Tag("domain/PasswordHasher")<PasswordHasher, {
  readonly hash: (plain: Redacted.Redacted<string>) => Effect.Effect<string>
  readonly verify: (plain: Redacted.Redacted<string>, hash: string) => Effect.Effect<boolean>
  /** Spends the same time as a verify, for sign-ins of unknown accounts (no timing oracle). */
  readonly dummyVerify: (plain: Redacted.Redacted<string>) => Effect.Effect<void>
}>() {}

/**
 * Keyed, deterministic digest (HMAC with a server secret) for high-entropy or short-lived
 * secrets that must be looked up or compared: refresh tokens, one-time codes, BVNs.
 */
export class SecretHasher extends Context.Tag("domain/SecretHasher")<SecretHasher, {
  readonly digest: (purpose: string, secret: string) => Effect.Effect<string>
  /** constant-time comparison of two digests */
  readonly equals: (a: string, b: string) => boolean
}>() {}

export interface AccessClaims {
  readonly accountId: string
}

/** Short-lived signed access tokens. */
export class AccessTokens extends Context.Tag("domain/AccessTokens")<AccessTokens, {
  readonly issue: (claims: AccessClaims) => Effect.Effect<string>
  readonly verify: (token: string) => Effect.Effect<Option.Option<AccessClaims>>
}>() {}

export interface OutboundMessage {
  readonly channel: OtpChannel
  readonly to: string
  readonly subject?: string
  readonly text: string
  /** what the message is about, e.g. email_verification, password_reset */
  readonly kind: string
  /** the one-time code, when the message carries one (never logged) */
  readonly code?: string
}

/** Email and SMS delivery. */
export class Notifier extends Context.Tag("domain/Notifier")<Notifier, {
  readonly send: (message: OutboundMessage) => Effect.Effect<void>
}>() {}

/** Runs an effect atomically: all its repository writes commit together or not at all. */
export class UnitOfWork extends Context.Tag("domain/UnitOfWork")<UnitOfWork, {
  readonly atomically: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}

export interface NewAccount {
  readonly account: Account
  readonly customer: Customer
}

export class AccountRepo extends Context.Tag("domain/AccountRepo")<AccountRepo, {
  /** Fails with the taken field when the email or phone is already registered. */
  readonly create: (input: NewAccount) => Effect.Effect<void, UniqueViolation>
  readonly findById: (accountId: string) => Effect.Effect<Option.Option<AccountWithCustomer>>
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<AccountWithCustomer>>
  readonly findByPhone: (phone: string) => Effect.Effect<Option.Option<AccountWithCustomer>>
  readonly emailExists: (email: string) => Effect.Effect<boolean>
  readonly phoneExists: (phone: string) => Effect.Effect<boolean>
  readonly markEmailVerified: (accountId: string, now: Date) => Effect.Effect<void>
  readonly markPhoneVerified: (accountId: string, now: Date) => Effect.Effect<void>
  /** Moves the customer from `from` to `to`; no-op when the status is not `from`. */
  readonly transitionStatus: (
    accountId: string,
    from: Customer["customerStatus"],
    to: Customer["customerStatus"],
    now: Date
  ) => Effect.Effect<void>
  readonly setPasswordHash: (accountId: string, hash: string, now: Date) => Effect.Effect<void>
  /**
   * Records a verified BVN: stores its digest, sets kycStatus `bvn_verified` and replaces the
   * account's identity fields, all in one atomic step, only while kycStatus is `pending` (false
   * otherwise, and nothing changes). A changed phone number is no longer verified. Fails with the
   * field when another customer holds the BVN digest or another account the phone.
   */
  readonly setBvnVerified: (accountId: string, details: BvnVerifiedDetails, now: Date) => Effect.Effect<boolean, UniqueViolation>
  readonly findByBvnHash: (bvnHash: string) => Effect.Effect<Option.Option<AccountWithCustomer>>
  /** Links the provider account, only when the customer has none yet; false otherwise (nothing changes). */
  readonly setCoreAccount: (
    accountId: string,
    core: { readonly accountNumber: string; readonly reference: string },
    now: Date
  ) => Effect.Effect<boolean>
  readonly findByCoreAccountNumber: (accountNumber: string) => Effect.Effect<Option.Option<AccountWithCustomer>>
  readonly findByCustomerId: (customerId: string) => Effect.Effect<Option.Option<AccountWithCustomer>>
  /** Accounts that have a bank account, ordered by account id, after `afterAccountId` (keyset paging). */
  readonly listWithBankAccount: (
    afterAccountId: string | null,
    limit: number
  ) => Effect.Effect<ReadonlyArray<{ readonly accountId: string; readonly accountNumber: string }>>
  /** Sets firstDepositAt to `at`, only when it is still null; true when this call set it. */
  readonly markFirstDeposit: (accountId: string, at: Date, now: Date) => Effect.Effect<boolean>
}>() {}

export interface BvnVerifiedDetails {
  readonly bvnHash: string
  readonly firstName: string
  readonly lastName: string
  /** +234 form */
  readonly phone: string
  readonly address: string
  readonly gender: Gender
  /** YYYY-MM-DD */
  readonly dateOfBirth: string
}

/** An inbound deposit as the provider posted it. */
export interface NewDeposit {
  readonly id: string
  readonly customerId: string
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
  readonly listForCustomer: (customerId: string, page: PageRequest) => Effect.Effect<Page<Transaction>>
  /**
   * Every row of the customer (any type and status) created in [from, until): `from` inclusive,
   * `until` exclusive; oldest first (createdAt, then id, ascending).
   */
  readonly listForCustomerBetween: (customerId: string, from: Date, until: Date) => Effect.Effect<ReadonlyArray<Transaction>>
  /** Every row of the customer with this purpose, newest first (createdAt, then id, descending). */
  readonly listForCustomerByPurpose: (customerId: string, purpose: TransactionPurpose) => Effect.Effect<ReadonlyArray<Transaction>>
}>() {}

export interface NewBeneficiary {
  readonly id: string
  readonly customerId: string
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
  readonly list: (customerId: string) => Effect.Effect<ReadonlyArray<Beneficiary>>
  /** Only the customer's own. */
  readonly findById: (customerId: string, id: string) => Effect.Effect<Option.Option<Beneficiary>>
  /** Makes it the only default; none when the customer has no such beneficiary. */
  readonly setDefault: (customerId: string, id: string) => Effect.Effect<Option.Option<Beneficiary>>
  /** Deletes it and returns it as it was; none when the customer has no such beneficiary. */
  readonly remove: (customerId: string, id: string) => Effect.Effect<Option.Option<Beneficiary>>
  /** When the customer has beneficiaries but no default, the oldest becomes the default and is returned. */
  readonly promoteOldest: (customerId: string) => Effect.Effect<Option.Option<Beneficiary>>
}>() {}

export interface NewOtp {
  readonly id: string
  readonly accountId: string
  readonly channel: OtpChannel
  readonly purpose: OtpPurpose
  readonly destination: string
  readonly codeHash: string
  readonly maxAttempts: number
  readonly expiresAt: Date
  readonly createdAt: Date
}

export class OtpRepo extends Context.Tag("domain/OtpRepo")<OtpRepo, {
  /** Stores a new code and retires every other live code of the same account and purpose. */
  readonly issue: (otp: NewOtp) => Effect.Effect<void>
  readonly latest: (accountId: string, purpose: OtpPurpose) => Effect.Effect<Option.Option<OneTimeCode>>
  /** Creation times of the codes issued for this account and purpose at or after `since`, oldest first. */
  readonly issuedSince: (accountId: string, purpose: OtpPurpose, since: Date) => Effect.Effect<ReadonlyArray<Date>>
  readonly findById: (id: string) => Effect.Effect<Option.Option<OneTimeCode>>
  /**
   * Atomically spends one attempt on a live code (unconsumed, unexpired at `now`, attempts left)
   * and returns it; none when the code is not live. A guess is compared only after its attempt
   * is spent, so parallel guessing cannot exceed the attempt limit.
   */
  readonly claimAttempt: (id: string, now: Date) => Effect.Effect<Option.Option<OneTimeCode>>
  /** Atomically marks the code used; false when someone else used it first. */
  readonly consume: (id: string, now: Date) => Effect.Effect<boolean>
  /** Deletes codes created before `before`; returns how many. */
  readonly purgeCreatedBefore: (before: Date) => Effect.Effect<number>
}>() {}

export class RefreshTokenRepo extends Context.Tag("domain/RefreshTokenRepo")<RefreshTokenRepo, {
  readonly insert: (token: RefreshToken) => Effect.Effect<void>
  readonly findByHash: (tokenHash: string) => Effect.Effect<Option.Option<RefreshToken>>
  /** Atomically marks a live token used; false when it was already used or revoked. */
  readonly markUsed: (id: string, now: Date) => Effect.Effect<boolean>
  readonly revokeFamily: (familyId: string, now: Date) => Effect.Effect<void>
  readonly revokeAllForAccount: (accountId: string, now: Date) => Effect.Effect<void>
  /** Deletes tokens that expired before `before`; returns how many. */
  readonly purgeExpiredBefore: (before: Date) => Effect.Effect<number>
}>() {}

/** A unique column already holds the value (raced registrations, referral code collisions). */
export class UniqueViolation extends Data.TaggedError("UniqueViolation")<{
  readonly field: "email" | "phone" | "referralCode" | "bvnHash"
}> {}

/** Another money movement of this customer is still in flight (one at a time per customer). */
export class MovementInFlight extends Data.TaggedError("MovementInFlight")<{}> {}

/** A journal write named an epoch that is no longer the movement's: another driver has claimed it. */
export class MovementLost extends Data.TaggedError("MovementLost")<{ readonly transferId: string; readonly epoch: number }> {}

export class TransferRepo extends Context.Tag("domain/TransferRepo")<TransferRepo, {
  /**
   * Inserts a new movement, or returns the one already stored under the same customer and
   * idempotency key (`existing`), whatever its state. Fails with MovementInFlight when another
   * movement of the customer is pending and its account not yet restored (a database constraint,
   * so it holds across processes).
   */
  readonly create: (transfer: Transfer) => Effect.Effect<{ readonly created: boolean; readonly transfer: Transfer }, MovementInFlight>
  readonly findById: (id: string) => Effect.Effect<Option.Option<Transfer>>
  readonly findByIdempotencyKey: (customerId: string, idempotencyKey: string) => Effect.Effect<Option.Option<Transfer>>
  /** Whether a movement of this customer is pending with its account not yet restored. */
  readonly hasMovementInFlight: (customerId: string) => Effect.Effect<boolean>
  /**
   * Writes journal fields (and updated_at = now) only while `claim.epoch` is still the movement's
   * epoch; returns the updated record. MovementLost when it is not: another driver claimed the
   * movement since (the caller must stop at once, with no further provider call).
   */
  readonly update: (claim: TransferClaim, patch: TransferPatch, now: Date) => Effect.Effect<Transfer, MovementLost>
  /**
   * Claims up to `limit` pending movements that need driving and that no live process holds (lease
   * expired or none): sagas whose account is not restored (their driver died mid-way), restored ones
   * whose final status was never written (the driver died just before), and pending transfers whose
   * requery is due (`nextAttemptAt <= now`). Sets their lease to `leaseUntil` and bumps their epoch,
   * so whoever held them before is fenced out. Safe across processes (FOR UPDATE SKIP LOCKED).
   */
  readonly claimDue: (now: Date, leaseUntil: Date, limit: number) => Effect.Effect<ReadonlyArray<Transfer>>
}>() {}

/** Someone else changed the plan since it was read (optimistic concurrency), or a second open plan. */
export class PlanConflict extends Data.TaggedError("PlanConflict")<{}> {}

/**
 * Disbursement plans and their instalments. A customer has at most one plan that is not completed
 * (a database constraint). Plans are written with optimistic concurrency (`version`); scheduler
 * processes claim due work with leases (FOR UPDATE SKIP LOCKED), which do not change the version.
 */
export class PlanRepo extends Context.Tag("domain/PlanRepo")<PlanRepo, {
  /** The customer's plan that is not completed; else their most recently created one. */
  readonly findForCustomer: (customerId: string) => Effect.Effect<Option.Option<Plan>>
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
  readonly findInstalment: (planId: string, cycle: number) => Effect.Effect<Option.Option<Instalment>>
  /** Inserts the instalment unless (planId, cycle) exists; returns the stored one either way. */
  readonly ensureInstalment: (instalment: Instalment) => Effect.Effect<Instalment>
  /** Writes kind, status, attempts, transactionId, amountKobo, dueAt, paidAt, updatedAt. */
  readonly saveInstalment: (instalment: Instalment) => Effect.Effect<Instalment>
  /** The plan's instalments in cycle order. */
  readonly listInstalments: (planId: string) => Effect.Effect<ReadonlyArray<Instalment>>
  /** The plan's movements with this purpose that have not failed, created at or after `since` (all when null). */
  readonly countMovements: (planId: string, purpose: TransactionPurpose, since: Date | null) => Effect.Effect<number>
}>() {}

/** Notices raised to customers (plan_depleted, disbursement_failed, …), kept for them and for admins. */
export class NoticeRepo extends Context.Tag("domain/NoticeRepo")<NoticeRepo, {
  readonly record: (notice: Notice) => Effect.Effect<void>
  /** Newest first. */
  readonly listForCustomer: (customerId: string) => Effect.Effect<ReadonlyArray<Notice>>
}>() {}
