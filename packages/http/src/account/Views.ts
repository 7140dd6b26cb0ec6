/** What the customer endpoints answer: the profile (GET /customers/me). */
import type { AccountWithCustomer } from "@app/domain"
import { Schema } from "effect"
import { IdentityFields, identityOf } from "../auth/Views.js"
import { planExample, PlanView } from "../plans/Views.js"
import { CustomerId } from "@app/domain"
import * as Ex from "../shared/Examples.js"

export const CustomerProfile = Schema.Struct({
  id: Schema.String,
  customerId: CustomerId,
  ...IdentityFields,
  dateOfBirth: Schema.NullOr(Schema.String),
  gender: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.String),
  customerStatus: Schema.String,
  kycStatus: Schema.String,
  referralCode: Schema.String,
  hasPin: Schema.Boolean,
  notificationSettings: Schema.Struct({ smsEnabled: Schema.Boolean, emailEnabled: Schema.Boolean }),
  createdAt: Schema.String,
  /** present once the bank account exists */
  coreAccountNumber: Schema.optional(Schema.String),
  /** true until the first confirmed deposit: withdrawals are blocked until then */
  pndActive: Schema.optional(Schema.Boolean),
  /** live balance in kobo (a number, as the spec says), under both names the spec uses */
  balance: Schema.optional(Schema.Number),
  balanceKobo: Schema.optional(Schema.Number),
  /** the customer's disbursement plan (the open one, else the latest completed one); null when none */
  disbursementPlan: Schema.NullOr(PlanView)
}).annotations({
  examples: [{
    id: Ex.ACCOUNT_ID,
    customerId: Ex.CUSTOMER_ID,
    firstName: Ex.FIRST_NAME,
    lastName: Ex.LAST_NAME,
    otherNames: "Adaeze",
    phone: Ex.PHONE,
    email: Ex.EMAIL,
    emailVerified: true,
    phoneVerified: true,
    dateOfBirth: Ex.DATE_OF_BIRTH,
    gender: "female",
    address: Ex.ADDRESS,
    customerStatus: "active",
    kycStatus: "bvn_verified",
    referralCode: Ex.REFERRAL_CODE,
    hasPin: true,
    notificationSettings: { smsEnabled: true, emailEnabled: true },
    createdAt: Ex.CREATED_AT,
    coreAccountNumber: Ex.CORE_ACCOUNT_NUMBER,
    pndActive: false,
    balance: 15_000_000,
    balanceKobo: 15_000_000,
    disbursementPlan: planExample
  }]
})

/** The account and customer fields of the profile; the banking fields are added once the bank account exists. */
export const profileView = ({ account, customer }: AccountWithCustomer) => ({
  id: account.id,
  customerId: customer.id,
  ...identityOf(account),
  dateOfBirth: account.dateOfBirth,
  gender: account.gender,
  address: account.address,
  customerStatus: customer.customerStatus,
  kycStatus: customer.kycStatus,
  referralCode: customer.referralCode,
  hasPin: customer.pinHash !== null,
  notificationSettings: { smsEnabled: customer.smsEnabled, emailEnabled: customer.emailEnabled },
  createdAt: account.createdAt.toISOString()
})
