/** What the auth endpoints answer: the token pair and the account. */
import { AccountId, type AccountWithCustomer, CustomerId } from "@app/domain"
import { Schema } from "effect"
import * as Ex from "../shared/Examples.js"

export const TokenPair = Schema.Struct({ accessToken: Schema.String, refreshToken: Schema.String })
  .annotations({ examples: [{ accessToken: Ex.ACCESS_TOKEN, refreshToken: Ex.REFRESH_TOKEN }] })

/** A requested one-time code's answer: the pinId to send back with the code. */
export const OtpRequested = Schema.Struct({ pinId: Schema.String }).annotations({ examples: [{ pinId: Ex.OTP_PIN_ID }] })

/** Sign-in's answer: the tokens, and whether a transaction PIN is set (false: send the customer to set one). */
export const SignedIn = Schema.Struct({ ...TokenPair.fields, hasPin: Schema.Boolean })
  .annotations({ examples: [{ accessToken: Ex.ACCESS_TOKEN, refreshToken: Ex.REFRESH_TOKEN, hasPin: true }] })

/** The names and contacts of an account, as every view of it shows them. */
export const IdentityFields = {
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  otherNames: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  email: Schema.String,
  emailVerified: Schema.Boolean,
  phoneVerified: Schema.Boolean
}

export const identityOf = (account: AccountWithCustomer["account"]) => ({
  firstName: account.firstName,
  lastName: account.lastName,
  otherNames: account.otherNames,
  phone: account.phone,
  email: account.email,
  emailVerified: account.emailVerified,
  phoneVerified: account.phoneVerified
})

export const AccountView = Schema.Struct({
  id: AccountId,
  ...IdentityFields,
  customer: Schema.Struct({ id: CustomerId, customerStatus: Schema.String })
}).annotations({
  examples: [{
    id: Ex.ACCOUNT_ID,
    firstName: Ex.FIRST_NAME,
    lastName: Ex.LAST_NAME,
    otherNames: "Adaeze",
    phone: Ex.PHONE,
    email: Ex.EMAIL,
    emailVerified: false,
    phoneVerified: false,
    customer: { id: Ex.CUSTOMER_ID, customerStatus: "unverified" }
  }]
})

export const accountView = ({ account, customer }: AccountWithCustomer) => ({
  id: account.id,
  ...identityOf(account),
  customer: { id: customer.id, customerStatus: customer.customerStatus }
})
