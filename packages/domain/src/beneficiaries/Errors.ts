/**
 * Failures of saving and using beneficiaries.
 */
import { Failure, validation, ValidationKind } from "../shared/Failure.js"

/** An account number is exactly 10 digits (NUBAN) (400). */
export class InvalidAccountNumber extends Failure("InvalidAccountNumber", ValidationKind) {
  override answer() {
    return validation({ accountNumber: ["Account number must be exactly 10 digits"] })
  }
}
/** The bank code is not in the bank list (400 'invalid bank code'). */
export class InvalidBankCode extends Failure("InvalidBankCode", {
  status: 400,
  code: "INVALID_BANK_CODE",
  message: "Invalid bank code",
  meaning: "The bank code is not in the bank list (`error.bankCode`)"
})<{ readonly bankCode: string }> {
  override answer() {
    return { ...super.answer(), detail: { bankCode: this.bankCode } }
  }
}
/** Name enquiry found no such account at that bank (400 'account not found'). */
export class BeneficiaryAccountNotFound extends Failure("BeneficiaryAccountNotFound", {
  status: 400,
  code: "BENEFICIARY_ACCOUNT_NOT_FOUND",
  message: "Account not found at that bank",
  meaning: "The bank's name enquiry found no such account"
}) {}
/** The customer already saved this account number at this bank (400). */
export class BeneficiaryAlreadySaved extends Failure("BeneficiaryAlreadySaved", {
  status: 400,
  code: "BENEFICIARY_ALREADY_SAVED",
  message: "Beneficiary already saved",
  meaning: "This account is already a saved beneficiary"
}) {}
/** No such beneficiary, or not this customer's (404). */
export class BeneficiaryNotFound extends Failure("BeneficiaryNotFound", {
  status: 404,
  code: "BENEFICIARY_NOT_FOUND",
  message: "Beneficiary not found",
  meaning: "No beneficiary of the customer has this id"
}) {}
