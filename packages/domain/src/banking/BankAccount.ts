/**
 * Opening the customer's bank account at the provider, idempotently.
 */
import { Effect, Option } from "effect"
import { requireAccount } from "../account/Accounts.js"
import type { AccountWithCustomer } from "../account/Model.js"
import { AccountRepo } from "../account/Ports.js"
import { SecretHasher } from "../shared/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import { CoreBanking, type ProviderAccount, referenceFor } from "./CoreBanking.js"
import { BankAccountExists, BvnNotVerified, CustomerNotVerified, NoBankAccount } from "./Errors.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId } from "../shared/Ids.js"

/**
 * The keyed digest of a core account number that the erasure keeps on a deleted customer's row
 * (the number itself is erased), so money arriving for it later still finds them.
 */
export const coreAccountDigest = (accountNumber: string) => Effect.flatMap(SecretHasher, (h) => h.digest("core-account", accountNumber))

/** The account with its customer and the customer's provider account number; NoBankAccount without one. */
export const requireBankAccount = (accountId: AccountId) =>
  Effect.flatMap(requireAccount(accountId), (found) =>
    found.customer.coreAccountNumber === null
      ? Effect.fail(new NoBankAccount())
      : Effect.succeed({ ...found, accountNumber: found.customer.coreAccountNumber }))

const identityOf = ({ account }: AccountWithCustomer) =>
  account.firstName === null || account.lastName === null || account.phone === null || account.dateOfBirth === null
    ? Effect.dieMessage("a BVN-verified account lacks its verified identity")
    : Effect.succeed({
      firstName: account.firstName,
      lastName: account.lastName,
      otherNames: account.otherNames,
      phone: account.phone,
      email: account.email,
      dateOfBirth: account.dateOfBirth,
      gender: account.gender
    })

/**
 * Opens the customer's account at the provider and makes the customer `active`. Safe to retry
 * after any failure: the same customer always sends the same reference, and a timed-out opening is
 * looked up by that reference before the unknown outcome is reported.
 */
export const openBankAccount = (accountId: AccountId) =>
  Effect.gen(function*() {
    const found = yield* requireAccount(accountId)
    const { customer } = found
    if (customer.coreAccountNumber !== null) {
      return yield* new BankAccountExists({ accountNumber: customer.coreAccountNumber })
    }
    if (customer.customerStatus !== "verified") {
      return yield* new CustomerNotVerified({ customerStatus: customer.customerStatus })
    }
    if (customer.kycStatus === "pending") return yield* new BvnNotVerified()
    const identity = yield* identityOf(found)
    const reference = referenceFor("A", customer.id)
    const core = yield* CoreBanking
    const opened = yield* core.openAccount({ reference, ...identity }).pipe(
      Effect.catchTag("ProviderUnknownOutcome", (unknown) =>
        core.findAccountByReference(reference).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(unknown),
            onSome: (account): Effect.Effect<ProviderAccount> => Effect.succeed(account)
          }))
        ))
    )
    const repo = yield* AccountRepo
    const at = yield* now
    yield* atomically(Effect.gen(function*() {
      if (!(yield* repo.setCoreAccount(accountId, { accountNumber: opened.accountNumber, reference }, at))) {
        // a concurrent call linked an account first: the same one (same reference) is fine
        const current = yield* requireAccount(accountId)
        if (current.customer.coreAccountNumber !== opened.accountNumber) {
          return yield* new BankAccountExists({ accountNumber: current.customer.coreAccountNumber ?? "" })
        }
      }
      yield* repo.transitionStatus(accountId, "verified", "active", at)
    }))
    yield* Effect.logInfo("bank account opened").pipe(Effect.annotateLogs({ accountId, reference }))
    return { accountNumber: opened.accountNumber }
  }).pipe(withSpan("Banking.openBankAccount", { attributes: { accountId } }))
