/**
 * What sign-in needs from outside: access tokens, one-time codes and refresh tokens.
 */
import { Context, type Effect, type Option } from "effect"
import type { OneTimeCode, OtpChannel, OtpPurpose, RefreshToken } from "./Model.js"

export interface AccessClaims {
  readonly accountId: string
}

/** Short-lived signed access tokens. */
export class AccessTokens extends Context.Tag("domain/AccessTokens")<AccessTokens, {
  readonly issue: (claims: AccessClaims) => Effect.Effect<string>
  readonly verify: (token: string) => Effect.Effect<Option.Option<AccessClaims>>
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
