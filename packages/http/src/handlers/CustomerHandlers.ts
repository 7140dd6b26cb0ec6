import { HttpApiBuilder } from "@effect/platform"
import { type AccountWithCustomer, Auth, Banking, Plans } from "@app/domain"
import { Effect, Option } from "effect"
import { providerTransactionView } from "./BankingHandlers.js"
import { Api, CurrentAccount } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { planView } from "./PlanHandlers.js"

/** The account and customer fields of the profile; the banking fields are added once the bank account exists. */
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

/**
 * The banking part of the profile. When the bank does not answer, the profile is still served,
 * without the balance: a slow provider must not lock customers out of their own profile.
 */
const bankingFields = (accountId: string) =>
  Banking.bankingSummary(accountId).pipe(
    Effect.map(Option.match({
      onNone: () => ({}),
      onSome: (s) => ({
        coreAccountNumber: s.coreAccountNumber,
        pndActive: s.pndActive,
        balance: Number(s.balanceKobo),
        balanceKobo: Number(s.balanceKobo)
      })
    })),
    Effect.catchTags({
      ProviderUnknownOutcome: () => accountOnly(accountId),
      ProviderRefused: () => accountOnly(accountId),
      ProviderMisconfigured: () => accountOnly(accountId)
    })
  )

const accountOnly = (accountId: string) =>
  Effect.map(Auth.getProfile(accountId), ({ customer }) =>
    customer.coreAccountNumber === null
      ? {}
      : { coreAccountNumber: customer.coreAccountNumber, pndActive: Banking.isPndActive(customer) })

const created = ({ accountNumber }: { accountNumber: string }) => ({ accountNumber, bankAccountNumber: accountNumber })

const customer = mapDomainErrors("Customer")

export const CustomerHandlers = HttpApiBuilder.group(Api, "customers", (handlers) =>
  handlers
    .handle("me", () =>
      Effect.gen(function*() {
        const { account } = yield* CurrentAccount
        const found = yield* Auth.getProfile(account.id)
        const plan = yield* Plans.findPlan(found.customer.id)
        return {
          ...profileView(found),
          ...(yield* bankingFields(account.id)),
          disbursementPlan: Option.match(plan, { onNone: () => null, onSome: planView })
        }
      }).pipe(customer))
    .handle("createAccount", () => Effect.flatMap(CurrentAccount, ({ account }) => Banking.openBankAccount(account.id)).pipe(Effect.map(created), customer))
    .handle("createBankAccount", () =>
      Effect.flatMap(CurrentAccount, ({ account }) => Banking.openBankAccount(account.id)).pipe(Effect.map(created), customer))
    .handle("requestOtp", () => Effect.flatMap(CurrentAccount, ({ account }) => Auth.requestActionOtp(account.id)).pipe(customer))
    .handle("balance", () =>
      Effect.flatMap(CurrentAccount, ({ account }) => Banking.balance(account.id)).pipe(
        Effect.map((kobo) => ({ balanceKobo: Number(kobo) })),
        customer
      ))
    .handle("providerTransactions", () =>
      Effect.flatMap(CurrentAccount, ({ account }) => Banking.providerTransactions(account.id)).pipe(
        Effect.map((rows) => rows.map(providerTransactionView)),
        customer
      ))
)
