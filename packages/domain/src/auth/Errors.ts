/**
 * Failures of registration, sign-in, one-time codes and passwords.
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
