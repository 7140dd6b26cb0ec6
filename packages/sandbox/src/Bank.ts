/**
 * The sandbox bank's rules over SQL, one module per concern under bank/ (answers, store, reference
 * claims, accounts, money movement, conservation). Every operation that moves money runs in one transaction that
 * first claims its reference (a primary key: a concurrent duplicate waits, then sees the stored
 * answer), then locks the rows it changes with `FOR UPDATE`, always in the same order
 * (operation → customer account → ledger row), so concurrent calls are safe on PostgreSQL and
 * deadlock-free. Works over any `SqlClient` (with or without name transforms: it uses its own).
 *
 * Money: customer balances + settlement + paidOut = deposits, always.
 *  - deposit: outside world → customer (deposits grows)
 *  - debit: customer → settlement;  credit: settlement → customer
 *  - transfer: settlement → paidOut; a transfer that fails after being pending: paidOut → settlement
 * The settlement account never goes negative: a credit or transfer it cannot cover is refused "51".
 * How a repeated reference is answered and how long a name enquiry's session lasts are `BankRules`
 * (from the sandbox's options).
 */
export { BadRequest, type Outcome } from "./bank/Answers.js"
export { type BankRules } from "./bank/Store.js"
export { accountByReference, accountDetails, freeze, openAccount, placeLien, removeLien, setPnd, transactions, unfreeze } from "./bank/Accounts.js"
export { bvn, deposit, nameEnquiry, posting, requery, transfer } from "./bank/Movements.js"
export { type LedgerTotals, conservation, ledger } from "./bank/Conservation.js"
