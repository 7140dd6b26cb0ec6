/**
 * What sign-in needs from outside: access tokens, one-time codes, refresh tokens and the
 * transaction PIN.
 */
import { Context, type Effect, type Option } from "effect"
import type { OneTimeCode, OtpChannel, OtpPurpose, RefreshToken } from "./Model.js"
import type { IdentityProviderUnavailable, IdentityRejected, SocialSignInNotConfigured } from "./Errors.js"
import type { PinClaim, PinGuard, PinLock, PinPolicy } from "./PinLockout.js"
import { AccountId, CustomerId } from "../shared/Ids.js"

export interface AccessClaims {
  readonly accountId: AccountId
  /** the account's session version when the token was issued (claim `sv`; absent = 0) */
  readonly sessionVersion: number
}

/** Short-lived signed access tokens. */
export class AccessTokens extends Context.Tag("domain/AccessTokens")<AccessTokens, {
  readonly issue: (claims: AccessClaims) => Effect.Effect<string>
  readonly verify: (token: string) => Effect.Effect<Option.Option<AccessClaims>>
}>() {}

export interface NewOtp {
  readonly id: string
  readonly accountId: AccountId
  readonly channel: OtpChannel
  readonly purpose: OtpPurpose
  readonly destination: string
  readonly codeHash: string
  readonly maxAttempts: number
  readonly expiresAt: Date
  readonly createdAt: Date
}

export class OtpRepo extends Context.Tag("domain/OtpRepo")<OtpRepo, {
  /**
   * Locks the account against other code issues until the unit of work ends (`SELECT … FROM
   * accounts WHERE id = … FOR UPDATE`): issueOtp's check of the cooldown and window and its store are
   * then one step per account.
   */
  readonly lockIssuing: (accountId: AccountId) => Effect.Effect<void>
  /** Stores a new code and retires every other live code of the same account and purpose. */
  readonly issue: (otp: NewOtp) => Effect.Effect<void>
  readonly latest: (accountId: AccountId, purpose: OtpPurpose) => Effect.Effect<Option.Option<OneTimeCode>>
  /** Creation times of the codes issued for this account and purpose at or after `since`, oldest first. */
  readonly issuedSince: (accountId: AccountId, purpose: OtpPurpose, since: Date) => Effect.Effect<ReadonlyArray<Date>>
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
  readonly revokeAllForAccount: (accountId: AccountId, now: Date) => Effect.Effect<void>
  /** Deletes tokens that expired before `before`; returns how many. */
  readonly purgeExpiredBefore: (before: Date) => Effect.Effect<number>
}>() {}

/** A freeze of a customer's core account at the provider, kept so staff can unfreeze it (unfreeze quotes the reference). */
export interface ProviderFreeze {
  readonly customerId: CustomerId
  readonly freezeReference: string
  readonly frozenAt: Date
}

/**
 * The transaction PIN of a customer (keyed by customer id): its argon2id hash (the customer's
 * `pinHash`, read through AccountRepo) and its guard (wrong tries, lock, lockouts; `PinGuard` in
 * PinLockout.ts, whose pure functions define every transition below: an adapter must give the same
 * answers as they do). Every method is atomic on its own: concurrent calls for one customer behave
 * as if they ran one after another, in some order. A customer without a guard row has `noGuard`
 * (0 tries, no lock, no lockouts).
 */
export class PinRepo extends Context.Tag("domain/PinRepo")<PinRepo, {
  /** Sets the customer's PIN hash, whatever it was (the OTP-gated reset). */
  readonly setPinHash: (customerId: CustomerId, hash: string, now: Date) => Effect.Effect<void>
  /**
   * Compare-and-set: replaces the PIN hash only while it still equals `expected` (null: no PIN
   * set). True when it did; false (nothing changes) when another request changed it first. One
   * statement: `UPDATE customers SET pin_hash = $hash WHERE id = $c AND pin_hash IS NOT DISTINCT FROM $expected`.
   */
  readonly replacePinHash: (customerId: CustomerId, expected: string | null, hash: string, now: Date) => Effect.Effect<boolean>
  /** The customer's guard as stored (`noGuard` when there is none). */
  readonly findGuard: (customerId: CustomerId) => Effect.Effect<PinGuard>
  /**
   * Counts one try BEFORE its PIN is compared: returns and stores exactly what
   * `claimTry(stored guard, now, policy)` returns (`noGuard` when none is stored, which inserts it).
   * In short: `Locked` (nothing changes) while `lockedUntil > now`; otherwise the count restarts at
   * 0 if `lockedUntil` is set (a lock that ended), goes up by one, and the try that reaches
   * `maxWrongTries` sets `lockedUntil = now + lockFor` and appends `now` to the lockouts (dropping
   * those `lockoutWindow` or more before `now`). This read-modify-write MUST be atomic per customer
   * (one `INSERT … ON CONFLICT (customer_id) DO UPDATE … WHERE locked_until IS NULL OR locked_until
   * <= now RETURNING …`, then a read of `locked_until` when no row came back; or SELECT … FOR UPDATE
   * in a transaction): 20 concurrent claims on 0 tries give exactly 5 `Claimed` and 15 `Locked`.
   */
  readonly claimTry: (customerId: CustomerId, now: Date, policy: PinPolicy) => Effect.Effect<PinClaim>
  /**
   * The claimed try's PIN was right: `settleCorrect(stored, lock)`: the count goes back to 0; when
   * `lock` (the claim's own lock) is given, the lockout started at `lock.startedAt` is removed and
   * `lockedUntil` is cleared if it still equals `lock.until` (a later lock or a reset is kept).
   */
  readonly recordCorrectTry: (customerId: CustomerId, lock: PinLock | null) => Effect.Effect<void>
  /** An OTP-gated reset: `clearTries(stored)`: the count goes back to 0 and `lockedUntil` is cleared; lockouts are kept. */
  readonly clearWrongTries: (customerId: CustomerId) => Effect.Effect<void>
  /** Keeps the reference of a provider freeze of the customer's core account (a new row per freeze). */
  readonly recordProviderFreeze: (customerId: CustomerId, freezeReference: string, now: Date) => Effect.Effect<void>
  /** The latest provider freeze recorded for the customer (by frozenAt, then insertion), if any. */
  readonly lastProviderFreeze: (customerId: CustomerId) => Effect.Effect<Option.Option<ProviderFreeze>>
}>() {}

/** What the identity provider vouches for, once its token has been verified. */
export interface VerifiedIdentity {
  /** the provider's stable id of the person (`sub`) */
  readonly subject: string
  readonly email: string
  readonly emailVerified: boolean
  readonly givenName: string | null
  readonly familyName: string | null
}

/**
 * The identity provider of social sign-in. `verifyIdToken` checks a token from a mobile app
 * (signature against the provider's key set, issuer, audience among our client ids, expiry);
 * `exchangeCode` redeems a web authorization code at the token endpoint and verifies the id token
 * it gets the same way.
 */
export class IdentityProvider extends Context.Tag("domain/IdentityProvider")<IdentityProvider, {
  readonly verifyIdToken: (
    idToken: string
  ) => Effect.Effect<VerifiedIdentity, IdentityRejected | SocialSignInNotConfigured | IdentityProviderUnavailable>
  readonly exchangeCode: (
    code: string
  ) => Effect.Effect<VerifiedIdentity, IdentityRejected | SocialSignInNotConfigured | IdentityProviderUnavailable>
}>() {}

/**
 * Which provider identity (subject) each account is linked to: at most one each way. Links are
 * kept when an account is deleted, so a deleted identity is still recognised by its subject after
 * its email has been freed.
 */
export class SocialIdentityRepo extends Context.Tag("domain/SocialIdentityRepo")<SocialIdentityRepo, {
  /** The account linked to this subject. */
  readonly findBySubject: (subject: string) => Effect.Effect<Option.Option<AccountId>>
  /** The subject linked to this account. */
  readonly findByAccount: (accountId: AccountId) => Effect.Effect<Option.Option<string>>
  /** Links them; false (nothing changes) when the subject or the account is already linked. */
  readonly link: (accountId: AccountId, subject: string, now: Date) => Effect.Effect<boolean>
}>() {}
