/** The API reference of transfers: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## transfers.transfer
Send money to a bank account

Customer (bearer). Sends amountKobo (at most ₦10,000,000) by NIP; the NIP fee with VAT is debited on
top. Lifts PND, places a lien, debits, sends, then releases the lien and restores PND; answers status
confirmed or pending (a pending one is reconciled every 5 minutes). idempotencyKey (a UUID per attempt,
reused on retry): the same key returns the original transaction and never debits twice; with another
request, 409 IDEMPOTENCY_CONFLICT. Without nipSessionId (from GET /beneficiaries/lookup) its name
enquiry counts against the look-up budget (429 LOOKUP_THROTTLED). 400 INSUFFICIENT_BALANCE,
WITHDRAWALS_NOT_ALLOWED before the first deposit, MOVEMENT_IN_FLIGHT, TRANSFER_FAILED (reversed).

## transfers.transferFee
Quote the fee of a transfer

Customer (bearer). The NIP fee and VAT a transfer of amountKobo is charged on top: {totalKobo, feeKobo,
vatKobo, amountKobo} as decimal strings of kobo. 400 missing or invalid amountKobo.
`
