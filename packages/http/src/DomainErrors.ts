/**
 * Domain failures → HTTP status and message, in one place. Messages are the spec's where it gives
 * one. Each group passes its apiObject.
 */
import type {
  AccountNotActive,
  BorrowNotEligible,
  ExtraCashNotAllowed,
  InvalidPlanTerms,
  PayoutInProgress,
  PlanNotActive,
  PlanNotFound,
  IdempotencyConflict,
  InsufficientBalance,
  MovementInFlight,
  TransferFailed,
  WithdrawalsNotAllowed,
  BankAccountExists,
  BeneficiaryAccountNotFound,
  BeneficiaryAlreadySaved,
  BeneficiaryNotFound,
  BvnAlreadyVerified,
  BvnDateOfBirthMismatch,
  BvnNotFound,
  BvnNotVerified,
  BvnTaken,
  CustomerNotVerified,
  InvalidAccountNumber,
  InvalidAmount,
  InvalidBankCode,
  NoBankAccount,
  ProviderMisconfigured,
  ProviderRefused,
  ProviderUnknownOutcome,
  TransactionNotFound,
  UnknownAccountNumber,
  AccountNotFound,
  AccountSuspended,
  EmailTaken,
  InvalidCredentials,
  InvalidRefreshToken,
  NoEmailOnFile,
  NoPasswordSet,
  NoPhoneOnFile,
  OtpCooldown,
  OtpGateRejected,
  OtpRejected,
  PasswordReused,
  PhoneTaken,
  Unauthenticated
} from "@app/domain"
import { Effect } from "effect"
import { HttpFailure, validationFailure } from "./Envelope.js"

export type DomainError =
  | AccountNotFound
  | AccountSuspended
  | EmailTaken
  | InvalidCredentials
  | InvalidRefreshToken
  | NoEmailOnFile
  | NoPasswordSet
  | NoPhoneOnFile
  | OtpCooldown
  | OtpGateRejected
  | OtpRejected
  | PasswordReused
  | PhoneTaken
  | Unauthenticated
  | BankAccountExists
  | BeneficiaryAccountNotFound
  | BeneficiaryAlreadySaved
  | BeneficiaryNotFound
  | BvnAlreadyVerified
  | BvnDateOfBirthMismatch
  | BvnNotFound
  | BvnNotVerified
  | BvnTaken
  | CustomerNotVerified
  | InvalidAccountNumber
  | InvalidAmount
  | InvalidBankCode
  | NoBankAccount
  | TransactionNotFound
  | UnknownAccountNumber
  | ProviderMisconfigured
  | ProviderRefused
  | ProviderUnknownOutcome
  | AccountNotActive
  | IdempotencyConflict
  | InsufficientBalance
  | MovementInFlight
  | TransferFailed
  | WithdrawalsNotAllowed
  | PlanNotFound
  | InvalidPlanTerms
  | PlanNotActive
  | PayoutInProgress
  | BorrowNotEligible
  | ExtraCashNotAllowed

export const Messages = {
  authenticationRequired: "Authentication required",
  accountSuspended: "Account suspended"
} as const

const statusAndMessage = (e: DomainError): [number, string, unknown?] => {
  switch (e._tag) {
    case "EmailTaken":
      return [400, "Email already registered"]
    case "PhoneTaken":
      return [400, "Phone number already registered"]
    case "AccountNotFound":
      return [400, "Account not found"]
    case "NoEmailOnFile":
      return [400, "No email on file"]
    case "NoPhoneOnFile":
      return [400, "No phone number on file"]
    case "OtpRejected":
      return e.reason === "incorrect" ? [400, "Incorrect OTP"] : [400, "OTP expired or invalid"]
    case "OtpGateRejected":
      return [401, "Invalid or expired OTP"]
    case "OtpCooldown":
      return [429, `Please wait ${e.retryAfterSeconds} seconds before requesting another code`, {
        retryAfterSeconds: e.retryAfterSeconds
      }]
    case "InvalidCredentials":
      return [401, "Invalid credentials"]
    case "InvalidRefreshToken":
      return [401, "Invalid or expired refresh token"]
    case "Unauthenticated":
      return [401, Messages.authenticationRequired]
    case "AccountSuspended":
      return [403, Messages.accountSuspended]
    case "PasswordReused":
      return [400, "New password must be different from the current password"]
    case "NoPasswordSet":
      return [400, "This account has no password; use social sign-in or set a password first"]
    case "BvnAlreadyVerified":
      return [400, "BVN already verified"]
    case "BvnTaken":
      return [400, "BVN already associated with another account"]
    case "BvnNotFound":
      return [400, "BVN not found"]
    case "BvnDateOfBirthMismatch":
      return [400, "Date of birth does not match the BVN record"]
    case "CustomerNotVerified":
      return [400, "Verify your email before opening a bank account", { customerStatus: e.customerStatus }]
    case "BvnNotVerified":
      return [400, "Verify your BVN before opening a bank account"]
    case "BankAccountExists":
      return [400, "Bank account already exists", { accountNumber: e.accountNumber }]
    case "NoBankAccount":
      return [400, "No bank account found"]
    case "UnknownAccountNumber":
      return [400, "No customer has this account number"]
    case "InvalidAmount":
      return [400, "Validation error", { fieldErrors: { amountKobo: [e.reason] }, formErrors: [] }]
    case "TransactionNotFound":
      return [404, "Transaction not found"]
    case "InvalidAccountNumber":
      return [400, "Validation error", { fieldErrors: { accountNumber: ["Account number must be exactly 10 digits"] }, formErrors: [] }]
    case "InvalidBankCode":
      return [400, "Invalid bank code", { bankCode: e.bankCode }]
    case "BeneficiaryAccountNotFound":
      return [400, "Account not found at that bank"]
    case "BeneficiaryAlreadySaved":
      return [400, "Beneficiary already saved"]
    case "BeneficiaryNotFound":
      return [404, "Beneficiary not found"]
    case "AccountNotActive":
      return [400, "Your account is not active", { customerStatus: e.customerStatus }]
    case "WithdrawalsNotAllowed":
      return [400, "Withdrawals are allowed after your first deposit is confirmed"]
    case "MovementInFlight":
      return [400, "Another transaction is in progress. Please wait for it to finish."]
    case "InsufficientBalance":
      return [400, "Insufficient balance", {
        requiredKobo: e.requiredKobo.toString(),
        availableKobo: e.availableKobo.toString()
      }]
    case "IdempotencyConflict":
      return [409, "This idempotencyKey was already used for a different request"]
    case "TransferFailed":
      return [400, `Transfer failed: ${e.reason}`, { transactionId: e.transactionId }]
    case "PlanNotFound":
      return [404, "No disbursement plan found"]
    case "InvalidPlanTerms": {
      // exactly what a schema validation failure answers (ErrorMiddleware): fieldErrors by field, formErrors []
      const failure = validationFailure("", e.fieldErrors)
      return [failure.status, failure.message, failure.error]
    }
    case "PlanNotActive":
      return [400, "No active disbursement plan"]
    case "PayoutInProgress":
      return [400, "A payout of your plan is in progress; try again shortly"]
    case "BorrowNotEligible":
      return [400, e.reason]
    case "ExtraCashNotAllowed":
      return [400, e.reason]
    // The provider: the spec's 500 with a descriptive message. An unknown outcome is not a failure
    // of the operation: the client may retry safely (references are deduplicated).
    case "ProviderUnknownOutcome":
      return [500, "The bank did not confirm the request in time. Please try again shortly; it will not be applied twice."]
    case "ProviderRefused":
      return [500, `The bank refused the request: ${e.reason}`, { providerCode: e.code }]
    case "ProviderMisconfigured":
      return [500, "The bank is unavailable right now. Please try again later."]
  }
}

export const toHttpFailure = (apiObject: string) => (e: DomainError): HttpFailure => {
  const [status, message, error] = statusAndMessage(e)
  return new HttpFailure({ status, apiObject, message, ...(error === undefined ? {} : { error }) })
}

/** Provider trouble is for operators to see too, not only the client. */
const logProviderTrouble = (e: DomainError) =>
  e._tag === "ProviderMisconfigured"
    ? Effect.logError("core banking provider misconfigured").pipe(Effect.annotateLogs({ operation: e.operation, detail: e.detail }))
    : e._tag === "ProviderUnknownOutcome"
    ? Effect.logWarning("core banking outcome unknown").pipe(Effect.annotateLogs({ operation: e.operation, detail: e.detail }))
    : e._tag === "ProviderRefused"
    ? Effect.logWarning("core banking refused").pipe(Effect.annotateLogs({ operation: e.operation, code: e.code }))
    : Effect.void

/** Pipe a use case through this to turn its domain failures into envelopes of `apiObject`. */
export const mapDomainErrors = (apiObject: string) => <A, R>(effect: Effect.Effect<A, DomainError, R>) =>
  effect.pipe(Effect.tapError(logProviderTrouble), Effect.mapError(toHttpFailure(apiObject)))
