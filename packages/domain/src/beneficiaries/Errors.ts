/**
 * Failures of saving and using beneficiaries.
 */
import { Data } from "effect"

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
