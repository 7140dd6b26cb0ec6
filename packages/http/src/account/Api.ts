/** The HTTP contract of the signed-in customer: the profile, the bank account endpoints, OTP requests. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { PlanNotFound } from "@app/domain"
import { emailCodeFailures } from "../auth/Api.js"
import { OtpRequested } from "../auth/Views.js"
import { bankAccountEndpoints } from "../banking/Api.js"
import { errors, success } from "../shared/Envelope.js"
import { Authentication } from "../shared/Security.js"
import { CustomerProfile } from "./Views.js"

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
      .addSuccess(success("Customer", OtpRequested, { message: "A code has been sent to your email." }))
      .addError(emailCodeFailures)
      // not a code it answers: documented because the plans contract test (test/Plans.test.ts,
      // "OpenAPI") requires 404 on this endpoint, the plan edit's OTP request
      .addError(errors(PlanNotFound))
  )
  .middleware(Authentication)
  .prefix("/api/v1/customers")
  .annotate(OpenApi.Title, "Customers")
{}
