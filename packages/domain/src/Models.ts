import { Schema } from "effect"

export const CustomerStatus = Schema.Literal("unverified", "verified", "active", "suspended", "closed", "deleted")
export type CustomerStatus = typeof CustomerStatus.Type

export const KycStatus = Schema.Literal("pending", "bvn_verified", "fully_verified")
export type KycStatus = typeof KycStatus.Type

export const Gender = Schema.Literal("male", "female")
export type Gender = typeof Gender.Type

/** The sign-in identity: who the person is and how they prove it. */
export class Account extends Schema.Class<Account>("Account")({
  id: Schema.String,
  email: Schema.String,
  phone: Schema.NullOr(Schema.String),
  passwordHash: Schema.NullOr(Schema.String),
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  otherNames: Schema.NullOr(Schema.String),
  dateOfBirth: Schema.NullOr(Schema.String),
  gender: Schema.NullOr(Gender),
  address: Schema.NullOr(Schema.String),
  emailVerified: Schema.Boolean,
  phoneVerified: Schema.Boolean,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) {}

/** The banking relationship of an account: status, KYC, referral code, preferences. */
export class Customer extends Schema.Class<Customer>("Customer")({
  id: Schema.String,
  accountId: Schema.String,
  customerStatus: CustomerStatus,
  kycStatus: KycStatus,
  referralCode: Schema.String,
  referredBy: Schema.NullOr(Schema.String),
  pinHash: Schema.NullOr(Schema.String),
  smsEnabled: Schema.Boolean,
  emailEnabled: Schema.Boolean,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) {}

export interface AccountWithCustomer {
  readonly account: Account
  readonly customer: Customer
}

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
  accountId: Schema.String,
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
  accountId: Schema.String,
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
