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
  )
  .add(
    HttpApiEndpoint.get("list", "/")
      .addSuccess(success("Beneficiary", Schema.Array(BeneficiaryView)))
      .addError(errors(AccountNotFound))
  )
  .add(
    HttpApiEndpoint.patch("setDefault")`/${BeneficiaryIdParam}/default`
      .addSuccess(success("Beneficiary", BeneficiaryView, { message: "Default beneficiary updated." }))
      .addError(errors(AccountNotFound, BeneficiaryNotFound))
  )
  .add(
    HttpApiEndpoint.del("remove")`/${BeneficiaryIdParam}`
      .setPayload(Body({ otpPinId: OtpPinId, otpCode: OtpCode }).annotations({ examples: [{ otpPinId: Ex.OTP_PIN_ID, otpCode: Ex.OTP_CODE }] }))
      .addSuccess(success("Beneficiary", NoData, { message: "Beneficiary removed." }))
      .addError(errors(AccountNotFound, OtpGateRejected, BeneficiaryNotFound))
  )
  .prefix("/api/v1/beneficiaries")
  .annotate(OpenApi.Title, "Beneficiaries")
{}
