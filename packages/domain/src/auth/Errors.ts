/**
 * Failures of registration, sign-in, one-time codes, passwords and the transaction PIN, each with
 * its HTTP status, code, message and meaning (shared/Failure.ts).
 */
import { Failure, validation, ValidationKind } from "../shared/Failure.js"

export class EmailTaken extends Failure("EmailTaken", {
  status: 400,
  code: "EMAIL_TAKEN",
  message: "Email already registered",
  meaning: "The email belongs to another account"
}) {}
export class PhoneTaken extends Failure("PhoneTaken", {
  status: 400,
  code: "PHONE_TAKEN",
  message: "Phone number already registered",
  meaning: "The phone number belongs to another account"
}) {}
export class NoEmailOnFile extends Failure("NoEmailOnFile", {
  status: 400,
  code: "NO_EMAIL_ON_FILE",
  message: "No email on file",
  meaning: "An email code was asked for an account without an email"
}) {}
export class NoPhoneOnFile extends Failure("NoPhoneOnFile", {
  status: 400,
  code: "NO_PHONE_ON_FILE",
  message: "No phone number on file",
  meaning: "A phone code was asked for an account without a phone number"
}) {}

/** Wrong email or password (customer and staff sign-in). */
export const InvalidCredentialsKind = {
  status: 401,
  code: "INVALID_CREDENTIALS",
  message: "Invalid credentials",
  meaning: "Wrong email or password"
} as const
export class InvalidCredentials extends Failure("InvalidCredentials", InvalidCredentialsKind) {}

/** No valid bearer token (customer and staff). */
export const UnauthenticatedKind = {
  status: 401,
  code: "AUTHENTICATION_REQUIRED",
  message: "Authentication required",
  meaning: "No valid bearer token (missing, expired or invalid)"
} as const
export class Unauthenticated extends Failure("Unauthenticated", UnauthenticatedKind) {}

export class InvalidRefreshToken extends Failure("InvalidRefreshToken", {
  status: 401,
  code: "INVALID_REFRESH_TOKEN",
  message: "Invalid or expired refresh token",
  meaning: "The refresh token is unknown, expired, revoked or already used; sign in again"
}) {}
export class PasswordReused extends Failure("PasswordReused", {
  status: 400,
  code: "PASSWORD_REUSED",
  message: "New password must be different from the current password",
  meaning: "The new password equals the current one"
}) {}
export class NoPasswordSet extends Failure("NoPasswordSet", {
  status: 400,
  code: "NO_PASSWORD_SET",
  message: "This account has no password; use social sign-in or set a password first",
  meaning: "The account has no password (social sign-in); set one first"
}) {}

/** A code typed on a verification step: wrong (`incorrect`) or unusable (`invalid`: none, expired, used up). */
export class OtpRejected extends Failure("OtpRejected", {
  status: 400,
  code: "OTP_INCORRECT",
  message: "Incorrect OTP",
  meaning: "The one-time code is wrong"
}, {
  status: 400,
  code: "OTP_EXPIRED",
  message: "OTP expired or invalid",
  meaning: "The one-time code has expired, was used, or was never issued; request a new one"
})<{ readonly reason: "incorrect" | "invalid" }> {
  override answer() {
    const [incorrect, expired] = OtpRejected.kinds
    const kind = this.reason === "incorrect" ? incorrect : expired
    return { code: kind.code, message: kind.message }
  }
}

/** A code sent with an OTP-gated operation (otpPinId + otpCode) that does not check out. */
export class OtpGateRejected extends Failure("OtpGateRejected", {
  status: 401,
  code: "OTP_INVALID",
  message: "Invalid or expired OTP",
  meaning:
    "The otpPinId/otpCode of an OTP-gated operation is invalid, expired or already spent (the first presentation spends a code); request a new one"
}) {}

export class OtpCooldown extends Failure("OtpCooldown", {
  status: 429,
  code: "OTP_COOLDOWN",
  meaning:
    "A code of this kind is still outstanding (60 s), or 5 were sent in 15 minutes; retry after `error.retryAfterSeconds` (also the Retry-After header)"
})<{ readonly retryAfterSeconds: number }> {
  override answer() {
    return {
      ...super.answer(),
      message: `Please wait ${this.retryAfterSeconds} seconds before requesting another code`,
      detail: { retryAfterSeconds: this.retryAfterSeconds }
    }
  }
}

/** A transaction PIN that is not exactly 4 digits; `field` names the input (`pin` or `currentPin`). Never counted as a try. */
export class InvalidPinFormat extends Failure("InvalidPinFormat", ValidationKind)<{ readonly field: "pin" | "currentPin" }> {
  override answer() {
    return validation({ [this.field]: ["PIN must be exactly 4 digits"] })
  }
}
/** Verifying a PIN before one was set. */
export class PinNotSet extends Failure("PinNotSet", {
  status: 400,
  code: "PIN_NOT_SET",
  message: "Set a transaction PIN first",
  meaning: "No transaction PIN is set yet: set one with POST /auth/pin"
}) {}
/** Changing a PIN that is set needs the current one. */
export class CurrentPinRequired extends Failure("CurrentPinRequired", {
  status: 400,
  code: "CURRENT_PIN_REQUIRED",
  message: "currentPin is required to change your PIN",
  meaning: "Changing a PIN needs currentPin"
}) {}
/** A wrong PIN (or wrong current PIN); it was counted as a wrong try. */
export class PinIncorrect extends Failure("PinIncorrect", {
  status: 401,
  code: "PIN_INCORRECT",
  message: "Incorrect PIN",
  meaning: "Wrong PIN (or wrong currentPin); it counts towards the lock"
}) {}
/** PIN tries are locked (after 5 wrong ones) for `retryAfterSeconds` more; no PIN was compared, except the one that locked. */
export class PinLocked extends Failure("PinLocked", {
  status: 423,
  code: "PIN_LOCKED",
  meaning: "5 wrong PINs: tries are locked for 15 minutes (`error.retryAfterSeconds`, Retry-After), even for the right PIN"
})<{ readonly retryAfterSeconds: number }> {
  override answer() {
    return {
      ...super.answer(),
      message: `Too many incorrect PINs. Try again in ${Math.ceil(this.retryAfterSeconds / 60)} minutes`,
      detail: { retryAfterSeconds: this.retryAfterSeconds }
    }
  }
}

/** The identity provider's token (or code) was refused: bad signature, issuer, audience, expiry, or an unverified email. */
export class IdentityRejected extends Failure("IdentityRejected", {
  status: 401,
  code: "SOCIAL_TOKEN_REJECTED",
  meaning:
    "Social sign-in: the identity token (or code) failed verification (signature, issuer, audience, expiry) or its email is not verified"
})<{ readonly reason: "invalid_token" | "email_not_verified" | "invalid_code" }> {
  override answer() {
    return {
      ...super.answer(),
      message: this.reason === "email_not_verified"
        ? "The identity provider has not verified this email"
        : this.reason === "invalid_code"
        ? "The identity provider refused the authorization code"
        : "The identity token was rejected"
    }
  }
}
/** Social sign-in is not configured (OAUTH_* unset); `missing` names what is missing. */
export class SocialSignInNotConfigured extends Failure("SocialSignInNotConfigured", {
  status: 500,
  code: "SOCIAL_SIGN_IN_NOT_CONFIGURED",
  message: "Social sign-in is not configured on this server",
  meaning: "Social sign-in is not configured on this server (OAUTH_* settings)"
})<{ readonly missing: string }> {}
/** The identity provider could not be reached (key set or token endpoint). */
export class IdentityProviderUnavailable extends Failure("IdentityProviderUnavailable", {
  status: 500,
  code: "IDENTITY_PROVIDER_UNAVAILABLE",
  message: "The identity provider cannot be reached; try again later",
  meaning: "The identity provider's key set or token endpoint cannot be reached; retry later"
}) {}
/** The account of this email is linked to another identity at the provider. */
export class SocialIdentityMismatch extends Failure("SocialIdentityMismatch", {
  status: 403,
  code: "SOCIAL_IDENTITY_MISMATCH",
  message: "This account is linked to another identity at the provider",
  meaning: "The account with this email is linked to another identity at the provider"
}) {}
/** The account was deleted: it cannot sign in again. */
export class AccountDeleted extends Failure("AccountDeleted", {
  status: 403,
  code: "ACCOUNT_DELETED",
  message: "This account was deleted",
  meaning: "The account was deleted and cannot sign in"
}) {}
/** POST /auth/set-password on an account that already has a password. */
export class PasswordAlreadySet extends Failure("PasswordAlreadySet", {
  status: 409,
  code: "PASSWORD_ALREADY_SET",
  message: "A password is already set; use change-password",
  meaning: "POST /auth/set-password on an account that has a password; use change-password"
}) {}
/** Social sign-in with a staff member's email: staff use the back office, never a customer account. */
export class StaffSignInRefused extends Failure("StaffSignInRefused", {
  status: 403,
  code: "STAFF_SIGN_IN_REFUSED",
  message: "Staff sign in to the back office",
  meaning: "Social sign-in with a staff member's email: staff use the back office sign-in"
}) {}

/** Too many failed sign-ins (customer and staff): refused without checking the password. */
export const SignInThrottledKind = {
  status: 429,
  code: "SIGN_IN_THROTTLED",
  message: "Too many failed sign-in attempts; try again later",
  meaning: "Too many failed sign-ins: customer sign-in, 5 for one account (or email or phone) or 50 from one client address " +
    "in 15 minutes (SIGN_IN_*); admin sign-in, 5 for one email from one client or 20 from one client in 15 minutes. " +
    "No password is checked until `error.retryAfterSeconds` (also Retry-After) have passed"
} as const
/**
 * Customer sign-in is throttled (too many wrong passwords for this account, or from this client
 * address, within the window): refused without checking the password, for `retryAfterSeconds`.
 */
export class SignInThrottled extends Failure("SignInThrottled", SignInThrottledKind)<{ readonly retryAfterSeconds: number }> {
  override answer() {
    return { ...super.answer(), detail: { retryAfterSeconds: this.retryAfterSeconds } }
  }
}
/** Too many wrong one-time codes for this account (every purpose together): code checks are locked for `retryAfterSeconds`. */
export class OtpChecksLocked extends Failure("OtpChecksLocked", {
  status: 429,
  code: "OTP_LOCKED",
  message: "Too many incorrect codes; try again later",
  meaning: "10 wrong one-time codes for this account within 24 hours (every purpose together): code checks are refused " +
    "until `error.retryAfterSeconds` (also Retry-After) have passed. An OTP-gated operation answers OTP_INVALID instead"
})<{ readonly retryAfterSeconds: number }> {
  override answer() {
    return { ...super.answer(), detail: { retryAfterSeconds: this.retryAfterSeconds } }
  }
}
