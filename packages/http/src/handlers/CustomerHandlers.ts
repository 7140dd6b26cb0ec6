import { HttpApiBuilder } from "@effect/platform"
import { type AccountWithCustomer, Auth } from "@app/domain"
import { Effect } from "effect"
import { Api, CurrentAccount } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"

/** The profile before a bank account exists: no account number, PND flag or balance yet. */
export const profileView = ({ account, customer }: AccountWithCustomer) => ({
  id: account.id,
  customerId: customer.id,
  firstName: account.firstName,
  lastName: account.lastName,
  otherNames: account.otherNames,
  phone: account.phone,
  email: account.email,
  emailVerified: account.emailVerified,
  phoneVerified: account.phoneVerified,
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

export const CustomerHandlers = HttpApiBuilder.group(Api, "customers", (handlers) =>
  handlers.handle("me", () =>
    Effect.flatMap(CurrentAccount, ({ account }) => Auth.getProfile(account.id)).pipe(
      Effect.map(profileView),
      mapDomainErrors("Customer")
    ))
)
