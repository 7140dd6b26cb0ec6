/** What the auth endpoints answer: the token pair and the account. */
import type { AccountWithCustomer } from "@app/domain"
import { Schema } from "effect"

export const TokenPair = Schema.Struct({ accessToken: Schema.String, refreshToken: Schema.String })

export const AccountView = Schema.Struct({
  id: Schema.String,
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  otherNames: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  email: Schema.String,
  emailVerified: Schema.Boolean,
  phoneVerified: Schema.Boolean,
  customer: Schema.Struct({ id: Schema.String, customerStatus: Schema.String })
})

export const accountView = ({ account, customer }: AccountWithCustomer) => ({
  id: account.id,
  firstName: account.firstName,
  lastName: account.lastName,
  otherNames: account.otherNames,
  phone: account.phone,
  email: account.email,
  emailVerified: account.emailVerified,
  phoneVerified: account.phoneVerified,
  customer: { id: customer.id, customerStatus: customer.customerStatus }
})
