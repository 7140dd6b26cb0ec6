/**
 * The customer's transaction history, ours and the provider's.
 */
import { Effect, Option } from "effect"
import { requireAccount } from "../account/Accounts.js"
import type { AccountWithCustomer } from "../account/Model.js"
import { requireBankAccount } from "../banking/BankAccount.js"
import { NoBankAccount } from "../banking/Errors.js"
import { CoreBanking } from "../banking/CoreBanking.js"
import type { PageRequest } from "../shared/Paging.js"
import { TransactionNotFound } from "./Errors.js"
import { TransactionRepo } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, TransactionId } from "../shared/Ids.js"

/** The provider's own postings of the account, as it reports them. */
export const providerTransactions = (accountId: AccountId) =>
  Effect.gen(function*() {
    const { accountNumber } = yield* requireBankAccount(accountId)
    return yield* (yield* CoreBanking).history(accountNumber)
  }).pipe(withSpan("Banking.providerTransactions", { attributes: { accountId } }))

/** The customer's Transaction rows, newest first. */
export const transactions = (accountId: AccountId, page: PageRequest) =>
  Effect.flatMap(requireAccount(accountId), (found) => transactionsOf(found, page))

/** `transactions` for an account already read (the signed-in one): no second read. */
export const transactionsOf = (found: AccountWithCustomer, page: PageRequest) =>
  Effect.gen(function*() {
    if (found.customer.coreAccountNumber === null) return yield* new NoBankAccount()
    return yield* (yield* TransactionRepo).listForCustomer(found.customer.id, page)
  }).pipe(withSpan("Banking.transactions", { attributes: { accountId: found.account.id } }))

/** One Transaction row of this customer; TransactionNotFound for someone else's. */
export const transaction = (accountId: AccountId, transactionId: TransactionId) =>
  Effect.gen(function*() {
    const { customer } = yield* requireAccount(accountId)
    const found = yield* (yield* TransactionRepo).findById(transactionId)
    if (Option.isNone(found) || found.value.customerId !== customer.id) return yield* new TransactionNotFound()
    return found.value
  }).pipe(withSpan("Banking.transaction", { attributes: { accountId } }))
