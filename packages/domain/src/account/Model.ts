/**
 * Accounts (the sign-in identity) and customers (the banking relationship).
 */
import { Schema } from "effect"
import { AccountId, CustomerId } from "../shared/Ids.js"

export const CustomerStatus = Schema.Literal("unverified", "verified", "active", "suspended", "closing", "closed", "deleted")
export type CustomerStatus = typeof CustomerStatus.Type

export const KycStatus = Schema.Literal("pending", "bvn_verified", "fully_verified")
export type KycStatus = typeof KycStatus.Type

export const Gender = Schema.Literal("male", "female")
export type Gender = typeof Gender.Type

/**
 * The personal details a customer gives when verifying their BVN: sent to be checked against the
 * registry (VerifyBvnInput), then stored on the account (BvnVerifiedDetails).
 */
export interface PersonalDetails {
  readonly firstName: string
  readonly lastName: string
  /** normalised +234 form */
  readonly phone: string
  readonly address: string
  readonly gender: Gender
  /** YYYY-MM-DD */
  readonly dateOfBirth: string
}

/** The sign-in identity: who the person is and how they prove it. */
export class Account extends Schema.Class<Account>("Account")({
  id: AccountId,
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
  updatedAt: Schema.DateFromSelf,
  /** the name the customer chose to be greeted by (PATCH /users/profile); null = first and last name */
  displayName: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  /** a WhatsApp contact number (+234 form), separate from the verified phone */
  whatsappNumber: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  /**
   * the version every access token carries (claim `sv`); a token of another version is refused.
   * It moves on when every session of the account is revoked at once (resetUnprovenSetup).
   */
  sessionVersion: Schema.optionalWith(Schema.Number, { default: () => 0 })
}) {}

/** The banking relationship of an account: status, KYC, referral code, preferences. */
export class Customer extends Schema.Class<Customer>("Customer")({
  id: CustomerId,
  accountId: AccountId,
  customerStatus: CustomerStatus,
  kycStatus: KycStatus,
  referralCode: Schema.String,
  referredBy: Schema.NullOr(CustomerId),
  pinHash: Schema.NullOr(Schema.String),
  smsEnabled: Schema.Boolean,
  emailEnabled: Schema.Boolean,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  // Banking fields (all null until the step that sets them; optional when constructing, default null):
  /** keyed digest of the BVN (SecretHasher.digest("bvn", …)); the BVN itself is never stored */
  bvnHash: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  /** the account number at the core banking provider */
  coreAccountNumber: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  /** our reference that opened the provider account (`referenceFor("A", customer.id)`) */
  coreAccountReference: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  /** when the first confirmed inbound deposit was posted; null = withdrawals not yet allowed (customer-facing PND) */
  firstDepositAt: Schema.optionalWith(Schema.NullOr(Schema.DateFromSelf), { default: () => null })
}) {}

export interface AccountWithCustomer {
  readonly account: Account
  readonly customer: Customer
}
