/**
 * Domain failures → HTTP status and message, in one place. Messages are the spec's where it gives
 * one. Each group passes its apiObject.
 */
import type {
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
import { HttpFailure } from "./Envelope.js"

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
  }
}

export const toHttpFailure = (apiObject: string) => (e: DomainError): HttpFailure => {
  const [status, message, error] = statusAndMessage(e)
  return new HttpFailure({ status, apiObject, message, ...(error === undefined ? {} : { error }) })
}

/** Pipe a use case through this to turn its domain failures into envelopes of `apiObject`. */
export const mapDomainErrors = (apiObject: string) => <A, R>(effect: Effect.Effect<A, DomainError, R>) =>
  Effect.mapError(effect, toHttpFailure(apiObject))
