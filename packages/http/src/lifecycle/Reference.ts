/** The API reference of lifecycle: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## lifecycle.closeAccount
Close the account

Sweeps the whole withdrawable balance (less the NIP fee with VAT; the 4% Extra Cash fee is waived) to
the plan's withdrawal account, else the default saved beneficiary, through the transfer saga; once it is
confirmed the core account is frozen, the plan ends and the customer is closed (a pending sweep finishes
when reconciliation confirms it). A repeated idempotencyKey answers as the first time. 400 account not
active, a movement in progress, no destination, a failed sweep, or the OTP invalid or expired
(CLOSE_OTP_INVALID); 401 unauthenticated; 403 suspended; 409 key used for another request.

## lifecycle.deleteAccount
Delete the account

Deletes the account: signs out everywhere, erases personal data, frees email, phone and BVN, keeps
transactions and the KYC record for 5 years (retainUntil) and queues the deletion for review. An account
with a bank account is closed first when idempotencyKey is sent ({status: 'closing'} until its sweep
confirms; the same call then answers 'deleted'), else 409 CLOSE_ACCOUNT_FIRST (also data.code). 409
ACCOUNT_FROZEN for a suspended account or one frozen at the bank; 400 closing failed; 401
unauthenticated or OTP invalid or expired (OTP_INVALID); 500 deletion failed (nothing changed, staff
alerted).
`
