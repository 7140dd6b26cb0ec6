import { HttpApiBuilder } from "@effect/platform"
import { Accounts, Auth, Banking, Plans } from "@app/domain"
import { Effect, Option } from "effect"
import { Api } from "../Api.js"
import { bankAccountHandlers } from "../banking/Handlers.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { planView } from "../plans/Views.js"
import { signedIn } from "../shared/Security.js"
import { profileView } from "./Views.js"

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
  Effect.map(Accounts.getProfile(accountId), ({ customer }) =>
    customer.coreAccountNumber === null
      ? {}
      : { coreAccountNumber: customer.coreAccountNumber, pndActive: Banking.isPndActive(customer) })

const customer = mapDomainErrors("Customer")

export const CustomerHandlers = HttpApiBuilder.group(Api, "customers", (handlers) =>
  handlers
    .handle("me", () =>
      Effect.gen(function*() {
        const accountId = yield* signedIn
        const found = yield* Accounts.getProfile(accountId)
        const plan = yield* Plans.findPlan(found.customer.id)
        return {
          ...profileView(found),
          ...(yield* bankingFields(accountId)),
          disbursementPlan: Option.match(plan, { onNone: () => null, onSome: planView })
        }
      }).pipe(customer))
    .handle("createAccount", bankAccountHandlers.createAccount)
    .handle("createBankAccount", bankAccountHandlers.createBankAccount)
    .handle("requestOtp", () => Effect.flatMap(signedIn, (accountId) => Auth.requestActionOtp(accountId)).pipe(customer))
    .handle("balance", bankAccountHandlers.balance)
    .handle("providerTransactions", bankAccountHandlers.providerTransactions)
)
