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
      .annotate(OpenApi.Summary, "Close the account")
      .annotate(
        OpenApi.Description,
        "Sweeps the whole withdrawable balance (less the NIP fee with VAT; the 4% Extra Cash fee is waived) to the " +
          "plan's withdrawal account, else the default saved beneficiary, through the transfer saga; once it is " +
          "confirmed the core account is frozen, the plan ends and the customer is closed (a pending sweep finishes " +
          "when reconciliation confirms it). A repeated idempotencyKey answers as the first time. 400 account not " +
          "active, a movement in progress, no destination, a failed sweep, or the OTP invalid or expired " +
          "(CLOSE_OTP_INVALID); 401 unauthenticated; 403 suspended; 409 key used for another request."
      )
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
      .annotate(OpenApi.Summary, "Delete the account")
      .annotate(
        OpenApi.Description,
        "Deletes the account: signs out everywhere, erases personal data, frees email, phone and BVN, keeps " +
          "transactions and the KYC record for 5 years (retainUntil) and queues the deletion for review. An account " +
          "with a bank account is closed first when idempotencyKey is sent ({status: 'closing'} until its sweep " +
          "confirms; the same call then answers 'deleted'), else 409 CLOSE_ACCOUNT_FIRST (also data.code). 409 " +
          "ACCOUNT_FROZEN for a suspended account or one frozen at the bank; 400 closing failed; 401 unauthenticated " +
          "or OTP invalid or expired (OTP_INVALID); 500 deletion failed (nothing changed, staff alerted)."
      )
  )
  .prefix("/api/v1/customers")
  .annotate(OpenApi.Title, "Account lifecycle")
{}
