/** The API reference of plans: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## plans.quote
Quote the fees of a plan payout

Fees of a payout of amountKobo: depositFee estimates what the customer's bank may charge to fund the
wallet (not charged by us); disbursementFee is the NIP fee with VAT debited on top of each payout. 400
missing or invalid amountKobo.

## plans.upsert
Create or edit the disbursement plan

Creates the plan, or edits the open one. It is active once the wallet covers the pot. Changing the open
plan's withdrawal account (number or bank) needs otpPinId and otpCode, as PATCH does. 400 'Validation
error' (fieldErrors; otpPinId/otpCode when a changed withdrawal account comes without them), account not
found at the bank, no bank account, a payout in progress. 401 OTP invalid or expired. 429
LOOKUP_THROTTLED: the withdrawal account's name enquiry counts against the customer's look-up budget
(NAME_ENQUIRY_MAX_PER_HOUR).

## plans.patch
Edit the disbursement plan with a code

Edits the plan behind the OTP gate (a code from POST /auth/otp/request or /customers/otp/request).
totalAmountKobo and durationDays are the whole plan's, instalments already paid included: the rest of
the pot is paid over the cycles left, and fundingNeededKobo says what the wallet lacks for it. 400
validation (also a pot below what is paid, or no cycle left after those paid); 401 OTP invalid or
expired; 404 no plan; 429 LOOKUP_THROTTLED (the withdrawal account's name enquiry counts against the
customer's look-up budget).

## plans.get
Get the disbursement plan

The customer's plan. 404 'No disbursement plan found'.

## plans.history
List the plan's payouts

The plan's payouts (scheduled and Borrow), Transaction rows with purpose disbursement, newest first.

## plans.borrowQuote
Check whether Borrow is available

Whether the next period's payout can be had now, and how much; reason says why not. 404 without a plan.

## plans.borrow
Borrow the next period's payout now

Pays the next period's instalment now (status confirmed or pending). A repeated idempotencyKey returns
the original movement. 400 not eligible (reason) or transfer failure; 404 no plan; 409 key reused for
another request.

## plans.extraCashQuote
Quote the Extra Cash available

The wallet balance, what the plan's remaining payouts and their NIP fees reserve, the largest Extra Cash
withdrawal (its 4% fee and NIP fee included) and the caps used. 400 'No active disbursement plan'.

## plans.extraCash
Withdraw Extra Cash

Withdraws unused vault balance to the plan's withdrawal account; the fees are debited on top. 400
validation, above the maximum, a cap reached, no active plan or transfer failure; 409 key reused for
another request.
`
