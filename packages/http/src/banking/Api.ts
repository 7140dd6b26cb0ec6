/**
 * The HTTP contract of KYC, the customer's bank account (served in the customers group), deposits,
 * banks and the core banking webhook.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  AccountNotFound, BankAccountExists, BvnAlreadyVerified, BvnDateOfBirthMismatch, BvnNameMismatch, BvnNotFound,
  BvnNotVerified, BvnTaken, CustomerNotVerified, NoBankAccount, PhoneTaken, TooManyAttempts
} from "@app/domain"
import { Schema } from "effect"
import { BankFailures } from "../shared/ApiErrors.js"
import { errors, NoData, success } from "../shared/Envelope.js"
import * as Ex from "../shared/Examples.js"
import { TestDepositsDisabled, WebhookUnauthorized } from "./Errors.js"
import { Address, Body, CalendarDate, GenderField, KoboJson, KoboQuery, msg, Name, Phone } from "../shared/Schemas.js"
import { FeeQuote } from "../transfers/Views.js"
import { BalanceView, BankView, CreatedAccount, ProviderTransactionView } from "./Views.js"

/** The largest amount a fee quote or test input accepts: ₦10bn. */
const MAX_QUOTE_KOBO = 1_000_000_000_000n

export const Bvn = Schema.String.pipe(Schema.pattern(/^\d{11}$/, msg("BVN must be exactly 11 digits")))

export class KycApi extends HttpApiGroup.make("kyc")
  .add(
    HttpApiEndpoint.post("verifyBvn", "/verify-bvn")
      .setPayload(Body({
        bvn: Bvn,
        firstName: Name,
        lastName: Name,
        phone: Phone,
        address: Address,
        gender: GenderField,
        dateOfBirth: CalendarDate
      }).annotations({
        examples: [{
          bvn: "22345678901",
          firstName: Ex.FIRST_NAME,
          lastName: Ex.LAST_NAME,
          phone: Ex.PHONE_SENT,
          address: Ex.ADDRESS,
          gender: "female",
          dateOfBirth: Ex.DATE_OF_BIRTH
        }]
      }))
      .addSuccess(success("Auth", Schema.Struct({ firstName: Schema.String, lastName: Schema.String, phone: Schema.String }).annotations({
        examples: [{ firstName: "CHIAMAKA", lastName: "OKAFOR", phone: Ex.PHONE }]
      }), {
        message: "BVN verified."
      }))
      .addError(errors(
        ...BankFailures, BvnAlreadyVerified, BvnNotFound, BvnDateOfBirthMismatch, BvnNameMismatch, BvnTaken,
        PhoneTaken, TooManyAttempts, AccountNotFound
      ))
  )
  .prefix("/api/v1/auth")
  .annotate(OpenApi.Title, "KYC")
{}

/** What opening the bank account can answer. */
const openingFailures = errors(...BankFailures, AccountNotFound, BankAccountExists, CustomerNotVerified, BvnNotVerified)
/** What any use of the customer's bank account at the bank can answer. */
const bankAccountFailures = [...BankFailures, AccountNotFound, NoBankAccount] as const
/** What reading the bank account (its balance, its transactions, its deposits) can answer. */
const readingFailures = errors(...bankAccountFailures)

/** The bank account endpoints; the customers group (account/Api.ts) serves them under /customers. */
export const bankAccountEndpoints = {
  createAccount: HttpApiEndpoint.post("createAccount", "/create-account")
    .addSuccess(success("Customer", CreatedAccount, { status: 201, message: "Bank account created." }))
    .addError(openingFailures),
  createBankAccount: HttpApiEndpoint.post("createBankAccount", "/create-bank-account")
    .addSuccess(success("Customer", CreatedAccount, { status: 201, message: "Bank account created." }))
    .addError(openingFailures),
  balance: HttpApiEndpoint.get("balance", "/balance")
    .addSuccess(success("Customer", BalanceView))
    .addError(readingFailures),
  providerTransactions: HttpApiEndpoint.get("providerTransactions", "/transactions")
    .addSuccess(success("Customer", Schema.Array(ProviderTransactionView)))
    .addError(readingFailures)
}

export const TEST_DEPOSIT_DEFAULT_KOBO = 5_000_000n
export const TEST_DEPOSIT_MAX_KOBO = 10_000_000n

export class DepositsApi extends HttpApiGroup.make("deposits")
  .add(
    HttpApiEndpoint.post("sync", "/deposit/sync")
      .addSuccess(success("Transaction", BalanceView, { message: "Deposits synced." }))
      .addError(readingFailures)
  )
  .add(
    HttpApiEndpoint.post("testDeposit", "/deposit/test")
      // the whole body is optional: no body means the default amount
      .setPayload(Schema.NullOr(Body({
        amountKobo: Schema.optional(
          KoboJson("amountKobo", MAX_QUOTE_KOBO).pipe(
            Schema.filter((k) => k <= TEST_DEPOSIT_MAX_KOBO || `amountKobo must be at most ${TEST_DEPOSIT_MAX_KOBO}`)
          )
        )
      }).annotations({ examples: [{ amountKobo: TEST_DEPOSIT_DEFAULT_KOBO }] })))
      .addSuccess(success("Transaction", BalanceView, { message: "Test deposit credited." }))
      .addError(errors(...bankAccountFailures, TestDepositsDisabled))
  )
  .add(
    HttpApiEndpoint.get("depositFee", "/deposit/fee")
      .setUrlParams(Body({ amountKobo: KoboQuery("amountKobo", MAX_QUOTE_KOBO) }))
      .addSuccess(success("Transaction", FeeQuote))
  )
  .prefix("/api/v1/transactions")
  .annotate(OpenApi.Title, "Deposits")
{}

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("coreBanking", "/core-banking")
      .setPayload(Schema.Unknown)
      .addSuccess(success("Webhook", NoData, { message: "Acknowledged." }))
      .addError(errors(WebhookUnauthorized))
  )
  .prefix("/api/v1/webhooks")
  .annotate(OpenApi.Title, "Webhooks")
{}

export class BanksApi extends HttpApiGroup.make("banks")
  .add(
    HttpApiEndpoint.get("list", "/banks")
      .addSuccess(success("Bank", Schema.Array(BankView)))
      .addError(errors(...BankFailures))
  )
  .prefix("/api/v1")
  .annotate(OpenApi.Title, "Banks")
{}
