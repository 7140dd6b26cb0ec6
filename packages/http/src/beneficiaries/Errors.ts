/** The failures of saving and using beneficiaries, over HTTP. */
import type {
  BeneficiaryAccountNotFound,
  BeneficiaryAlreadySaved,
  BeneficiaryNotFound,
  InvalidAccountNumber,
  InvalidBankCode
} from "@app/domain"
import { type Catalogue, type ErrorTable, validationError } from "../shared/ErrorTable.js"

export type BeneficiaryError =
  | InvalidAccountNumber
  | InvalidBankCode
  | BeneficiaryAccountNotFound
  | BeneficiaryAlreadySaved
  | BeneficiaryNotFound

export const beneficiaryErrors = {
  InvalidAccountNumber: () => validationError({ accountNumber: ["Account number must be exactly 10 digits"] }),
  InvalidBankCode: (e) => ({ status: 400, code: "INVALID_BANK_CODE", message: "Invalid bank code", detail: { bankCode: e.bankCode } }),
  BeneficiaryAccountNotFound: () => ({ status: 400, code: "BENEFICIARY_ACCOUNT_NOT_FOUND", message: "Account not found at that bank" }),
  BeneficiaryAlreadySaved: () => ({ status: 400, code: "BENEFICIARY_ALREADY_SAVED", message: "Beneficiary already saved" }),
  BeneficiaryNotFound: () => ({ status: 404, code: "BENEFICIARY_NOT_FOUND", message: "Beneficiary not found" })
} satisfies ErrorTable<BeneficiaryError>

/** The codes of beneficiaryErrors, with their meaning (published in the catalogue). */
export const beneficiaryCodes = {
  INVALID_BANK_CODE: { status: 400, meaning: "The bank code is not in the bank list (`error.bankCode`)" },
  BENEFICIARY_ACCOUNT_NOT_FOUND: { status: 400, meaning: "The bank's name enquiry found no such account" },
  BENEFICIARY_ALREADY_SAVED: { status: 400, meaning: "This account is already a saved beneficiary" },
  BENEFICIARY_NOT_FOUND: { status: 404, meaning: "No beneficiary of the customer has this id" }
} satisfies Catalogue<typeof beneficiaryErrors>
