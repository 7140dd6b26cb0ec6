/** The API reference of adminLedger: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## adminLedger.search
Search every customer's transactions

Every customer's transactions, newest first: by id, reference (ours or the provider's), customer,
status, purpose, UTC days (from/to inclusive) and amount range (transactions:read).

## adminLedger.requery
Ask the bank for a transaction's status

Asks the provider about the transaction's debit and transfer references and answers its statuses beside
ours (successful, failed, pending, reversed, not_found; unreachable or refused when it gave none).
Read-only: nothing changes; reconciliation acts on answers. Audited (transactions:requery).

## adminLedger.resolve
Resolve a movement awaiting an operator

transactions:resolve. Records what staff established with the bank about a movement parked after the
bank refused its reversal (reversal_refused alert): \`credited_back\` (the customer's money was given back
by hand: the movement fails) or \`delivered\` (the bank confirmed the transfer: the movement is
confirmed), with a note. Nothing moves at the bank. The plan payout, closure or deletion waiting on it
then goes on at once. 409 MOVEMENT_NOT_AWAITING_OPERATOR for a movement the saga still drives, one
already final or resolved, or a deposit. Audited. Under ADMIN_FOUR_EYES=true: 202 with the pending
approval, applied when a second member approves it.

## adminLedger.disbursements
List plan payouts

Every plan payout (purpose disbursement), newest first, optionally by status (disbursements:read).

## adminLedger.failedJobs
List failed payouts

Payouts that failed after their retries, newest first (jobs:read).

## adminLedger.retryFailedJob
Retry a failed payout

Makes the plan of a failed payout due now (a paused plan resumes with its attempts reset), so the next
due-payout run pays it through the saga: nothing moves here. 409 JOB_RETRY_REFUSED when it is not a
failed plan payout, the instalment was since paid or is being paid, or the plan or customer cannot be
paid. Audited (jobs:retry).
`
