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

/** What saving the plan (create, edit or the OTP-gated edit) can answer. */
const savingFailures = [
  ...BankFailures, AccountNotFound, NoBankAccount, OtpGateRejected, InvalidBankCode, BeneficiaryAccountNotFound,
  AccountNotActive, PayoutInProgress, TooManyAttempts
] as const

export class PlansApi extends HttpApiGroup.make("plans")
  .add(
    HttpApiEndpoint.get("quote", "/plan/quote")
      .setUrlParams(Body({ amountKobo: KoboQuery("amountKobo", MAX_KOBO) }))
      .addSuccess(success("Disbursement", PlanQuoteView))
  )
  .add(
    HttpApiEndpoint.post("upsert", "/plan")
      .setPayload(PlanPayload)
      .addSuccess(success("Disbursement", PlanView, { message: "Disbursement plan saved." }))
      .addError(errors(...savingFailures))
  )
  .add(
    HttpApiEndpoint.patch("patch", "/plan")
      .setPayload(PlanPatchPayload)
      .addSuccess(success("Disbursement", PlanView, { message: "Disbursement plan updated." }))
      .addError(errors(...savingFailures, PlanNotFound))
  )
  .add(
    HttpApiEndpoint.get("get", "/plan")
      .addSuccess(success("Disbursement", PlanView))
      .addError(errors(AccountNotFound, PlanNotFound))
  )
  .add(
    HttpApiEndpoint.get("history", "/history")
      .addSuccess(success("Disbursement", Schema.Array(TransactionView)))
      .addError(errors(AccountNotFound))
  )
  .add(
    HttpApiEndpoint.get("borrowQuote", "/plan/borrow/quote")
      .addSuccess(success("Disbursement", BorrowQuoteView))
      .addError(errors(AccountNotFound, PlanNotFound))
  )
  .add(
    HttpApiEndpoint.post("borrow", "/plan/borrow")
      .setPayload(Body({ idempotencyKey: Uuid }).annotations({ examples: [{ idempotencyKey: Ex.IDEMPOTENCY_KEY }] }))
      .addSuccess(success("Disbursement", PlanMovementView, { message: "Borrow processed." }))
      .addError(errors(
        AccountNotFound, NoBankAccount, IdempotencyConflict, TransferFailed, AccountNotActive, PlanNotFound,
        MovementInFlight, WithdrawalsNotAllowed, BorrowNotEligible
      ))
  )
  .add(
    HttpApiEndpoint.get("extraCashQuote", "/plan/extra-cash/quote")
      .addSuccess(success("Disbursement", ExtraCashQuoteView))
      .addError(errors(...BankFailures, AccountNotFound, PlanNotActive))
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
  )
  // Documented on every plan endpoint, as the plans contract test (test/Plans.test.ts, "OpenAPI")
  // requires, though quote, upsert, history and the Extra Cash endpoints cannot answer 404 today.
  .addError(errors(PlanNotFound))
  .middleware(Authentication)
  .prefix("/api/v1/disbursements")
  .annotate(OpenApi.Title, "Disbursements")
{}
