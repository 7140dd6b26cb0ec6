/**
 * The HTTP contract of disbursement plans: the fee quote, the plan (create or edit, the OTP-gated
 * edit, read), its payout history, Borrow and Extra Cash. Every endpoint needs the bearer token and
 * answers with apiObject "Disbursement". Kobo amounts are decimal strings, as in the other contracts.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  AccountNotActive, AccountNotFound, BeneficiaryAccountNotFound, BorrowNotEligible, ExtraCashNotAllowed,
  IdempotencyConflict, InvalidBankCode, MovementInFlight, NoBankAccount, OtpGateRejected, PayoutInProgress,
  PlanFrequency, PlanNotActive, PlanNotFound, PlanWeekDay, TooManyAttempts, TransferFailed, WithdrawalsNotAllowed
} from "@app/domain"
import { Schema } from "effect"
import { BankFailures } from "../shared/ApiErrors.js"
import { errors, success } from "../shared/Envelope.js"
import * as Ex from "../shared/Examples.js"
import { AccountNumber, BankCode, Body, KoboJson, KoboQuery, Name, OtpCode, OtpPinId, Uuid, msg } from "../shared/Schemas.js"
import { Authentication } from "../shared/Security.js"
import { TransactionView } from "../transactions/Views.js"
import { BorrowQuoteView, ExtraCashQuoteView, PlanMovementView, PlanQuoteView, PlanView } from "./Views.js"

/**
 * The ceiling of amounts the schemas accept (₦10bn). The effective plan limits are app settings
 * (`plans.limits`), checked by the domain with their own messages; Extra Cash is capped by its quote.
 */
const MAX_KOBO = 1_000_000_000_000n

/** One of `values`, with one message for a wrong value (rather than one per literal). */
const oneOf = <const V extends string>(field: string, values: ReadonlyArray<V>) => {
  const message = `${field} must be one of: ${values.join(", ")}`
  return Schema.String.annotations(msg(message)).pipe(
    Schema.filter((s): s is V => (values as ReadonlyArray<string>).includes(s), {
      ...msg(message),
      jsonSchema: { enum: [...values] }
    })
  )
}

const Frequency = oneOf("frequency", PlanFrequency.literals)
const WeekDay = oneOf("weekDay", PlanWeekDay.literals)

const DurationDays = Schema.Number.annotations(msg("durationDays must be a whole number of days")).pipe(
  Schema.int(msg("durationDays must be a whole number of days")),
  Schema.greaterThanOrEqualTo(1, msg("durationDays must be at least 1"))
)

/** Free text the domain checks (HH:MM, IANA zone), bounded here. */
const ShortText = (field: string, max: number) =>
  Schema.String.annotations(msg(`${field} must be a string`)).pipe(
    Schema.minLength(1, msg(`${field} must not be empty`)),
    Schema.maxLength(max, msg(`${field} must be at most ${max} characters`))
  )

/** An optional field; null (as the plan object shows it) counts as absent. */
const optional = <A, I, R>(schema: Schema.Schema<A, I, R>) => Schema.optionalWith(schema, { nullable: true, exact: true })

const planFields = {
  totalAmountKobo: KoboJson("totalAmountKobo", MAX_KOBO).annotations({ description: "the whole pot, integer kobo" }),
  durationDays: DurationDays.annotations({ description: "total plan length in days" }),
  frequency: Frequency,
  weekDay: optional(WeekDay.annotations({ description: "required when frequency is weekly; ignored otherwise" })),
  withdrawalAccountNumber: AccountNumber,
  withdrawalBankCode: BankCode,
  withdrawalAccountName: optional(Name.annotations({ description: "default: the name from NIP name enquiry" })),
  scheduledTime: optional(ShortText("scheduledTime", 5).annotations({ description: "HH:MM on a 24-hour clock (default 09:00)" })),
  scheduledTimezone: optional(ShortText("scheduledTimezone", 64).annotations({ description: "IANA zone (default UTC)" }))
}

/** Examples: ₦180,000 over 90 days paid monthly (₦60,000 a month), ₦60,000 over 12 weeks paid on Fridays. */
const MONTHLY_PLAN = {
  totalAmountKobo: 18_000_000n,
  durationDays: 90,
  frequency: "monthly",
  withdrawalAccountNumber: Ex.ACCOUNT_NUMBER,
  withdrawalBankCode: Ex.BANK_CODE,
  withdrawalAccountName: "Chiamaka Okafor",
  scheduledTime: "09:00",
  scheduledTimezone: "Africa/Lagos"
} as const
const WEEKLY_PLAN = { ...MONTHLY_PLAN, totalAmountKobo: 6_000_000n, durationDays: 84, frequency: "weekly", weekDay: "friday" } as const

/** POST: the plan's fields, and the OTP when an existing plan's withdrawal account changes. */
export const PlanPayload = Body({
  ...planFields,
  otpPinId: optional(OtpPinId.annotations({ description: "required (with otpCode) to change an existing plan's withdrawal account" })),
  otpCode: optional(OtpCode.annotations({ description: "required (with otpPinId) to change an existing plan's withdrawal account" }))
}).annotations({ examples: [MONTHLY_PLAN, { ...WEEKLY_PLAN, otpPinId: Ex.OTP_PIN_ID, otpCode: Ex.OTP_CODE }] })
export const PlanPatchPayload = Body({ ...planFields, otpPinId: OtpPinId, otpCode: OtpCode })
  .annotations({ examples: [{ ...MONTHLY_PLAN, otpPinId: Ex.OTP_PIN_ID, otpCode: Ex.OTP_CODE }] })

export class PlansApi extends HttpApiGroup.make("plans")
  .add(
    HttpApiEndpoint.get("quote", "/plan/quote")
      .setUrlParams(Body({ amountKobo: KoboQuery("amountKobo", MAX_KOBO) }))
      .addSuccess(success("Disbursement", PlanQuoteView))
      .annotate(OpenApi.Summary, "Quote the fees of a plan payout")
      .annotate(
        OpenApi.Description,
        "Fees of a payout of amountKobo: depositFee estimates what the customer's bank may charge to fund the wallet " +
          "(not charged by us); disbursementFee is the NIP fee with VAT debited on top of each payout. 400 missing or invalid amountKobo."
      )
  )
  .add(
    HttpApiEndpoint.post("upsert", "/plan")
      .setPayload(PlanPayload)
      .addSuccess(success("Disbursement", PlanView, { message: "Disbursement plan saved." }))
      .addError(errors(
        ...BankFailures, AccountNotFound, NoBankAccount, OtpGateRejected, InvalidBankCode, BeneficiaryAccountNotFound,
        AccountNotActive, PayoutInProgress, TooManyAttempts
      ))
      .annotate(OpenApi.Summary, "Create or edit the disbursement plan")
      .annotate(
        OpenApi.Description,
        "Creates the plan, or edits the open one. It is active once the wallet covers the pot. Changing the open plan's " +
          "withdrawal account (number or bank) needs otpPinId and otpCode, as PATCH does. 400 'Validation error' " +
          "(fieldErrors; otpPinId/otpCode when a changed withdrawal account comes without them), account not found at the " +
          "bank, no bank account, a payout in progress. 401 OTP invalid or expired. 429 LOOKUP_THROTTLED: the withdrawal " +
          "account's name enquiry counts against the customer's look-up budget (NAME_ENQUIRY_MAX_PER_HOUR)."
      )
  )
  .add(
    HttpApiEndpoint.patch("patch", "/plan")
      .setPayload(PlanPatchPayload)
      .addSuccess(success("Disbursement", PlanView, { message: "Disbursement plan updated." }))
      .addError(errors(
        ...BankFailures, AccountNotFound, NoBankAccount, OtpGateRejected, InvalidBankCode, BeneficiaryAccountNotFound,
        AccountNotActive, PayoutInProgress, TooManyAttempts, PlanNotFound
      ))
      .annotate(OpenApi.Summary, "Edit the disbursement plan with a code")
      .annotate(
        OpenApi.Description,
        "Edits the plan behind the OTP gate (a code from POST /auth/otp/request or /customers/otp/request). " +
          "totalAmountKobo and durationDays are the whole plan's, instalments already paid included: the rest of the pot " +
          "is paid over the cycles left, and fundingNeededKobo says what the wallet lacks for it. " +
          "400 validation (also a pot below what is paid, or no cycle left after those paid); 401 OTP invalid or expired; 404 no plan; " +
          "429 LOOKUP_THROTTLED (the withdrawal account's name enquiry counts against the customer's look-up budget)."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/plan")
      .addSuccess(success("Disbursement", PlanView))
      .addError(errors(AccountNotFound, PlanNotFound))
      .annotate(OpenApi.Summary, "Get the disbursement plan")
      .annotate(OpenApi.Description, "The customer's plan. 404 'No disbursement plan found'.")
  )
  .add(
    HttpApiEndpoint.get("history", "/history")
      .addSuccess(success("Disbursement", Schema.Array(TransactionView)))
      .addError(errors(AccountNotFound))
      .annotate(OpenApi.Summary, "List the plan's payouts")
      .annotate(OpenApi.Description, "The plan's payouts (scheduled and Borrow), Transaction rows with purpose disbursement, newest first.")
  )
  .add(
    HttpApiEndpoint.get("borrowQuote", "/plan/borrow/quote")
      .addSuccess(success("Disbursement", BorrowQuoteView))
      .addError(errors(AccountNotFound, PlanNotFound))
      .annotate(OpenApi.Summary, "Check whether Borrow is available")
      .annotate(
        OpenApi.Description,
        "Whether the next period's payout can be had now, and how much; reason says why not. 404 without a plan."
      )
  )
  .add(
    HttpApiEndpoint.post("borrow", "/plan/borrow")
      .setPayload(Body({ idempotencyKey: Uuid }).annotations({ examples: [{ idempotencyKey: Ex.IDEMPOTENCY_KEY }] }))
      .addSuccess(success("Disbursement", PlanMovementView, { message: "Borrow processed." }))
      .addError(errors(
        AccountNotFound, NoBankAccount, IdempotencyConflict, TransferFailed, AccountNotActive, PlanNotFound,
        MovementInFlight, WithdrawalsNotAllowed, BorrowNotEligible
      ))
      .annotate(OpenApi.Summary, "Borrow the next period's payout now")
      .annotate(
        OpenApi.Description,
        "Pays the next period's instalment now (status confirmed or pending). A repeated idempotencyKey returns the " +
          "original movement. 400 not eligible (reason) or transfer failure; 404 no plan; 409 key reused for another request."
      )
  )
  .add(
    HttpApiEndpoint.get("extraCashQuote", "/plan/extra-cash/quote")
      .addSuccess(success("Disbursement", ExtraCashQuoteView))
      .addError(errors(...BankFailures, AccountNotFound, PlanNotActive))
      .annotate(OpenApi.Summary, "Quote the Extra Cash available")
      .annotate(
        OpenApi.Description,
        "The wallet balance, what the plan's remaining payouts and their NIP fees reserve, the largest Extra Cash " +
          "withdrawal (its 4% fee and NIP fee included) and the caps used. 400 'No active disbursement plan'."
      )
  )
  .add(
    HttpApiEndpoint.post("extraCash", "/plan/extra-cash")
      .setPayload(
        Body({ amountKobo: KoboJson("amountKobo", MAX_KOBO), idempotencyKey: Uuid })
          .annotations({ examples: [{ amountKobo: 1_500_000n, idempotencyKey: Ex.IDEMPOTENCY_KEY }] })
      )
      .addSuccess(success("Disbursement", PlanMovementView, { message: "Extra Cash processed." }))
      .addError(errors(
        ...BankFailures, AccountNotFound, NoBankAccount, IdempotencyConflict, TransferFailed, AccountNotActive,
        MovementInFlight, WithdrawalsNotAllowed, PlanNotActive, ExtraCashNotAllowed
      ))
      .annotate(OpenApi.Summary, "Withdraw Extra Cash")
      .annotate(
        OpenApi.Description,
        "Withdraws unused vault balance to the plan's withdrawal account; the fees are debited on top. 400 validation, " +
          "above the maximum, a cap reached, no active plan or transfer failure; 409 key reused for another request."
      )
  )
  // Documented on every plan endpoint, as the plans contract test (test/Plans.test.ts, "OpenAPI")
  // requires, though quote, upsert, history and the Extra Cash endpoints cannot answer 404 today.
  .addError(errors(PlanNotFound))
  .middleware(Authentication)
  .prefix("/api/v1/disbursements")
  .annotate(OpenApi.Title, "Disbursements")
{}
