/** The failures of KYC, the bank account and deposits, and of the core banking provider, over HTTP. */
import type {
  BankAccountExists,
  BvnAlreadyVerified,
  BvnDateOfBirthMismatch,
  BvnNameMismatch,
  BvnNotFound,
  BvnNotVerified,
  BvnTaken,
  CoreBankingError,
  CustomerNotVerified,
  InvalidAmount,
  NoBankAccount,
  TooManyAttempts,
  UnknownAccountNumber
} from "@app/domain"
import { type Catalogue, type CodeInfo, type ErrorTable, validationError } from "../shared/ErrorTable.js"

export type BankingError =
  | BvnAlreadyVerified
  | BvnTaken
  | BvnNotFound
  | BvnDateOfBirthMismatch
  | BvnNameMismatch
  | TooManyAttempts
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
  BvnNameMismatch: () => ({ status: 400, code: "BVN_NAME_MISMATCH", message: "Name does not match the BVN record" }),
  TooManyAttempts: (e) =>
    e.kind === "bvn_verification_failure"
      ? {
        status: 429,
        code: "BVN_VERIFICATION_THROTTLED",
        message: `Too many failed BVN verifications. Please try again in ${e.retryAfterSeconds} seconds or contact support`,
        detail: { retryAfterSeconds: e.retryAfterSeconds }
      }
      : {
        status: 429,
        code: "LOOKUP_THROTTLED",
        message: `Too many account look-ups. Please try again in ${e.retryAfterSeconds} seconds`,
        detail: { retryAfterSeconds: e.retryAfterSeconds }
      },
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

/** The codes of bankingErrors, with their meaning (published in the catalogue). */
export const bankingCodes = {
  BVN_ALREADY_VERIFIED: { status: 400, meaning: "This account's BVN is already verified" },
  BVN_TAKEN: { status: 400, meaning: "The BVN is verified on another account" },
  BVN_NOT_FOUND: { status: 400, meaning: "The BVN registry has no such BVN" },
  BVN_DATE_OF_BIRTH_MISMATCH: { status: 400, meaning: "The date of birth differs from the BVN record" },
  BVN_NAME_MISMATCH: {
    status: 400,
    meaning: "The first and last name differ from the BVN record (case, spacing, accents and order are ignored)"
  },
  BVN_VERIFICATION_THROTTLED: {
    status: 429,
    meaning: "3 failed BVN verifications within 24 hours: refused until 24 hours after the third (`error.retryAfterSeconds`, Retry-After)"
  },
  LOOKUP_THROTTLED: {
    status: 429,
    meaning: "Too many account name look-ups in the window: retry after `error.retryAfterSeconds` (also Retry-After)"
  },
  CUSTOMER_NOT_VERIFIED: { status: 400, meaning: "Verify the email before opening a bank account; `error.customerStatus` gives the state" },
  BVN_NOT_VERIFIED: { status: 400, meaning: "Verify the BVN before opening a bank account" },
  BANK_ACCOUNT_EXISTS: { status: 400, meaning: "The customer already has a bank account (`error.accountNumber`)" },
  NO_BANK_ACCOUNT: { status: 400, meaning: "The operation needs a bank account; open one first" },
  UNKNOWN_ACCOUNT_NUMBER: { status: 400, meaning: "No customer has this account number" }
} satisfies Catalogue<typeof bankingErrors>

/** The codes of providerErrors, with their meaning (published in the catalogue). */
export const providerCodes = {
  PROVIDER_UNKNOWN_OUTCOME: { status: 500, meaning: "The bank gave no answer in time; retrying is safe (never applied twice)" },
  PROVIDER_REFUSED: { status: 500, meaning: "The bank refused the request (`error.providerCode`)" },
  PROVIDER_UNAVAILABLE: { status: 500, meaning: "The bank cannot be used right now; retry later" }
} satisfies Catalogue<typeof providerErrors>

/** Failures the banking handlers answer themselves. */
export const bankingHandlerCodes = {
  TEST_DEPOSITS_DISABLED: { status: 403, meaning: "The test deposit endpoint is disabled in production" },
  WEBHOOK_UNAUTHORIZED: { status: 401, meaning: "The webhook call lacks the shared secret header, or it is wrong" }
} as const satisfies Record<string, CodeInfo>
