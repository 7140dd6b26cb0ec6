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
      .annotate(OpenApi.Summary, "Verify the customer's BVN")
      .annotate(
        OpenApi.Description,
        "The registry's date of birth and first and last name (any case, spacing, accents or order) must match; the profile " +
          "takes the registry's names. 400 BVN not found, date of birth or name mismatch, BVN held by another account (said only " +
          "once everything else matched), already verified. 429 after 3 failed verifications within 24 hours (Retry-After)."
      )
  )
  .prefix("/api/v1/auth")
  .annotate(OpenApi.Title, "KYC")
{}

/** What opening the bank account can answer. */
const openingFailures = errors(...BankFailures, AccountNotFound, BankAccountExists, CustomerNotVerified, BvnNotVerified)
/** What reading the bank account can answer. */
const readingFailures = errors(...BankFailures, AccountNotFound, NoBankAccount)

/** The bank account endpoints; the customers group (account/Api.ts) serves them under /customers. */
export const bankAccountEndpoints = {
  createAccount: HttpApiEndpoint.post("createAccount", "/create-account")
    .addSuccess(success("Customer", CreatedAccount, { status: 201, message: "Bank account created." }))
    .addError(openingFailures)
    .annotate(OpenApi.Summary, "Open the customer's bank account")
    .annotate(
      OpenApi.Description,
      "Customer (bearer), once the email and the BVN are verified. Opens the account at the core banking provider " +
        "and makes the customer active; withdrawals stay blocked (PND) until the first deposit is confirmed. Safe to " +
        "retry after a failure: the same customer always opens the same account. 400 BANK_ACCOUNT_EXISTS " +
        "(error.accountNumber), CUSTOMER_NOT_VERIFIED, BVN_NOT_VERIFIED."
    ),
  createBankAccount: HttpApiEndpoint.post("createBankAccount", "/create-bank-account")
    .addSuccess(success("Customer", CreatedAccount, { status: 201, message: "Bank account created." }))
    .addError(openingFailures)
    .annotate(OpenApi.Summary, "Open the customer's bank account (other path)")
    .annotate(
      OpenApi.Description,
      "The spec's other path of POST /api/v1/customers/create-account: the same operation, rules and answer."
    ),
  balance: HttpApiEndpoint.get("balance", "/balance")
    .addSuccess(success("Customer", BalanceView))
    .addError(readingFailures)
    .annotate(OpenApi.Summary, "Get the live balance")
    .annotate(
      OpenApi.Description,
      "Customer (bearer). The balance at the core banking provider, balanceKobo as a number of kobo. A live poll: " +
        "cache it. 400 NO_BANK_ACCOUNT before the bank account exists."
    ),
  providerTransactions: HttpApiEndpoint.get("providerTransactions", "/transactions")
    .addSuccess(success("Customer", Schema.Array(ProviderTransactionView)))
    .addError(readingFailures)
    .annotate(OpenApi.Summary, "List the bank's own transaction records")
    .annotate(
      OpenApi.Description,
      "Customer (bearer). The account's transactions as the core banking provider reports them (not the service's " +
        "Transaction rows: see GET /api/v1/transactions), amounts as decimal strings of kobo. 400 NO_BANK_ACCOUNT."
    )
}

export const TEST_DEPOSIT_DEFAULT_KOBO = 5_000_000n
export const TEST_DEPOSIT_MAX_KOBO = 10_000_000n

export class DepositsApi extends HttpApiGroup.make("deposits")
  .add(
    HttpApiEndpoint.post("sync", "/deposit/sync")
      .addSuccess(success("Transaction", BalanceView, { message: "Deposits synced." }))
      .addError(errors(...BankFailures, AccountNotFound, NoBankAccount))
      .annotate(OpenApi.Summary, "Sync deposits from the bank")
      .annotate(
        OpenApi.Description,
        "Customer (bearer). Records the inbound transfers the provider has posted to the customer's account and " +
          "answers the live balance (balanceKobo). The first confirmed deposit allows withdrawals from then on and " +
          "makes a referral successful. 400 NO_BANK_ACCOUNT."
      )
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
      .addError(errors(...BankFailures, AccountNotFound, NoBankAccount, TestDepositsDisabled))
      .annotate(OpenApi.Summary, "Credit a test deposit")
      .annotate(
        OpenApi.Description,
        "Customer (bearer); not in production (403 TEST_DEPOSITS_DISABLED). Credits the customer's account with " +
          "amountKobo (default 5000000, at most 10000000; no body means the default) and answers the updated " +
          "balanceKobo. 400 NO_BANK_ACCOUNT."
      )
  )
  .add(
    HttpApiEndpoint.get("depositFee", "/deposit/fee")
      .setUrlParams(Body({ amountKobo: KoboQuery("amountKobo", MAX_QUOTE_KOBO) }))
      .addSuccess(success("Transaction", FeeQuote))
      .annotate(OpenApi.Summary, "Quote the fee of a deposit")
      .annotate(
        OpenApi.Description,
        "Customer (bearer). An estimate of what the customer's own bank may charge to fund the wallet with " +
          "amountKobo: {totalKobo, feeKobo, vatKobo, amountKobo} as decimal strings of kobo. The service charges " +
          "nothing. 400 missing or invalid amountKobo."
      )
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
      .annotate(OpenApi.Summary, "Notify a posted transaction (core banking provider)")
      .annotate(
        OpenApi.Description,
        "Called by the core banking provider, authenticated by its static shared-secret header, not a customer " +
          "token (401 WEBHOOK_UNAUTHORIZED when it is missing or wrong). Acknowledged with 200 at once; the " +
          "customer's deposits are then synced in the background. The body is the provider's notification, taken as " +
          "it comes."
      )
  )
  .prefix("/api/v1/webhooks")
  .annotate(OpenApi.Title, "Webhooks")
{}

export class BanksApi extends HttpApiGroup.make("banks")
  .add(
    HttpApiEndpoint.get("list", "/banks")
      .addSuccess(success("Bank", Schema.Array(BankView)))
      .addError(errors(...BankFailures))
      .annotate(OpenApi.Summary, "List the banks")
      .annotate(
        OpenApi.Description,
        "Public. The banks money can be sent to, as bankCode (e.g. \"058\") and bankName, from the core banking provider's " +
          "list, cached 24 hours."
      )
  )
  .prefix("/api/v1")
  .annotate(OpenApi.Title, "Banks")
{}
