/**
 * Core banking use cases: BVN verification, opening the customer's bank account, the balance,
 * deposits and the bank list. Money lives at the provider (the `CoreBanking` port); this service
 * keeps the link (account number), the KYC state and one Transaction row per deposit.
 *
 * Decisions:
 * - BVN. Only a keyed digest (`SecretHasher.digest("bvn", …)`) is stored, so a BVN can be matched
 *   against other customers but never read back; the number itself goes to the registry once and is
 *   never logged (it may be passed `Redacted`). The registry's date of birth must equal the one given,
 *   and its first and last name the ones given (NameMatch.ts; the profile then takes the
 *   registry's). At most 3 failed verifications per customer per 24 hours (Bvn.ts), and a BVN held
 *   by another customer is only reported once the rest matched (no oracle of who banks here).
 * - Opening an account is idempotent: the reference is derived from the customer id
 *   (`referenceFor("A", customer.id)`), and an unknown outcome (timeout) is resolved by
 *   `findAccountByReference` before giving up, so a retry never opens a second account.
 * - PND. At the provider, post-no-debit stays ACTIVE on the customer's account at all times except
 *   inside a money movement of ours (deactivate → lien → debit → transfer → remove lien → activate),
 *   so nothing but our own sagas can ever debit it. What the customer sees as `pndActive` is a
 *   business state instead: true until the first confirmed inbound deposit (`firstDepositAt` null),
 *   false afterwards. That first confirmed deposit is what allows withdrawals.
 * - Deposits. Every inbound NIP credit in the provider history becomes exactly one confirmed deposit
 *   row, keyed by (customer, provider reference), however often or concurrently a sync runs (the
 *   webhook, the sync endpoint, reconciliation).
 * - Caching. The balance is a live poll of the provider; a burst of reads within 5 seconds shares one
 *   provider call (`BalanceCache`), and anything that moves money invalidates the entry. The bank
 *   list is cached for 24 hours (`BankListCache`). Failures are never cached. Both caches read time
 *   from the Effect `Clock`.
 */
export { BalanceCache, BalanceCacheLive, BalanceCacheTtl, BalanceMemo, BankingCachesLive, BankListCache, BankListCacheLive, BankListCacheTtl, banks } from "./Caches.js"
export { type BvnIdentity, verifyBvn, type VerifyBvnInput } from "./Bvn.js"
export { namesMatch, type PersonName } from "./NameMatch.js"
export { openBankAccount } from "./BankAccount.js"
export { balance, type BankingSummary, bankingSummary, bankingSummaryOf, isPndActive } from "./Balance.js"
export { depositsForAccountNumber, type DepositSync, reconcileDeposits, syncDeposits, testDeposit, TestDepositPolicy } from "./Deposits.js"
