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
import { AccountView, OtpRequested, SignedIn, TokenPair } from "./Views.js"

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

const EmailBody = Body({ email: Email }).annotations({ examples: [{ email: Ex.EMAIL }] })

const RefreshPayload = Body({ refreshToken: NonEmpty }).annotations({ examples: [{ refreshToken: Ex.REFRESH_TOKEN }] })

/** A verification's answer: the token pair while the account was not yet verified, else nothing. */
const VerifiedTokens = Schema.Struct({
  accessToken: Schema.optionalWith(Schema.String, { exact: true }),
  refreshToken: Schema.optionalWith(Schema.String, { exact: true })
}).annotations({ examples: [{ accessToken: Ex.ACCESS_TOKEN, refreshToken: Ex.REFRESH_TOKEN }, {}] })

/** What sending a code to the account's email can answer. */
export const emailCodeFailures = errors(AccountNotFound, NoEmailOnFile, OtpCooldown)
/** What checking an emailed or texted code can answer. */
const codeCheckFailures = errors(AccountSuspended, AccountNotFound, InvalidCredentials, OtpRejected, OtpChecksLocked)

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
  )
  .add(
    HttpApiEndpoint.post("sendEmailOtp", "/otp/email/send")
      .setPayload(AccountIdBody)
      .addSuccess(success("Auth", NoData, { message: "A verification code has been sent to your email." }))
      .addError(emailCodeFailures)
  )
  .add(
    HttpApiEndpoint.post("verifyEmailOtp", "/otp/email/verify")
      .setPayload(AccountIdPin)
      .addSuccess(success("Auth", VerifiedTokens, { message: "Email verified." }))
      .addError(codeCheckFailures)
  )
  .add(
    HttpApiEndpoint.post("sendPhoneOtp", "/otp/phone/send")
      .setPayload(AccountIdBody)
      .addSuccess(success("Auth", NoData, { message: "A verification code has been sent by SMS." }))
      .addError(errors(AccountNotFound, OtpCooldown, NoPhoneOnFile))
  )
  .add(
    HttpApiEndpoint.post("verifyPhoneOtp", "/otp/phone/verify")
      .setPayload(AccountIdPin)
      .addSuccess(success("Auth", VerifiedTokens, { message: "Phone number verified." }))
      .addError(codeCheckFailures)
  )
  .add(
    HttpApiEndpoint.post("login", "/login")
      .setPayload(LoginPayload)
      .addSuccess(success("Auth", SignedIn, { message: "Signed in." }))
      .addError(errors(AccountSuspended, InvalidCredentials, SignInThrottled))
  )
  .add(
    HttpApiEndpoint.post("refreshToken", "/refresh-token")
      .setPayload(RefreshPayload)
      .addSuccess(success("Auth", TokenPair, { message: "Tokens refreshed." }))
      .addError(errors(AccountSuspended, InvalidRefreshToken))
  )
  .add(
    HttpApiEndpoint.post("token", "/token")
      // A missing token is a 401 here (spec), so the field is optional at the schema level.
      .setPayload(Body({ refreshToken: Schema.optional(Schema.String) }).annotations({ examples: [{ refreshToken: Ex.REFRESH_TOKEN }] }))
      .addSuccess(success("Auth", Schema.Struct({ accessToken: Schema.String }).annotations({ examples: [{ accessToken: Ex.ACCESS_TOKEN }] })))
      .addError(errors(AccountSuspended, InvalidRefreshToken))
  )
  .add(
    HttpApiEndpoint.post("checkEmail", "/check-email")
      .setPayload(EmailBody)
      .addSuccess(success("Auth", NoData, { message: "Email is available." }))
      .addError(errors(EmailTaken))
  )
  .add(
    HttpApiEndpoint.post("forgotPassword", "/forgot-password")
      .setPayload(EmailBody)
      .addSuccess(success("Auth", NoData, { message: "A password reset code has been sent to your email." }))
      .addError(errors(AccountNotFound, OtpCooldown))
  )
  .add(
    HttpApiEndpoint.post("resetPassword", "/reset-password")
      .setPayload(
        Body({ email: Email, code: OtpCode, password: NewPassword })
          .annotations({ examples: [{ email: Ex.EMAIL, code: Ex.OTP_CODE, password: Ex.NEW_PASSWORD }] })
      )
      .addSuccess(success("Auth", NoData, { message: "Password reset. Sign in with your new password." }))
      .addError(errors(OtpChecksLocked, OtpGateRejected, PasswordReused))
  )
  .add(
    HttpApiEndpoint.post("requestOtp", "/otp/request")
      .addSuccess(success("Auth", OtpRequested, { message: "A code has been sent to your email." }))
      .addError(emailCodeFailures)
      .middleware(Authentication)
  )
  .add(
    HttpApiEndpoint.post("setPassword", "/set-password")
      .setPayload(Body({ password: NewPassword }).annotations({ examples: [{ password: Ex.PASSWORD }] }))
      .addSuccess(success("Auth", NoData, { message: "Password set." }))
      .addError(errors(AccountNotFound, PasswordAlreadySet))
      .middleware(Authentication)
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
  )
  .add(
    HttpApiEndpoint.post("setPin", "/pin")
      .setPayload(Body({ pin: PinField, currentPin: Schema.optional(PinField) }).annotations({
        examples: [{ pin: Redacted.make("2580") }, { pin: Redacted.make("2580"), currentPin: Redacted.make("1397") }]
      }))
      .addSuccess(success("Auth", NoData, { message: "Transaction PIN set." }))
      .addError(errors(AccountSuspended, AccountNotFound, CurrentPinRequired, PinIncorrect, PinLocked))
      .middleware(Authentication)
  )
  .add(
    HttpApiEndpoint.post("verifyPin", "/pin/verify")
      .setPayload(Body({ pin: PinField }).annotations({ examples: [{ pin: Redacted.make("2580") }] }))
      .addSuccess(success("Auth", NoData, { message: "PIN correct." }))
      .addError(errors(AccountSuspended, AccountNotFound, PinIncorrect, PinLocked, PinNotSet))
      .middleware(Authentication)
  )
  .add(
    HttpApiEndpoint.post("resetPin", "/pin/reset")
      .setPayload(Body({ pin: PinField, otpPinId: OtpPinId, otpCode: OtpCode }).annotations({
        examples: [{ pin: Redacted.make("2580"), otpPinId: Ex.OTP_PIN_ID, otpCode: Ex.OTP_CODE }]
      }))
      .addSuccess(success("Auth", NoData, { message: "Transaction PIN reset." }))
      .addError(errors(AccountSuspended, AccountNotFound, OtpGateRejected))
      .middleware(Authentication)
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
  )
  .prefix("/api/v1/oauth")
  .annotate(OpenApi.Title, "Social sign-in")
{}
