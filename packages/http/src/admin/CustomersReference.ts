/** The API reference of adminCustomers: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## adminCustomers.search
Search customers

Customers matching q (name, email, phone, account number, referral code or id), status, kyc and officer,
sorted newest (default), oldest, balance_desc or balance_asc; the balance is the last one the provider
gave (customers:read).

## adminCustomers.detail
Get a customer's case file

One customer: KYC, plan, recent transactions, notices, tickets and audit trail; never a hash or secret.

## adminCustomers.plan
Get a customer's plan

customers:read. The customer's plan (the open one, else the latest completed one; null when none) with
the fee each payout is charged and how much of Borrow and Extra Cash it has used against the caps. 404
for an unknown customer.

## adminCustomers.messages
List the emails and SMS sent to a customer

customers:read. The emails and SMS sent to the customer, newest first (at most 100): one-time codes
issued to the account and queued messages to its email or phone, with kind, channel, masked destination,
status and times. Never a code's value or a message's body: for "I did not get my code", it says whether
one was sent, where, and whether it was used, replaced or expired. 404 for an unknown customer.

## adminCustomers.freeze
Freeze a customer

customers:freeze, a reason required. customerStatus suspended and every session revoked at once; the
core account is frozen at the bank after any movement in flight has finished or been compensated
(providerFreeze says where that stands). Freezing a frozen customer answers the same. 409 for a closing,
closed or deleted customer.

## adminCustomers.unfreeze
Unfreeze a customer

customers:unfreeze. The bank lifts its freeze (quoting the freeze reference) and customerStatus goes
back to active. 409 unless suspended; 502 when the bank refuses or does not answer (the customer stays
suspended). Under ADMIN_FOUR_EYES=true: 202 with the pending approval, applied when a second member
approves it.
`
