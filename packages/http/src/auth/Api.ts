/** The HTTP contract of registration, sign-in, tokens, one-time codes and passwords. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  AccountDeleted, AccountId, AccountNotFound, AccountSuspended, CurrentPinRequired, EmailTaken,
  IdentityProviderUnavailable, IdentityRejected, InvalidCredentials, InvalidRefreshToken, NoEmailOnFile,
  NoPasswordSet, NoPhoneOnFile, OtpChecksLocked, OtpCooldown, OtpGateRejected, OtpRejected, PasswordAlreadySet,
  PasswordReused, PhoneTaken, PinIncorrect, PinLocked, PinNotSet, SignInThrottled, SocialIdentityMismatch,
  SocialSignInNotConfigured, StaffSignInRefused
} from "@app/domain"
import { Redacted, Schema } from "effect"
import { errors, NoData, success } from "../shared/Envelope.js"
import * as Ex from "../shared/Examples.js"
import { Address, AnyPassword, Body, CalendarDate, CredentialField, Email, GenderField, Name, NewPassword, NonEmpty, OtpCode, OtpPinId, Phone, ReferralCodeField, UuidOf } from "../shared/Schemas.js"
import { Authentication } from "../shared/Security.js"
import { AccountView, SignedIn, TokenPair } from "./Views.js"

const AccountIdPin = Body({ accountId: UuidOf(AccountId), pin: OtpCode })
  .annotations({ examples: [{ accountId: Ex.ACCOUNT_ID, pin: Ex.OTP_CODE }] })
const AccountIdBody = Body({ accountId: UuidOf(AccountId) }).annotations({ examples: [{ accountId: Ex.ACCOUNT_ID }] })

/** A PIN as sent: its format (4 digits) is the domain's rule, so a malformed PIN is never counted as a try. */
const PinField = Schema.Redacted(Schema.String)

const LoginPayload = Body({
  password: AnyPassword,
  email: Schema.optional(Email),
  phone: Schema.optional(Phone)
}).annotations({
  examples: [{ email: Ex.EMAIL, password: Ex.PASSWORD }, { phone: Ex.PHONE_SENT, password: Ex.PASSWORD }]
}).pipe(
  Schema.filter((p) => p.email !== undefined || p.phone !== undefined || "Provide either email or phone")
)

const RefreshPayload = Body({ refreshToken: NonEmpty }).annotations({ examples: [{ refreshToken: Ex.REFRESH_TOKEN }] })

/** A verification's answer: the token pair while the account was not yet verified, else nothing. */
const VerifiedTokens = Schema.Struct({
  accessToken: Schema.optionalWith(Schema.String, { exact: true }),
  refreshToken: Schema.optionalWith(Schema.String, { exact: true })
}).annotations({ examples: [{ accessToken: Ex.ACCESS_TOKEN, refreshToken: Ex.REFRESH_TOKEN }, {}] })

const VERIFY_DESCRIPTION = "While the account is not yet verified (customerStatus unverified) the answer is " +
  "{accessToken, refreshToken}; once it is, a code verifies and answers {}: a code never signs in an account that was " +
  "already verified. 10 wrong codes within 24 hours for one account (every purpose together) lock its code checks: 429 OTP_LOCKED."

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("register", "/register")
      .setPayload(Body({
        email: Email,
        password: NewPassword,
        firstName: Schema.optional(Name),
        lastName: Schema.optional(Name),
        otherNames: Schema.optional(Name),
        phone: Schema.optional(Phone),
        dateOfBirth: Schema.optional(CalendarDate),
        gender: Schema.optional(GenderField),
        address: Schema.optional(Address),
        referralCode: Schema.optional(ReferralCodeField)
      }).annotations({
        examples: [{
          email: Ex.EMAIL,
          password: Ex.PASSWORD,
          firstName: Ex.FIRST_NAME,
          lastName: Ex.LAST_NAME,
          otherNames: "Adaeze",
          phone: Ex.PHONE_SENT,
          dateOfBirth: Ex.DATE_OF_BIRTH,
          gender: "female",
          address: Ex.ADDRESS,
          referralCode: Ex.REFERRAL_CODE
        }]
      }))
      .addSuccess(success("Auth", AccountView, { status: 201, message: "Account created. Verify your email to continue." }))
      .addError(errors(PhoneTaken, EmailTaken))
      .annotate(OpenApi.Summary, "Register a customer account")
      .annotate(
        OpenApi.Description,
        "Public. Creates an account and its customer (customerStatus unverified) from an email and a password of 8 " +
          "to 128 characters; the other fields are optional, a phone number is Nigerian (+2348031234567 or " +
          "08031234567). A referralCode links the new customer to whoever referred them (unknown code: 400). Then " +
          "send and verify the email code (POST /otp/email/send, /otp/email/verify) to get tokens. 400 PHONE_TAKEN or " +
          "EMAIL_TAKEN."
      )
  )
  .add(
    HttpApiEndpoint.post("sendEmailOtp", "/otp/email/send")
      .setPayload(AccountIdBody)
      .addSuccess(success("Auth", NoData, { message: "A verification code has been sent to your email." }))
      .addError(errors(AccountNotFound, NoEmailOnFile, OtpCooldown))
      .annotate(OpenApi.Summary, "Send the email verification code")
      .annotate(
        OpenApi.Description,
        "Public. Emails a 6-digit code, valid 10 minutes, to the account's email; no code id is returned (verify " +
          "with accountId and the code). 400 NO_EMAIL_ON_FILE; 429 OTP_COOLDOWN while a code is still outstanding (60 " +
          "seconds) or after 5 codes in 15 minutes (Retry-After)."
      )
  )
  .add(
    HttpApiEndpoint.post("verifyEmailOtp", "/otp/email/verify")
      .setPayload(AccountIdPin)
      .addSuccess(success("Auth", VerifiedTokens, { message: "Email verified." }))
      .addError(errors(AccountSuspended, AccountNotFound, InvalidCredentials, OtpRejected, OtpChecksLocked))
      .annotate(OpenApi.Summary, "Verify the email with its code")
      .annotate(OpenApi.Description, VERIFY_DESCRIPTION)
  )
  .add(
    HttpApiEndpoint.post("sendPhoneOtp", "/otp/phone/send")
      .setPayload(AccountIdBody)
      .addSuccess(success("Auth", NoData, { message: "A verification code has been sent by SMS." }))
      .addError(errors(AccountNotFound, OtpCooldown, NoPhoneOnFile))
      .annotate(OpenApi.Summary, "Send the phone verification code")
      .annotate(
        OpenApi.Description,
        "Public. Sends a 6-digit code by SMS to the account's phone number; not part of the required registration " +
          "flow. 400 NO_PHONE_ON_FILE; 429 OTP_COOLDOWN while a code is still outstanding (60 seconds) or after 5 " +
          "codes in 15 minutes (Retry-After)."
      )
  )
  .add(
    HttpApiEndpoint.post("verifyPhoneOtp", "/otp/phone/verify")
      .setPayload(AccountIdPin)
      .addSuccess(success("Auth", VerifiedTokens, { message: "Phone number verified." }))
      .addError(errors(AccountSuspended, AccountNotFound, InvalidCredentials, OtpRejected, OtpChecksLocked))
      .annotate(OpenApi.Summary, "Verify the phone number with its code")
      .annotate(OpenApi.Description, VERIFY_DESCRIPTION)
  )
  .add(
    HttpApiEndpoint.post("login", "/login")
      .setPayload(LoginPayload)
      .addSuccess(success("Auth", SignedIn, { message: "Signed in." }))
      .addError(errors(AccountSuspended, InvalidCredentials, SignInThrottled))
      .annotate(OpenApi.Summary, "Sign in with email or phone and password")
      .annotate(
        OpenApi.Description,
        "Throttled before any password is checked: 5 failures for one account (or an email or phone with no account) or 50 " +
          "from one client address within 15 minutes (SIGN_IN_* settings) answer 429 SIGN_IN_THROTTLED with Retry-After."
      )
  )
  .add(
    HttpApiEndpoint.post("refreshToken", "/refresh-token")
      .setPayload(RefreshPayload)
      .addSuccess(success("Auth", TokenPair, { message: "Tokens refreshed." }))
      .addError(errors(AccountSuspended, InvalidRefreshToken))
      .annotate(OpenApi.Summary, "Exchange a refresh token for a new token pair")
      .annotate(
        OpenApi.Description,
        "Public. A new access token (valid 15 minutes) and refresh token; the refresh token sent is spent (single " +
          "use: sending it again answers 401 INVALID_REFRESH_TOKEN). Also sets the app_token cookie. 403 " +
          "ACCOUNT_SUSPENDED for a suspended account."
      )
  )
  .add(
    HttpApiEndpoint.post("token", "/token")
      // A missing token is a 401 here (spec), so the field is optional at the schema level.
      .setPayload(Body({ refreshToken: Schema.optional(Schema.String) }).annotations({ examples: [{ refreshToken: Ex.REFRESH_TOKEN }] }))
      .addSuccess(success("Auth", Schema.Struct({ accessToken: Schema.String }).annotations({ examples: [{ accessToken: Ex.ACCESS_TOKEN }] })))
      .addError(errors(AccountSuspended, InvalidRefreshToken))
      .annotate(OpenApi.Summary, "Exchange a refresh token for an access token")
      .annotate(
        OpenApi.Description,
        "Public. A new access token only (valid 15 minutes); the refresh token is not rotated. 401 " +
          "INVALID_REFRESH_TOKEN when it is missing, unknown, expired, revoked or already used."
      )
  )
  .add(
    HttpApiEndpoint.post("checkEmail", "/check-email")
      .setPayload(Body({ email: Email }).annotations({ examples: [{ email: Ex.EMAIL }] }))
      .addSuccess(success("Auth", NoData, { message: "Email is available." }))
      .addError(errors(EmailTaken))
      .annotate(OpenApi.Summary, "Check that an email is free to register")
      .annotate(OpenApi.Description, "Public. 200 when no account has this email, 400 EMAIL_TAKEN when one has.")
  )
  .add(
    HttpApiEndpoint.post("forgotPassword", "/forgot-password")
      .setPayload(Body({ email: Email }).annotations({ examples: [{ email: Ex.EMAIL }] }))
      .addSuccess(success("Auth", NoData, { message: "A password reset code has been sent to your email." }))
      .addError(errors(AccountNotFound, OtpCooldown))
      .annotate(OpenApi.Summary, "Send a password reset code")
      .annotate(
        OpenApi.Description,
        "Public. Emails a 6-digit reset code (valid 10 minutes) to the account with this email; send it to POST " +
          "/reset-password. 400 ACCOUNT_NOT_FOUND for an unknown email; 429 OTP_COOLDOWN while a code is still " +
          "outstanding (60 seconds) or after 5 codes in 15 minutes (Retry-After)."
      )
  )
  .add(
    HttpApiEndpoint.post("resetPassword", "/reset-password")
      .setPayload(
        Body({ email: Email, code: OtpCode, password: NewPassword })
          .annotations({ examples: [{ email: Ex.EMAIL, code: Ex.OTP_CODE, password: Ex.NEW_PASSWORD }] })
      )
      .addSuccess(success("Auth", NoData, { message: "Password reset. Sign in with your new password." }))
      .addError(errors(OtpChecksLocked, OtpGateRejected, PasswordReused))
      .annotate(OpenApi.Summary, "Reset the password with the emailed code")
      .annotate(
        OpenApi.Description,
        "Public. Sets a new password (8 to 128 characters) with the code from POST /forgot-password. 401 " +
          "OTP_INVALID when the code is wrong, expired or spent; 400 PASSWORD_REUSED when it is the current password; " +
          "429 OTP_LOCKED after 10 wrong codes within 24 hours."
      )
  )
  .add(
    HttpApiEndpoint.post("requestOtp", "/otp/request")
      .addSuccess(success("Auth", Schema.Struct({ pinId: Schema.String }).annotations({ examples: [{ pinId: Ex.OTP_PIN_ID }] }), {
        message: "A code has been sent to your email."
      }))
      .addError(errors(AccountNotFound, NoEmailOnFile, OtpCooldown))
      .middleware(Authentication)
      .annotate(OpenApi.Summary, "Request a code for an OTP-gated action")
      .annotate(
        OpenApi.Description,
        "Customer (bearer). Emails a 6-digit code to the registered email and returns its pinId: send both, as " +
          "otpPinId and otpCode, to an OTP-gated operation (change password, PIN reset, beneficiary removal, plan " +
          "PATCH, close account, delete account). 400 NO_EMAIL_ON_FILE; 429 OTP_COOLDOWN while a code is still " +
          "outstanding (60 seconds) or after 5 codes in 15 minutes."
      )
  )
  .add(
    HttpApiEndpoint.post("setPassword", "/set-password")
      .setPayload(Body({ password: NewPassword }).annotations({ examples: [{ password: Ex.PASSWORD }] }))
      .addSuccess(success("Auth", NoData, { message: "Password set." }))
      .addError(errors(AccountNotFound, PasswordAlreadySet))
      .middleware(Authentication)
      .annotate(OpenApi.Summary, "Set a first password")
      .annotate(OpenApi.Description, "A first password for an account created by social sign-in (409 when one is set).")
  )
  .add(
    HttpApiEndpoint.post("changePassword", "/change-password")
      .setPayload(Body({
        currentPassword: AnyPassword,
        newPassword: NewPassword,
        otpPinId: OtpPinId,
        otpCode: OtpCode
      }).annotations({
        examples: [{ currentPassword: Ex.PASSWORD, newPassword: Ex.NEW_PASSWORD, otpPinId: Ex.OTP_PIN_ID, otpCode: Ex.OTP_CODE }]
      }))
      .addSuccess(success("Auth", NoData, { message: "Password changed." }))
      .addError(errors(AccountNotFound, InvalidCredentials, OtpGateRejected, PasswordReused, NoPasswordSet))
      .middleware(Authentication)
      .annotate(OpenApi.Summary, "Change the password")
      .annotate(
        OpenApi.Description,
        "Customer (bearer), OTP-gated (otpPinId and otpCode from POST /otp/request). Checks the current password " +
          "and sets a new one of 8 to 128 characters. 401 INVALID_CREDENTIALS (wrong current password) or " +
          "OTP_INVALID; 400 PASSWORD_REUSED, or NO_PASSWORD_SET for an account made by social sign-in (use POST " +
          "/set-password)."
      )
  )
  .add(
    HttpApiEndpoint.post("setPin", "/pin")
      .setPayload(Body({ pin: PinField, currentPin: Schema.optional(PinField) }).annotations({
        examples: [{ pin: Redacted.make("2580") }, { pin: Redacted.make("2580"), currentPin: Redacted.make("1397") }]
      }))
      .addSuccess(success("Auth", NoData, { message: "Transaction PIN set." }))
      .addError(errors(AccountSuspended, AccountNotFound, CurrentPinRequired, PinIncorrect, PinLocked))
      .middleware(Authentication)
      .annotate(OpenApi.Summary, "Set or change the transaction PIN")
      .annotate(
        OpenApi.Description,
        "Customer (bearer). Sets the 4-digit transaction PIN; changing one already set needs currentPin (400 " +
          "CURRENT_PIN_REQUIRED without it, 401 PIN_INCORRECT when wrong). Wrong PINs count towards the lock: 5 lock " +
          "tries for 15 minutes (423 PIN_LOCKED); 3 lockouts within 24 hours freeze the account for staff to review."
      )
  )
  .add(
    HttpApiEndpoint.post("verifyPin", "/pin/verify")
      .setPayload(Body({ pin: PinField }).annotations({ examples: [{ pin: Redacted.make("2580") }] }))
      .addSuccess(success("Auth", NoData, { message: "PIN correct." }))
      .addError(errors(AccountSuspended, AccountNotFound, PinIncorrect, PinLocked, PinNotSet))
      .middleware(Authentication)
      .annotate(OpenApi.Summary, "Check the transaction PIN")
      .annotate(
        OpenApi.Description,
        "Customer (bearer). Checks the 4-digit transaction PIN before a sensitive action. 401 PIN_INCORRECT; 5 " +
          "wrong PINs lock tries for 15 minutes (423 PIN_LOCKED, even for the right PIN); 3 lockouts within 24 hours " +
          "freeze the account for staff to review. 400 PIN_NOT_SET before a PIN is set."
      )
  )
  .add(
    HttpApiEndpoint.post("resetPin", "/pin/reset")
      .setPayload(Body({ pin: PinField, otpPinId: OtpPinId, otpCode: OtpCode }).annotations({
        examples: [{ pin: Redacted.make("2580"), otpPinId: Ex.OTP_PIN_ID, otpCode: Ex.OTP_CODE }]
      }))
      .addSuccess(success("Auth", NoData, { message: "Transaction PIN reset." }))
      .addError(errors(AccountSuspended, AccountNotFound, OtpGateRejected))
      .middleware(Authentication)
      .annotate(OpenApi.Summary, "Reset the transaction PIN with a code")
      .annotate(
        OpenApi.Description,
        "Customer (bearer), OTP-gated: sets a new 4-digit transaction PIN without the current one, with otpPinId " +
          "and otpCode from POST /otp/request. 401 OTP_INVALID when the code is wrong, expired or spent."
      )
  )
  .prefix("/api/v1/auth")
  .annotate(OpenApi.Title, "Auth")
{}

const SocialSignInPayload = Body({
  idToken: Schema.optional(CredentialField),
  code: Schema.optional(CredentialField),
  referralCode: Schema.optional(ReferralCodeField)
}).annotations({
  examples: [
    { idToken: "eyJhbGciOiJSUzI1NiIsImtpZCI6IjFmNDEifQ.eyJlbWFpbCI6ImNoaWFtYWthLm9rYWZvckBleGFtcGxlLmNvbSJ9.c2lnbmF0dXJl" },
    { code: "4/0AeaYSHBq2Xn7Vt9rXw2LmE8pZk4YbN7cJd", referralCode: Ex.REFERRAL_CODE }
  ]
}).pipe(
  Schema.filter((p) =>
    p.idToken === undefined && p.code === undefined
      ? "Provide idToken (mobile) or code (web)"
      : p.idToken !== undefined && p.code !== undefined
      ? "Provide idToken or code, not both"
      : true
  )
)

/** Social sign-in (the spec's path carries the provider's name in the source; a neutral word here). */
export class OAuthApi extends HttpApiGroup.make("oauth")
  .add(
    HttpApiEndpoint.post("socialSignIn", "/social-sign-in")
      .setPayload(SocialSignInPayload)
      .addSuccess(success("Auth", SignedIn, { message: "Signed in." }))
      .addError(errors(
        AccountSuspended, PhoneTaken, IdentityRejected, StaffSignInRefused, AccountDeleted, SocialIdentityMismatch,
        SocialSignInNotConfigured, IdentityProviderUnavailable
      ))
      .annotate(OpenApi.Summary, "Sign in with the identity provider")
      .annotate(
        OpenApi.Description,
        "Signs in with the identity provider: `idToken` from a mobile app or `code` from the web. A new email creates a " +
          "verified customer without a password (`referralCode` applied); an existing one signs in. hasPin false: send the " +
          "user to set a PIN first. Also sets the app_token cookie."
      )
  )
  .prefix("/api/v1/oauth")
  .annotate(OpenApi.Title, "Social sign-in")
{}
