/**
 * Failures of BVN verification, opening the bank account and deposits.
 */
import { Failure, validation, ValidationKind } from "../shared/Failure.js"

/** The customer's KYC is past `pending`: a BVN is already verified (400). */
export class BvnAlreadyVerified extends Failure("BvnAlreadyVerified", {
  status: 400,
  code: "BVN_ALREADY_VERIFIED",
  message: "BVN already verified",
  meaning: "This account's BVN is already verified"
}) {}
/** Another customer holds this BVN (400 'BVN already associated with another account'). */
export class BvnTaken extends Failure("BvnTaken", {
  status: 400,
  code: "BVN_TAKEN",
  message: "BVN already associated with another account",
  meaning: "The BVN is verified on another account"
}) {}
/** The BVN registry does not know the number (400). */
export class BvnNotFound extends Failure("BvnNotFound", {
  status: 400,
  code: "BVN_NOT_FOUND",
  message: "BVN not found",
  meaning: "The BVN registry has no such BVN"
}) {}
/** The date of birth given differs from the registry's (400). */
export class BvnDateOfBirthMismatch extends Failure("BvnDateOfBirthMismatch", {
  status: 400,
  code: "BVN_DATE_OF_BIRTH_MISMATCH",
  message: "Date of birth does not match the BVN record",
  meaning: "The date of birth differs from the BVN record"
}) {}
/** The first and last name given do not match the registry's (NameMatch.ts) (400). */
export class BvnNameMismatch extends Failure("BvnNameMismatch", {
  status: 400,
  code: "BVN_NAME_MISMATCH",
  message: "Name does not match the BVN record",
  meaning: "The first and last name differ from the BVN record (case, spacing, accents and order are ignored)"
}) {}
/** Opening a bank account needs customerStatus `verified` (email confirmed, not suspended/closed). */
export class CustomerNotVerified extends Failure("CustomerNotVerified", {
  status: 400,
  code: "CUSTOMER_NOT_VERIFIED",
  message: "Verify your email before opening a bank account",
  meaning: "Verify the email before opening a bank account; `error.customerStatus` gives the state"
})<{
  readonly customerStatus: string
}> {
  override answer() {
    return { ...super.answer(), detail: { customerStatus: this.customerStatus } }
  }
}
/** Opening a bank account needs kycStatus `bvn_verified`. */
export class BvnNotVerified extends Failure("BvnNotVerified", {
  status: 400,
  code: "BVN_NOT_VERIFIED",
  message: "Verify your BVN before opening a bank account",
  meaning: "Verify the BVN before opening a bank account"
}) {}
/** The customer already has a bank account (400). */
export class BankAccountExists extends Failure("BankAccountExists", {
  status: 400,
  code: "BANK_ACCOUNT_EXISTS",
  message: "Bank account already exists",
  meaning: "The customer already has a bank account (`error.accountNumber`)"
})<{ readonly accountNumber: string }> {
  override answer() {
    return { ...super.answer(), detail: { accountNumber: this.accountNumber } }
  }
}
/** The operation needs a bank account and the customer has none (400 'No bank account found'). */
export class NoBankAccount extends Failure("NoBankAccount", {
  status: 400,
  code: "NO_BANK_ACCOUNT",
  message: "No bank account found",
  meaning: "The operation needs a bank account; open one first"
}) {}
/** A provider notification named an account number that belongs to no customer. */
export class UnknownAccountNumber extends Failure("UnknownAccountNumber", {
  status: 400,
  code: "UNKNOWN_ACCOUNT_NUMBER",
  message: "No customer has this account number",
  meaning: "No customer has this account number"
})<{ readonly accountNumber: string }> {}
/** An amount outside what the operation allows (e.g. a test deposit above the maximum). */
export class InvalidAmount extends Failure("InvalidAmount", ValidationKind)<{ readonly reason: string }> {
  override answer() {
    return validation({ amountKobo: [this.reason] })
  }
}
