/**
 * One-time codes and refresh tokens.
 */
import { Schema } from "effect"
import { AccountId } from "../shared/Ids.js"

export const OtpChannel = Schema.Literal("email", "sms")
export type OtpChannel = typeof OtpChannel.Type

/**
 * What a code may be used for. A code issued for one purpose never satisfies another:
 * an email-verification code cannot reset a password.
 */
export const OtpPurpose = Schema.Literal("email_verification", "phone_verification", "password_reset", "sensitive_action")
export type OtpPurpose = typeof OtpPurpose.Type

export class OneTimeCode extends Schema.Class<OneTimeCode>("OneTimeCode")({
  id: Schema.String,
  accountId: AccountId,
  channel: OtpChannel,
  purpose: OtpPurpose,
  destination: Schema.String,
  codeHash: Schema.String,
  attempts: Schema.Number,
  maxAttempts: Schema.Number,
  expiresAt: Schema.DateFromSelf,
  consumedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf
}) {}

export class RefreshToken extends Schema.Class<RefreshToken>("RefreshToken")({
  id: Schema.String,
  accountId: AccountId,
  familyId: Schema.String,
  tokenHash: Schema.String,
  expiresAt: Schema.DateFromSelf,
  usedAt: Schema.NullOr(Schema.DateFromSelf),
  revokedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf
}) {}

export interface TokenPair {
  readonly accessToken: string
  readonly refreshToken: string
}
