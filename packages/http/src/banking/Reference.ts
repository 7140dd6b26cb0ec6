/** The API reference of kyc, deposits, webhooks, banks: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## kyc.verifyBvn
Verify the customer's BVN

The registry's date of birth and first and last name (any case, spacing, accents or order) must match;
the profile takes the registry's names. 400 BVN not found, date of birth or name mismatch, BVN held by
another account (said only once everything else matched), already verified. 429 after 3 failed
verifications within 24 hours (Retry-After).

## customers.createAccount
Open the customer's bank account

Customer (bearer), once the email and the BVN are verified. Opens the account at the core banking
provider and makes the customer active; withdrawals stay blocked (PND) until the first deposit is
confirmed. Safe to retry after a failure: the same customer always opens the same account. 400
BANK_ACCOUNT_EXISTS (error.accountNumber), CUSTOMER_NOT_VERIFIED, BVN_NOT_VERIFIED.

## customers.createBankAccount
Open the customer's bank account (other path)

The spec's other path of POST /api/v1/customers/create-account: the same operation, rules and answer.

## customers.balance
Get the live balance

Customer (bearer). The balance at the core banking provider, balanceKobo as a number of kobo. A live
poll: cache it. 400 NO_BANK_ACCOUNT before the bank account exists.

## customers.providerTransactions
List the bank's own transaction records

Customer (bearer). The account's transactions as the core banking provider reports them (not the
service's Transaction rows: see GET /api/v1/transactions), amounts as decimal strings of kobo. 400
NO_BANK_ACCOUNT.

## deposits.sync
Sync deposits from the bank

Customer (bearer). Records the inbound transfers the provider has posted to the customer's account and
answers the live balance (balanceKobo). The first confirmed deposit allows withdrawals from then on and
makes a referral successful. 400 NO_BANK_ACCOUNT.

## deposits.testDeposit
Credit a test deposit

Customer (bearer); not in production (403 TEST_DEPOSITS_DISABLED). Credits the customer's account with
amountKobo (default 5000000, at most 10000000; no body means the default) and answers the updated
balanceKobo. 400 NO_BANK_ACCOUNT.

## deposits.depositFee
Quote the fee of a deposit

Customer (bearer). An estimate of what the customer's own bank may charge to fund the wallet with
amountKobo: {totalKobo, feeKobo, vatKobo, amountKobo} as decimal strings of kobo. The service charges
nothing. 400 missing or invalid amountKobo.

## webhooks.coreBanking
Notify a posted transaction (core banking provider)

Called by the core banking provider, authenticated by its static shared-secret header, not a customer
token (401 WEBHOOK_UNAUTHORIZED when it is missing or wrong). Acknowledged with 200 at once; the
customer's deposits are then synced in the background. The body is the provider's notification, taken as
it comes.

## banks.list
List the banks

Public. The banks money can be sent to, as bankCode (e.g. "058") and bankName, from the core banking
provider's list, cached 24 hours.
`
