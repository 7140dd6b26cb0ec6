/**
 * Failures of registration, sign-in, one-time codes, passwords and the transaction PIN.
 */
import { Data } from "effect"

export class EmailTaken extends Data.TaggedError("EmailTaken")<{}> {}
export class PhoneTaken extends Data.TaggedError("PhoneTaken")<{}> {}
export class NoEmailOnFile extends Data.TaggedError("NoEmailOnFile")<{}> {}
export class NoPhoneOnFile extends Data.TaggedError("NoPhoneOnFile")<{}> {}
export class InvalidCredentials extends Data.TaggedError("InvalidCredentials")<{}> {}
export class Unauthenticated extends Data.TaggedError("Unauthenticated")<{}> {}
export class InvalidRefreshToken extends Data.TaggedError("InvalidRefreshToken")<{}> {}
export class PasswordReused extends Data.TaggedError("PasswordReused")<{}> {}
export class NoPasswordSet extends Data.TaggedError("NoPasswordSet")<{}> {}

/** A code typed on a verification step: wrong (`incorrect`) or unusable (`invalid`: none, expired, used up). */
export class OtpRejected extends Data.TaggedError("OtpRejected")<{ readonly reason: "incorrect" | "invalid" }> {}

/** A code sent with an OTP-gated operation (otpPinId + otpCode) that does not check out. */
export class OtpGateRejected extends Data.TaggedError("OtpGateRejected")<{}> {}

export class OtpCooldown extends Data.TaggedError("OtpCooldown")<{ readonly retryAfterSeconds: number }> {}

/** A transaction PIN that is not exactly 4 digits; `field` names the input (`pin` or `currentPin`). Never counted as a try. */
export class InvalidPinFormat extends Data.TaggedError("InvalidPinFormat")<{ readonly field: "pin" | "currentPin" }> {}
/** Verifying a PIN before one was set. */
export class PinNotSet extends Data.TaggedError("PinNotSet")<{}> {}
/** Changing a PIN that is set needs the current one. */
export class CurrentPinRequired extends Data.TaggedError("CurrentPinRequired")<{}> {}
/** A wrong PIN (or wrong current PIN); it was counted as a wrong try. */
export class PinIncorrect extends Data.TaggedError("PinIncorrect")<{}> {}
/** PIN tries are locked (after 5 wrong ones) for `retryAfterSeconds` more; no PIN was compared, except the one that locked. */
export class PinLocked extends Data.TaggedError("PinLocked")<{ readonly retryAfterSeconds: number }> {}

/** The identity provider's token (or code) was refused: bad signature, issuer, audience, expiry, or an unverified email. */
export class IdentityRejected extends Data.TaggedError("IdentityRejected")<{
  readonly reason: "invalid_token" | "email_not_verified" | "invalid_code"
}> {}
/** Social sign-in is not configured (OAUTH_* unset); `missing` names what is missing. */
export class SocialSignInNotConfigured extends Data.TaggedError("SocialSignInNotConfigured")<{ readonly missing: string }> {}
/** The identity provider could not be reached (key set or token endpoint). */
export class IdentityProviderUnavailable extends Data.TaggedError("IdentityProviderUnavailable")<{}> {}
/** The account of this email is linked to another identity at the provider. */
export class SocialIdentityMismatch extends Data.TaggedError("SocialIdentityMismatch")<{}> {}
/** The account was deleted: it cannot sign in again. */
export class AccountDeleted extends Data.TaggedError("AccountDeleted")<{}> {}
/** POST /auth/set-password on an account that already has a password. */
export class PasswordAlreadySet extends Data.TaggedError("PasswordAlreadySet")<{}> {}
/** Social sign-in with a staff member's email: staff use the back office, never a customer account. */
export class StaffSignInRefused extends Data.TaggedError("StaffSignInRefused")<{}> {}
/**
 * Customer sign-in is throttled (too many wrong passwords for this account, or from this client
 * address, within the window): refused without checking the password, for `retryAfterSeconds`.
 */
export class SignInThrottled extends Data.TaggedError("SignInThrottled")<{ readonly retryAfterSeconds: number }> {}
/** Too many wrong one-time codes for this account (every purpose together): code checks are locked for `retryAfterSeconds`. */
export class OtpChecksLocked extends Data.TaggedError("OtpChecksLocked")<{ readonly retryAfterSeconds: number }> {}
