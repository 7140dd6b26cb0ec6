/** The API reference of beneficiaries: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## beneficiaries.lookup
Look up an account holder's name

Customer (bearer). NIP name enquiry: the holder's name of accountNumber at bankCode, and the
nipSessionId to send with POST /transactions/transfer. Counts against the look-up budget
(NAME_ENQUIRY_MAX_PER_HOUR, 30 an hour by default; past it 429 LOOKUP_THROTTLED). 400 INVALID_BANK_CODE
or BENEFICIARY_ACCOUNT_NOT_FOUND.

## beneficiaries.add
Save a beneficiary

Customer (bearer). Saves a bank account with the name a NIP name enquiry verifies; the customer's first
one becomes the default. The enquiry counts against the look-up budget (429 LOOKUP_THROTTLED). 400
BENEFICIARY_ALREADY_SAVED, BENEFICIARY_ACCOUNT_NOT_FOUND or INVALID_BANK_CODE.

## beneficiaries.list
List saved beneficiaries

Customer (bearer). The saved beneficiaries, the default first, then oldest first.

## beneficiaries.setDefault
Make a beneficiary the default

Customer (bearer). Makes this beneficiary the only default (where closing the account sends the money
when there is no plan). 404 BENEFICIARY_NOT_FOUND for an unknown id or another customer's.

## beneficiaries.remove
Remove a saved beneficiary

Customer (bearer), OTP-gated (otpPinId and otpCode from POST /auth/otp/request). Removes the
beneficiary; when it was the default, the oldest remaining one becomes the default. 401 OTP_INVALID; 404
BENEFICIARY_NOT_FOUND.
`
