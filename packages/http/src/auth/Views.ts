/** What the auth endpoints answer: the token pair and the account. */
import { AccountId, type AccountWithCustomer, CustomerId } from "@app/domain"
import { Schema } from "effect"

export const TokenPair = Schema.Struct({ accessToken: Schema.String, refreshToken: Schema.String })

/** Sign-in's answer: the tokens, and whether a transaction PIN is set (false: send the customer to set one). */
export const SignedIn = Schema.Struct({ ...TokenPair.fields, hasPin: Schema.Boolean })

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
})

export const accountView = ({ account, customer }: AccountWithCustomer) => ({
  id: account.id,
  ...identityOf(account),
  customer: { id: customer.id, customerStatus: customer.customerStatus }
})
