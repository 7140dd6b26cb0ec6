/**
 * The HTTP contract (HttpApi): every endpoint with its request and response schemas. Handlers live
 * in `handlers/`; they only decode (done here by the schemas), call a use case and encode.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  BanksApi,
  bankAccountEndpoints,
  BeneficiariesApi,
  Body,
  DepositsApi,
  KycApi,
  WebhooksApi
} from "./BankingApi.js"
import { Failures, NoData, success } from "./Envelope.js"
import { Authentication } from "./Security.js"
import { PlansApi, PlanView } from "./PlansApi.js"
import { TransfersApi } from "./TransfersApi.js"
import { TransactionsApi } from "./TransactionsApi.js"
import {
  Address,
  AnyPassword,
  CalendarDate,
  Email,
  GenderField,
  Name,
  NewPassword,
  NonEmpty,
  OtpCode,
  Phone,
  Uuid
} from "./Schemas.js"

export { Authentication, CurrentAccount } from "./Security.js"

// ---------------------------------------------------------------------------------------------
// Auth
// ---------------------------------------------------------------------------------------------

const TokenPair = Schema.Struct({ accessToken: Schema.String, refreshToken: Schema.String })

export const AccountView = Schema.Struct({
  id: Schema.String,
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  otherNames: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  email: Schema.String,
  emailVerified: Schema.Boolean,
  phoneVerified: Schema.Boolean,
  customer: Schema.Struct({ id: Schema.String, customerStatus: Schema.String })
})

const AccountIdPin = Body({ accountId: Uuid, pin: OtpCode })
const AccountId = Body({ accountId: Uuid })

const LoginPayload = Body({
  password: AnyPassword,
  email: Schema.optional(Email),
  phone: Schema.optional(Phone)
}).pipe(
  Schema.filter((p) => p.email !== undefined || p.phone !== undefined || "Provide either email or phone")
)

const RefreshPayload = Body({ refreshToken: NonEmpty })

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
        address: Schema.optional(Address)
      }))
      .addSuccess(success("Auth", AccountView, { status: 201, message: "Account created. Verify your email to continue." }))
  )
  .add(
    HttpApiEndpoint.post("sendEmailOtp", "/otp/email/send")
      .setPayload(AccountId)
      .addSuccess(success("Auth", NoData, { message: "A verification code has been sent to your email." }))
  )
  .add(
    HttpApiEndpoint.post("verifyEmailOtp", "/otp/email/verify")
      .setPayload(AccountIdPin)
      .addSuccess(success("Auth", TokenPair, { message: "Email verified." }))
  )
  .add(
    HttpApiEndpoint.post("sendPhoneOtp", "/otp/phone/send")
      .setPayload(AccountId)
      .addSuccess(success("Auth", NoData, { message: "A verification code has been sent by SMS." }))
  )
  .add(
    HttpApiEndpoint.post("verifyPhoneOtp", "/otp/phone/verify")
      .setPayload(AccountIdPin)
      .addSuccess(success("Auth", TokenPair, { message: "Phone number verified." }))
  )
  .add(
    HttpApiEndpoint.post("login", "/login")
      .setPayload(LoginPayload)
      .addSuccess(success("Auth", TokenPair, { message: "Signed in." }))
  )
  .add(
    HttpApiEndpoint.post("refreshToken", "/refresh-token")
      .setPayload(RefreshPayload)
      .addSuccess(success("Auth", TokenPair, { message: "Tokens refreshed." }))
  )
  .add(
    HttpApiEndpoint.post("token", "/token")
      // A missing token is a 401 here (spec), so the field is optional at the schema level.
      .setPayload(Body({ refreshToken: Schema.optional(Schema.String) }))
      .addSuccess(success("Auth", Schema.Struct({ accessToken: Schema.String })))
  )
  .add(
    HttpApiEndpoint.post("checkEmail", "/check-email")
      .setPayload(Body({ email: Email }))
      .addSuccess(success("Auth", NoData, { message: "Email is available." }))
  )
  .add(
    HttpApiEndpoint.post("forgotPassword", "/forgot-password")
      .setPayload(Body({ email: Email }))
      .addSuccess(success("Auth", NoData, { message: "A password reset code has been sent to your email." }))
  )
  .add(
    HttpApiEndpoint.post("resetPassword", "/reset-password")
      .setPayload(Body({ email: Email, code: OtpCode, password: NewPassword }))
      .addSuccess(success("Auth", NoData, { message: "Password reset. Sign in with your new password." }))
  )
  .add(
    HttpApiEndpoint.post("requestOtp", "/otp/request")
      .addSuccess(success("Auth", Schema.Struct({ pinId: Schema.String }), { message: "A code has been sent to your email." }))
      .middleware(Authentication)
  )
  .add(
    HttpApiEndpoint.post("changePassword", "/change-password")
      .setPayload(Body({
        currentPassword: AnyPassword,
        newPassword: NewPassword,
        otpPinId: Uuid,
        otpCode: OtpCode
      }))
      .addSuccess(success("Auth", NoData, { message: "Password changed." }))
      .middleware(Authentication)
  )
  .prefix("/api/v1/auth")
  .annotate(OpenApi.Title, "Auth")
{}

// ---------------------------------------------------------------------------------------------
// Customers
// ---------------------------------------------------------------------------------------------

export const CustomerProfile = Schema.Struct({
  id: Schema.String,
  customerId: Schema.String,
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  otherNames: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  email: Schema.String,
  emailVerified: Schema.Boolean,
  phoneVerified: Schema.Boolean,
  dateOfBirth: Schema.NullOr(Schema.String),
  gender: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.String),
  customerStatus: Schema.String,
  kycStatus: Schema.String,
  referralCode: Schema.String,
  hasPin: Schema.Boolean,
  notificationSettings: Schema.Struct({ smsEnabled: Schema.Boolean, emailEnabled: Schema.Boolean }),
  createdAt: Schema.String,
  /** present once the bank account exists */
  coreAccountNumber: Schema.optional(Schema.String),
  /** true until the first confirmed deposit: withdrawals are blocked until then */
  pndActive: Schema.optional(Schema.Boolean),
  /** live balance in kobo (a number, as the spec says), under both names the spec uses */
  balance: Schema.optional(Schema.Number),
  balanceKobo: Schema.optional(Schema.Number),
  /** the customer's disbursement plan (the open one, else the latest completed one); null when none */
  disbursementPlan: Schema.NullOr(PlanView)
})

export class CustomersApi extends HttpApiGroup.make("customers")
  .add(
    HttpApiEndpoint.get("me", "/me")
      .addSuccess(success("Customer", CustomerProfile))
  )
  .add(bankAccountEndpoints.createAccount)
  .add(bankAccountEndpoints.createBankAccount)
  .add(bankAccountEndpoints.balance)
  .add(bankAccountEndpoints.providerTransactions)
  .add(
    // the spec's other name of POST /auth/otp/request (same use case, same code)
    HttpApiEndpoint.post("requestOtp", "/otp/request")
      .addSuccess(success("Customer", Schema.Struct({ pinId: Schema.String }), { message: "A code has been sent to your email." }))
      .annotate(OpenApi.Description, "Alias of POST /api/v1/auth/otp/request: a code for an OTP-gated action, emailed; returns its pinId.")
  )
  .middleware(Authentication)
  .prefix("/api/v1/customers")
  .annotate(OpenApi.Title, "Customers")
{}

// ---------------------------------------------------------------------------------------------
// The API
// ---------------------------------------------------------------------------------------------

export class Api extends HttpApi.make("kobo-plans")
  .add(AuthApi)
  .add(KycApi.middleware(Authentication))
  .add(CustomersApi)
  .add(DepositsApi.middleware(Authentication))
  .add(TransfersApi.middleware(Authentication))
  .add(TransactionsApi)
  .add(BanksApi)
  .add(BeneficiariesApi.middleware(Authentication))
  .add(PlansApi)
  .add(WebhooksApi)
  .addError(Failures[400])
  .addError(Failures[401])
  .addError(Failures[403])
  .addError(Failures[404])
  .addError(Failures[409])
  .addError(Failures[429])
  .addError(Failures[500])
  .annotate(OpenApi.Title, "Custodial savings and scheduled disbursement service")
  .annotate(OpenApi.Version, "1.0.0")
{}
