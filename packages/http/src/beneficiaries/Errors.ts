/** The failures of saving and using beneficiaries, over HTTP. */
import type {
  BeneficiaryAccountNotFound,
  BeneficiaryAlreadySaved,
  BeneficiaryNotFound,
  InvalidAccountNumber,
  InvalidBankCode
} from "@app/domain"
import { type ErrorTable, validationError } from "../shared/ErrorTable.js"

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
