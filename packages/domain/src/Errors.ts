import { Data } from "effect"

/** Domain failures. The HTTP layer maps each to a status and message in one place per group. */
export class EmailTaken extends Data.TaggedError("EmailTaken")<{}> {}
export class PhoneTaken extends Data.TaggedError("PhoneTaken")<{}> {}
export class AccountNotFound extends Data.TaggedError("AccountNotFound")<{}> {}
export class NoEmailOnFile extends Data.TaggedError("NoEmailOnFile")<{}> {}
export class NoPhoneOnFile extends Data.TaggedError("NoPhoneOnFile")<{}> {}
export class InvalidCredentials extends Data.TaggedError("InvalidCredentials")<{}> {}
export class AccountSuspended extends Data.TaggedError("AccountSuspended")<{}> {}
export class Unauthenticated extends Data.TaggedError("Unauthenticated")<{}> {}
export class InvalidRefreshToken extends Data.TaggedError("InvalidRefreshToken")<{}> {}
export class PasswordReused extends Data.TaggedError("PasswordReused")<{}> {}
export class NoPasswordSet extends Data.TaggedError("NoPasswordSet")<{}> {}

/** A code typed on a verification step: wrong (`incorrect`) or unusable (`invalid`: none, expired, used up). */
export class OtpRejected extends Data.TaggedError("OtpRejected")<{ readonly reason: "incorrect" | "invalid" }> {}

/** A code sent with an OTP-gated operation (otpPinId + otpCode) that does not check out. */
export class OtpGateRejected extends Data.TaggedError("OtpGateRejected")<{}> {}

export class OtpCooldown extends Data.TaggedError("OtpCooldown")<{ readonly retryAfterSeconds: number }> {}

// ---------------------------------------------------------------------------------------------
// Core banking: BVN, bank account, deposits
// ---------------------------------------------------------------------------------------------

/** The customer's KYC is past `pending`: a BVN is already verified (400). */
export class BvnAlreadyVerified extends Data.TaggedError("BvnAlreadyVerified")<{}> {}
/** Another customer holds this BVN (400 'BVN already associated with another account'). */
export class BvnTaken extends Data.TaggedError("BvnTaken")<{}> {}
/** The BVN registry does not know the number (400). */
export class BvnNotFound extends Data.TaggedError("BvnNotFound")<{}> {}
/** The date of birth given differs from the registry's (400). */
export class BvnDateOfBirthMismatch extends Data.TaggedError("BvnDateOfBirthMismatch")<{}> {}
/** Opening a bank account needs customerStatus `verified` (email confirmed, not suspended/closed). */
export class CustomerNotVerified extends Data.TaggedError("CustomerNotVerified")<{
  readonly customerStatus: string
}> {}
/** Opening a bank account needs kycStatus `bvn_verified`. */
export class BvnNotVerified extends Data.TaggedError("BvnNotVerified")<{}> {}
/** The customer already has a bank account (400). */
export class BankAccountExists extends Data.TaggedError("BankAccountExists")<{ readonly accountNumber: string }> {}
/** The operation needs a bank account and the customer has none (400 'No bank account found'). */
export class NoBankAccount extends Data.TaggedError("NoBankAccount")<{}> {}
/** A provider notification named an account number that belongs to no customer. */
export class UnknownAccountNumber extends Data.TaggedError("UnknownAccountNumber")<{ readonly accountNumber: string }> {}
/** An amount outside what the operation allows (e.g. a test deposit above the maximum). */
export class InvalidAmount extends Data.TaggedError("InvalidAmount")<{ readonly reason: string }> {}
/** No such transaction, or not this customer's (404). */
export class TransactionNotFound extends Data.TaggedError("TransactionNotFound")<{}> {}

// ---------------------------------------------------------------------------------------------
// Beneficiaries
// ---------------------------------------------------------------------------------------------

/** An account number is exactly 10 digits (NUBAN) (400). */
export class InvalidAccountNumber extends Data.TaggedError("InvalidAccountNumber")<{}> {}
/** The bank code is not in the bank list (400 'invalid bank code'). */
export class InvalidBankCode extends Data.TaggedError("InvalidBankCode")<{ readonly bankCode: string }> {}
/** Name enquiry found no such account at that bank (400 'account not found'). */
export class BeneficiaryAccountNotFound extends Data.TaggedError("BeneficiaryAccountNotFound")<{}> {}
/** The customer already saved this account number at this bank (400). */
export class BeneficiaryAlreadySaved extends Data.TaggedError("BeneficiaryAlreadySaved")<{}> {}
/** No such beneficiary, or not this customer's (404). */
export class BeneficiaryNotFound extends Data.TaggedError("BeneficiaryNotFound")<{}> {}

// ---------------------------------------------------------------------------------------------
// Money movement
// ---------------------------------------------------------------------------------------------

/** Withdrawals need a first confirmed deposit (the customer-facing PND). */
export class WithdrawalsNotAllowed extends Data.TaggedError("WithdrawalsNotAllowed")<{}> {}
/** The customer is not active (closed, or not yet provisioned). */
export class AccountNotActive extends Data.TaggedError("AccountNotActive")<{ readonly customerStatus: string }> {}
/** The wallet cannot cover the amount plus its fee. */
export class InsufficientBalance extends Data.TaggedError("InsufficientBalance")<{
  readonly requiredKobo: bigint
  readonly availableKobo: bigint
}> {}
/** The idempotency key was used before with a different request (409). */
export class IdempotencyConflict extends Data.TaggedError("IdempotencyConflict")<{}> {}
/** The movement ended failed (its debit, if any, reversed). */
export class TransferFailed extends Data.TaggedError("TransferFailed")<{
  readonly transactionId: string
  readonly reason: string
}> {}

// ---------------------------------------------------------------------------------------------
// Disbursement plans, Borrow and Extra Cash
// ---------------------------------------------------------------------------------------------

/** The customer has no disbursement plan (404 'No disbursement plan found'). */
export class PlanNotFound extends Data.TaggedError("PlanNotFound")<{}> {}
/** Plan terms that cannot make a schedule: each entry is a field and why (400 with fieldErrors). */
export class InvalidPlanTerms extends Data.TaggedError("InvalidPlanTerms")<{
  readonly fieldErrors: Readonly<Record<string, ReadonlyArray<string>>>
}> {}
/** The operation needs an active plan (funded, not depleted, paused or completed) (400). */
export class PlanNotActive extends Data.TaggedError("PlanNotActive")<{}> {}
/** A payout of the plan is being processed; the plan cannot change until it settles (400). */
export class PayoutInProgress extends Data.TaggedError("PayoutInProgress")<{}> {}
/** Borrow refused by one of its eligibility rules; `reason` says which (400). */
export class BorrowNotEligible extends Data.TaggedError("BorrowNotEligible")<{ readonly reason: string }> {}
/** Extra Cash refused: above the maximum, or a daily/lifetime cap reached (400). */
export class ExtraCashNotAllowed extends Data.TaggedError("ExtraCashNotAllowed")<{ readonly reason: string }> {}
