/** The HTTP contract of saved beneficiaries and the name enquiry before saving one. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  AccountNotFound, BeneficiaryAccountNotFound, BeneficiaryAlreadySaved, BeneficiaryId, BeneficiaryNotFound, InvalidBankCode,
  OtpGateRejected, TooManyAttempts
} from "@app/domain"
import { Schema } from "effect"
import { BankFailures } from "../shared/ApiErrors.js"
import { errors, NoData, success } from "../shared/Envelope.js"
import * as Ex from "../shared/Examples.js"
import { AccountNumber, BankCode, Body, Name, OtpCode, OtpPinId, UuidOf } from "../shared/Schemas.js"
import { BeneficiaryView, NameEnquiryView } from "./Views.js"

const BeneficiaryIdParam = HttpApiSchema.param("id", UuidOf(BeneficiaryId))

export class BeneficiariesApi extends HttpApiGroup.make("beneficiaries")
  .add(
    HttpApiEndpoint.get("lookup", "/lookup")
      .setUrlParams(Body({ accountNumber: AccountNumber, bankCode: BankCode }))
      .addSuccess(success("Beneficiary", NameEnquiryView))
      .addError(errors(...BankFailures, TooManyAttempts, InvalidBankCode, BeneficiaryAccountNotFound))
      .annotate(OpenApi.Summary, "Look up an account holder's name")
      .annotate(
        OpenApi.Description,
        "Customer (bearer). NIP name enquiry: the holder's name of accountNumber at bankCode, and the nipSessionId " +
          "to send with POST /transactions/transfer. Counts against the look-up budget (NAME_ENQUIRY_MAX_PER_HOUR, 30 " +
          "an hour by default; past it 429 LOOKUP_THROTTLED). 400 INVALID_BANK_CODE or BENEFICIARY_ACCOUNT_NOT_FOUND."
      )
  )
  .add(
    HttpApiEndpoint.post("add", "/")
      .setPayload(Body({ accountNumber: AccountNumber, bankCode: BankCode, bankName: Name }).annotations({
        examples: [{ accountNumber: Ex.ACCOUNT_NUMBER, bankCode: Ex.BANK_CODE, bankName: Ex.BANK_NAME }]
      }))
      .addSuccess(success("Beneficiary", BeneficiaryView, { status: 201, message: "Beneficiary saved." }))
      .addError(errors(
        ...BankFailures, TooManyAttempts, AccountNotFound, InvalidBankCode, BeneficiaryAccountNotFound,
        BeneficiaryAlreadySaved
      ))
      .annotate(OpenApi.Summary, "Save a beneficiary")
      .annotate(
        OpenApi.Description,
        "Customer (bearer). Saves a bank account with the name a NIP name enquiry verifies; the customer's first " +
          "one becomes the default. The enquiry counts against the look-up budget (429 LOOKUP_THROTTLED). 400 " +
          "BENEFICIARY_ALREADY_SAVED, BENEFICIARY_ACCOUNT_NOT_FOUND or INVALID_BANK_CODE."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/")
      .addSuccess(success("Beneficiary", Schema.Array(BeneficiaryView)))
      .addError(errors(AccountNotFound))
      .annotate(OpenApi.Summary, "List saved beneficiaries")
      .annotate(
        OpenApi.Description,
        "Customer (bearer). The saved beneficiaries, the default first, then oldest first."
      )
  )
  .add(
    HttpApiEndpoint.patch("setDefault")`/${BeneficiaryIdParam}/default`
      .addSuccess(success("Beneficiary", BeneficiaryView, { message: "Default beneficiary updated." }))
      .addError(errors(AccountNotFound, BeneficiaryNotFound))
      .annotate(OpenApi.Summary, "Make a beneficiary the default")
      .annotate(
        OpenApi.Description,
        "Customer (bearer). Makes this beneficiary the only default (where closing the account sends the money when " +
          "there is no plan). 404 BENEFICIARY_NOT_FOUND for an unknown id or another customer's."
      )
  )
  .add(
    HttpApiEndpoint.del("remove")`/${BeneficiaryIdParam}`
      .setPayload(Body({ otpPinId: OtpPinId, otpCode: OtpCode }).annotations({ examples: [{ otpPinId: Ex.OTP_PIN_ID, otpCode: Ex.OTP_CODE }] }))
      .addSuccess(success("Beneficiary", NoData, { message: "Beneficiary removed." }))
      .addError(errors(AccountNotFound, OtpGateRejected, BeneficiaryNotFound))
      .annotate(OpenApi.Summary, "Remove a saved beneficiary")
      .annotate(
        OpenApi.Description,
        "Customer (bearer), OTP-gated (otpPinId and otpCode from POST /auth/otp/request). Removes the beneficiary; " +
          "when it was the default, the oldest remaining one becomes the default. 401 OTP_INVALID; 404 " +
          "BENEFICIARY_NOT_FOUND."
      )
  )
  .prefix("/api/v1/beneficiaries")
  .annotate(OpenApi.Title, "Beneficiaries")
{}
