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
  Unauthenticated,
  InvalidPinFormat,
  PinNotSet,
  CurrentPinRequired,
  PinIncorrect,
  PinLocked,
  IdentityRejected,
  SocialSignInNotConfigured,
  IdentityProviderUnavailable,
  SocialIdentityMismatch,
  AccountDeleted,
  PasswordAlreadySet,
  StaffSignInRefused,
  SignInThrottled,
  OtpChecksLocked
} from "@app/domain"
import { type Catalogue, type ErrorTable, validationError } from "../shared/ErrorTable.js"

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
  | InvalidPinFormat
  | PinNotSet
  | CurrentPinRequired
  | PinIncorrect
  | PinLocked
  | IdentityRejected
  | SocialSignInNotConfigured
  | IdentityProviderUnavailable
  | SocialIdentityMismatch
  | AccountDeleted
  | PasswordAlreadySet
  | StaffSignInRefused
  | SignInThrottled
  | OtpChecksLocked

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
  }),
  InvalidPinFormat: (e) => validationError({ [e.field]: ["PIN must be exactly 4 digits"] }),
  PinNotSet: () => ({ status: 400, code: "PIN_NOT_SET", message: "Set a transaction PIN first" }),
  CurrentPinRequired: () => ({ status: 400, code: "CURRENT_PIN_REQUIRED", message: "currentPin is required to change your PIN" }),
  PinIncorrect: () => ({ status: 401, code: "PIN_INCORRECT", message: "Incorrect PIN" }),
  PinLocked: (e) => ({
    status: 423,
    code: "PIN_LOCKED",
    message: `Too many incorrect PINs. Try again in ${Math.ceil(e.retryAfterSeconds / 60)} minutes`,
    detail: { retryAfterSeconds: e.retryAfterSeconds }
  }),
  IdentityRejected: (e) => ({
    status: 401,
    code: "SOCIAL_TOKEN_REJECTED",
    message: e.reason === "email_not_verified"
      ? "The identity provider has not verified this email"
      : e.reason === "invalid_code"
      ? "The identity provider refused the authorization code"
      : "The identity token was rejected"
  }),
  SocialSignInNotConfigured: () => ({
    status: 500,
    code: "SOCIAL_SIGN_IN_NOT_CONFIGURED",
    message: "Social sign-in is not configured on this server"
  }),
  IdentityProviderUnavailable: () => ({
    status: 500,
    code: "IDENTITY_PROVIDER_UNAVAILABLE",
    message: "The identity provider cannot be reached; try again later"
  }),
  SocialIdentityMismatch: () => ({
    status: 403,
    code: "SOCIAL_IDENTITY_MISMATCH",
    message: "This account is linked to another identity at the provider"
  }),
  AccountDeleted: () => ({ status: 403, code: "ACCOUNT_DELETED", message: "This account was deleted" }),
  StaffSignInRefused: () => ({ status: 403, code: "STAFF_SIGN_IN_REFUSED", message: "Staff sign in to the back office" }),
  PasswordAlreadySet: () => ({
    status: 409,
    code: "PASSWORD_ALREADY_SET",
    message: "A password is already set; use change-password"
  }),
  SignInThrottled: (e) => ({
    status: 429,
    code: "SIGN_IN_THROTTLED",
    message: "Too many failed sign-in attempts; try again later",
    detail: { retryAfterSeconds: e.retryAfterSeconds }
  }),
  OtpChecksLocked: (e) => ({
    status: 429,
    code: "OTP_LOCKED",
    message: "Too many incorrect codes; try again later",
    detail: { retryAfterSeconds: e.retryAfterSeconds }
  })
} satisfies ErrorTable<AuthError>

/** The codes of authErrors, with their meaning (published in the catalogue). */
export const authCodes = {
  EMAIL_TAKEN: { status: 400, meaning: "The email belongs to another account" },
  PHONE_TAKEN: { status: 400, meaning: "The phone number belongs to another account" },
  NO_EMAIL_ON_FILE: { status: 400, meaning: "An email code was asked for an account without an email" },
  NO_PHONE_ON_FILE: { status: 400, meaning: "A phone code was asked for an account without a phone number" },
  OTP_INCORRECT: { status: 400, meaning: "The one-time code is wrong" },
  OTP_EXPIRED: { status: 400, meaning: "The one-time code has expired, was used, or was never issued; request a new one" },
  OTP_INVALID: { status: 401, meaning: "The otpPinId/otpCode of an OTP-gated operation is invalid, expired or already spent (the first presentation spends a code); request a new one" },
  OTP_COOLDOWN: { status: 429, meaning: "A code of this kind is still outstanding (60 s), or 5 were sent in 15 minutes; retry after `error.retryAfterSeconds` (also the Retry-After header)" },
  INVALID_CREDENTIALS: { status: 401, meaning: "Wrong email or password" },
  INVALID_REFRESH_TOKEN: { status: 401, meaning: "The refresh token is unknown, expired, revoked or already used; sign in again" },
  AUTHENTICATION_REQUIRED: { status: 401, meaning: "No valid bearer token (missing, expired or invalid)" },
  PASSWORD_REUSED: { status: 400, meaning: "The new password equals the current one" },
  PIN_NOT_SET: { status: 400, meaning: "No transaction PIN is set yet: set one with POST /auth/pin" },
  CURRENT_PIN_REQUIRED: { status: 400, meaning: "Changing a PIN needs currentPin" },
  PIN_INCORRECT: { status: 401, meaning: "Wrong PIN (or wrong currentPin); it counts towards the lock" },
  PIN_LOCKED: { status: 423, meaning: "5 wrong PINs: tries are locked for 15 minutes (`error.retryAfterSeconds`, Retry-After), even for the right PIN" },
  NO_PASSWORD_SET: { status: 400, meaning: "The account has no password (social sign-in); set one first" },
  SOCIAL_TOKEN_REJECTED: {
    status: 401,
    meaning: "Social sign-in: the identity token (or code) failed verification (signature, issuer, audience, expiry) or its email is not verified"
  },
  SOCIAL_SIGN_IN_NOT_CONFIGURED: { status: 500, meaning: "Social sign-in is not configured on this server (OAUTH_* settings)" },
  IDENTITY_PROVIDER_UNAVAILABLE: { status: 500, meaning: "The identity provider's key set or token endpoint cannot be reached; retry later" },
  SOCIAL_IDENTITY_MISMATCH: { status: 403, meaning: "The account with this email is linked to another identity at the provider" },
  ACCOUNT_DELETED: { status: 403, meaning: "The account was deleted and cannot sign in" },
  STAFF_SIGN_IN_REFUSED: { status: 403, meaning: "Social sign-in with a staff member's email: staff use the back office sign-in" },
  PASSWORD_ALREADY_SET: { status: 409, meaning: "POST /auth/set-password on an account that has a password; use change-password" },
  SIGN_IN_THROTTLED: {
    status: 429,
    meaning: "Too many failed sign-ins: customer sign-in, 5 for one account (or email or phone) or 50 from one client address " +
      "in 15 minutes (SIGN_IN_*); admin sign-in, 5 for one email from one client or 20 from one client in 15 minutes. " +
      "No password is checked until `error.retryAfterSeconds` (also Retry-After) have passed"
  },
  OTP_LOCKED: {
    status: 429,
    meaning: "10 wrong one-time codes for this account within 24 hours (every purpose together): code checks are refused " +
      "until `error.retryAfterSeconds` (also Retry-After) have passed. An OTP-gated operation answers OTP_INVALID instead"
  }
} satisfies Catalogue<typeof authErrors>
