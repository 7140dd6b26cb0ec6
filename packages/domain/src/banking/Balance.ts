/**
 * The live balance and the customer-facing PND.
 */
import { Effect, Option } from "effect"
import { requireAccount } from "../account/Accounts.js"
import type { AccountWithCustomer, Customer } from "../account/Model.js"
import type { Kobo } from "../shared/Money.js"
import { requireBankAccount } from "./BankAccount.js"
import { BalanceCache } from "./Caches.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId } from "../shared/Ids.js"

/** The customer-facing PND: withdrawals are blocked until the first confirmed deposit. */
export const isPndActive = (customer: Customer): boolean => customer.firstDepositAt === null

/** The ledger balance, live (at most `BalanceCacheTtl` old). */
export const balance = (accountId: AccountId) =>
  Effect.gen(function*() {
    const { accountNumber } = yield* requireBankAccount(accountId)
    const snapshot = yield* (yield* BalanceCache).get(accountNumber)
    return snapshot.ledgerBalanceKobo
  }).pipe(withSpan("Banking.balance", { attributes: { accountId } }))

export interface BankingSummary {
  readonly coreAccountNumber: string
  readonly pndActive: boolean
  readonly balanceKobo: Kobo
}

/** The profile's banking fields; none before the bank account exists. */
export const bankingSummary = (accountId: AccountId) => Effect.flatMap(requireAccount(accountId), bankingSummaryOf)

/** `bankingSummary` of an account already read (the signed-in one): no second read. */
export const bankingSummaryOf = (found: AccountWithCustomer) =>
  Effect.gen(function*() {
    const accountNumber = found.customer.coreAccountNumber
    if (accountNumber === null) return Option.none<BankingSummary>()
    const snapshot = yield* (yield* BalanceCache).get(accountNumber)
    return Option.some<BankingSummary>({
      coreAccountNumber: accountNumber,
      pndActive: isPndActive(found.customer),
      balanceKobo: snapshot.ledgerBalanceKobo
    })
  }).pipe(withSpan("Banking.bankingSummary", { attributes: { accountId: found.account.id } }))
