/** The failures of KYC, the bank account and deposits, and of the core banking provider, over HTTP. */
import type {
  BankAccountExists,
  BvnAlreadyVerified,
  BvnDateOfBirthMismatch,
  BvnNotFound,
  BvnNotVerified,
  BvnTaken,
  CoreBankingError,
  CustomerNotVerified,
  InvalidAmount,
  NoBankAccount,
  UnknownAccountNumber
} from "@app/domain"
import { type ErrorTable, validationError } from "../shared/ErrorTable.js"

export type BankingError =
  | BvnAlreadyVerified
  | BvnTaken
  | BvnNotFound
  | BvnDateOfBirthMismatch
  | CustomerNotVerified
  | BvnNotVerified
  | BankAccountExists
  | NoBankAccount
  | UnknownAccountNumber
  | InvalidAmount

export const bankingErrors = {
  BvnAlreadyVerified: () => ({ status: 400, code: "BVN_ALREADY_VERIFIED", message: "BVN already verified" }),
  BvnTaken: () => ({ status: 400, code: "BVN_TAKEN", message: "BVN already associated with another account" }),
  BvnNotFound: () => ({ status: 400, code: "BVN_NOT_FOUND", message: "BVN not found" }),
  BvnDateOfBirthMismatch: () => ({
    status: 400,
    code: "BVN_DATE_OF_BIRTH_MISMATCH",
    message: "Date of birth does not match the BVN record"
  }),
  CustomerNotVerified: (e) => ({
    status: 400,
    code: "CUSTOMER_NOT_VERIFIED",
    message: "Verify your email before opening a bank account",
    detail: { customerStatus: e.customerStatus }
  }),
  BvnNotVerified: () => ({ status: 400, code: "BVN_NOT_VERIFIED", message: "Verify your BVN before opening a bank account" }),
  BankAccountExists: (e) => ({
    status: 400,
    code: "BANK_ACCOUNT_EXISTS",
    message: "Bank account already exists",
    detail: { accountNumber: e.accountNumber }
  }),
  NoBankAccount: () => ({ status: 400, code: "NO_BANK_ACCOUNT", message: "No bank account found" }),
  UnknownAccountNumber: () => ({ status: 400, code: "UNKNOWN_ACCOUNT_NUMBER", message: "No customer has this account number" }),
  InvalidAmount: (e) => validationError({ amountKobo: [e.reason] })
} satisfies ErrorTable<BankingError>

/**
 * The provider: the spec's 500 with a descriptive message. An unknown outcome is not a failure of
 * the operation: the client may retry safely (references are deduplicated).
 */
export const providerErrors = {
  ProviderUnknownOutcome: () => ({
    status: 500,
    code: "PROVIDER_UNKNOWN_OUTCOME",
    message: "The bank did not confirm the request in time. Please try again shortly; it will not be applied twice."
  }),
  ProviderRefused: (e) => ({
    status: 500,
    code: "PROVIDER_REFUSED",
    message: `The bank refused the request: ${e.reason}`,
    detail: { providerCode: e.code }
  }),
  ProviderMisconfigured: () => ({
    status: 500,
    code: "PROVIDER_UNAVAILABLE",
    message: "The bank is unavailable right now. Please try again later."
  })
} satisfies ErrorTable<CoreBankingError>
