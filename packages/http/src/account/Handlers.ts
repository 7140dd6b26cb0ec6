import { HttpApiBuilder } from "@effect/platform"
import { type AccountWithCustomer, Auth, Banking, Plans } from "@app/domain"
import { Effect, Option } from "effect"
import { Api } from "../Api.js"
import { bankAccountHandlers } from "../banking/Handlers.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { planView } from "../plans/Views.js"
import { CurrentAccount, signedIn } from "../shared/Security.js"
import { profileView } from "./Views.js"

/**
 * The banking part of the profile. When the bank does not answer, the profile is still served,
 * without the balance: a slow provider must not lock customers out of their own profile.
 */
const bankingFields = (found: AccountWithCustomer) =>
  Banking.bankingSummaryOf(found).pipe(
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
      ProviderUnknownOutcome: () => Effect.succeed(accountOnly(found)),
      ProviderRefused: () => Effect.succeed(accountOnly(found)),
      ProviderMisconfigured: () => Effect.succeed(accountOnly(found))
    })
  )

const accountOnly = ({ customer }: AccountWithCustomer) =>
  customer.coreAccountNumber === null
    ? {}
    : { coreAccountNumber: customer.coreAccountNumber, pndActive: Banking.isPndActive(customer) }

const customer = mapDomainErrors("Customer")

export const CustomerHandlers = HttpApiBuilder.group(Api, "customers", (handlers) =>
  handlers
    .handle("me", () =>
      Effect.gen(function*() {
        // the account as the authentication read it, moments ago: not read again
        const found = yield* CurrentAccount
        const plan = yield* Plans.findPlan(found.customer.id)
        return {
          ...profileView(found),
          ...(yield* bankingFields(found)),
          disbursementPlan: Option.match(plan, { onNone: () => null, onSome: planView })
        }
      }).pipe(customer))
    .handle("createAccount", bankAccountHandlers.createAccount)
    .handle("createBankAccount", bankAccountHandlers.createBankAccount)
    .handle("requestOtp", () => Effect.flatMap(signedIn, (accountId) => Auth.requestActionOtp(accountId)).pipe(customer))
    .handle("balance", bankAccountHandlers.balance)
    .handle("providerTransactions", bankAccountHandlers.providerTransactions)
)
