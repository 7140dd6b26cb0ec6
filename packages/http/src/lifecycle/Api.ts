/** The HTTP contract of closing and deleting an account. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  AccountFrozen, AccountNotActive, AccountNotFound, CloseAccountFirst, DeletionFailed, IdempotencyConflict,
  KoboString, NoBankAccount, NoClosureDestination, OtpGateRejected, TransferFailed
} from "@app/domain"
import { Schema } from "effect"
import { BankFailures } from "../shared/ApiErrors.js"
import { errors, success } from "../shared/Envelope.js"
import * as Ex from "../shared/Examples.js"
import { CloseOtpRejected, TransactionInProgress } from "./Errors.js"
import { Body, NonEmpty, OtpCode, OtpPinId } from "../shared/Schemas.js"
import { Authentication, AuthenticationAllowingSuspended } from "../shared/Security.js"

export const ClosureView = Schema.Struct({
  status: Schema.Literal("confirmed", "pending"),
  amountWithdrawnKobo: KoboString
}).annotations({ examples: [{ status: "confirmed", amountWithdrawnKobo: 2_989_250n }] })

export const DeletionView = Schema.Union(
  Schema.Struct({ status: Schema.Literal("deleted"), retainUntil: Schema.Date })
    .annotations({ examples: [{ status: "deleted", retainUntil: new Date("2031-11-28T09:45:00.000Z") }] }),
  Schema.Struct({ status: Schema.Literal("closing") }).annotations({ examples: [{ status: "closing" }] })
)

export class LifecycleApi extends HttpApiGroup.make("lifecycle")
  .add(
    HttpApiEndpoint.post("closeAccount", "/close-account")
      .setPayload(Body({ idempotencyKey: NonEmpty, otpPinId: OtpPinId, otpCode: OtpCode }).annotations({
        examples: [{ idempotencyKey: Ex.IDEMPOTENCY_KEY, otpPinId: Ex.OTP_PIN_ID, otpCode: Ex.OTP_CODE }]
      }))
      .addSuccess(success("Customer", ClosureView, { message: "Account closure processed." }))
      .addError(errors(
        ...BankFailures, AccountNotFound, NoBankAccount, IdempotencyConflict, TransferFailed, AccountNotActive,
        NoClosureDestination, CloseOtpRejected, TransactionInProgress
      ))
      .middleware(Authentication)
  )
  .add(
    HttpApiEndpoint.post("deleteAccount", "/delete-account")
      .setPayload(Body({
        otpPinId: OtpPinId,
        otpCode: OtpCode,
        via: Schema.optional(Schema.Literal("mobile", "web")),
        idempotencyKey: Schema.optional(NonEmpty)
      }).annotations({
        examples: [{ otpPinId: Ex.OTP_PIN_ID, otpCode: Ex.OTP_CODE, via: "mobile", idempotencyKey: Ex.IDEMPOTENCY_KEY }]
      }))
      .addSuccess(success("Customer", DeletionView, { message: "Account deletion processed." }))
      .addError(errors(
        ...BankFailures, AccountNotFound, NoBankAccount, OtpGateRejected, IdempotencyConflict, TransferFailed,
        AccountNotActive, NoClosureDestination, TransactionInProgress, DeletionFailed, AccountFrozen,
        CloseAccountFirst
      ))
      // a suspended customer passes authentication here: the use case answers 409 ACCOUNT_FROZEN
      .middleware(AuthenticationAllowingSuspended)
  )
  .prefix("/api/v1/customers")
  .annotate(OpenApi.Title, "Account lifecycle")
{}
