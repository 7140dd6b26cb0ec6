/** The failures of registration, sign-in, tokens, one-time codes and passwords, over HTTP. */
import type {
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
import type { ErrorTable } from "../shared/ErrorTable.js"

export type AuthError =
  | EmailTaken
  | PhoneTaken
  | NoEmailOnFile
  | NoPhoneOnFile
  | OtpRejected
  | OtpGateRejected
  | OtpCooldown
  | InvalidCredentials
  | InvalidRefreshToken
  | Unauthenticated
  | PasswordReused
  | NoPasswordSet

export const authErrors = {
  EmailTaken: () => ({ status: 400, code: "EMAIL_TAKEN", message: "Email already registered" }),
  PhoneTaken: () => ({ status: 400, code: "PHONE_TAKEN", message: "Phone number already registered" }),
  NoEmailOnFile: () => ({ status: 400, code: "NO_EMAIL_ON_FILE", message: "No email on file" }),
  NoPhoneOnFile: () => ({ status: 400, code: "NO_PHONE_ON_FILE", message: "No phone number on file" }),
  OtpRejected: (e) =>
    e.reason === "incorrect"
      ? { status: 400, code: "OTP_INCORRECT", message: "Incorrect OTP" }
      : { status: 400, code: "OTP_EXPIRED", message: "OTP expired or invalid" },
  OtpGateRejected: () => ({ status: 401, code: "OTP_INVALID", message: "Invalid or expired OTP" }),
  OtpCooldown: (e) => ({
    status: 429,
    code: "OTP_COOLDOWN",
    message: `Please wait ${e.retryAfterSeconds} seconds before requesting another code`,
    detail: { retryAfterSeconds: e.retryAfterSeconds }
  }),
  InvalidCredentials: () => ({ status: 401, code: "INVALID_CREDENTIALS", message: "Invalid credentials" }),
  InvalidRefreshToken: () => ({ status: 401, code: "INVALID_REFRESH_TOKEN", message: "Invalid or expired refresh token" }),
  Unauthenticated: () => ({ status: 401, code: "AUTHENTICATION_REQUIRED", message: "Authentication required" }),
  PasswordReused: () => ({ status: 400, code: "PASSWORD_REUSED", message: "New password must be different from the current password" }),
  NoPasswordSet: () => ({
    status: 400,
    code: "NO_PASSWORD_SET",
    message: "This account has no password; use social sign-in or set a password first"
  })
} satisfies ErrorTable<AuthError>
