/**
 * The HTTP contract of KYC, the customer's bank account, deposits, banks, beneficiaries and the
 * core banking webhook.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { KoboString } from "@app/domain"
import { Schema } from "effect"
import { NoData, success } from "./Envelope.js"
import { Address, Body, CalendarDate, GenderField, KoboJson, KoboQuery, msg, Name, OtpCode, Phone, Uuid } from "./Schemas.js"

export { Body } from "./Schemas.js"

/** The largest amount a fee quote or test input accepts: ₦10bn. */
const MAX_QUOTE_KOBO = 1_000_000_000_000n
const KoboOut = KoboString


export const Bvn = Schema.String.pipe(Schema.pattern(/^\d{11}$/, msg("BVN must be exactly 11 digits")))
export const AccountNumber = Schema.String.pipe(
  Schema.pattern(/^\d{10}$/, msg("Account number must be exactly 10 digits"))
)
export const BankCode = Schema.String.pipe(Schema.pattern(/^\d{3,6}$/, msg("Bank code must be 3 to 6 digits")))

// ---------------------------------------------------------------------------------------------

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
      }))
      .addSuccess(success("Auth", Schema.Struct({ firstName: Schema.String, lastName: Schema.String, phone: Schema.String }), {
        message: "BVN verified."
      }))
  )
  .prefix("/api/v1/auth")
  .annotate(OpenApi.Title, "KYC")
{}

const CreatedAccount = Schema.Struct({ accountNumber: Schema.String, bankAccountNumber: Schema.String })

export const ProviderTransactionView = Schema.Struct({
  reference: Schema.String,
  type: Schema.Literal("credit", "debit"),
  amountKobo: KoboOut,
  amount: KoboOut,
  narration: Schema.String,
  channel: Schema.String,
  postedAt: Schema.String,
  counterpartyName: Schema.NullOr(Schema.String),
  counterpartyAccountNumber: Schema.NullOr(Schema.String),
  counterpartyBankCode: Schema.NullOr(Schema.String)
})

export const BalanceView = Schema.Struct({ balanceKobo: Schema.Number })

export const bankAccountEndpoints = {
  createAccount: HttpApiEndpoint.post("createAccount", "/create-account")
    .addSuccess(success("Customer", CreatedAccount, { status: 201, message: "Bank account created." })),
  createBankAccount: HttpApiEndpoint.post("createBankAccount", "/create-bank-account")
    .addSuccess(success("Customer", CreatedAccount, { status: 201, message: "Bank account created." })),
  balance: HttpApiEndpoint.get("balance", "/balance").addSuccess(success("Customer", BalanceView)),
  providerTransactions: HttpApiEndpoint.get("providerTransactions", "/transactions")
    .addSuccess(success("Customer", Schema.Array(ProviderTransactionView)))
}

const FeeQuote = Schema.Struct({ totalKobo: KoboOut, feeKobo: KoboOut, vatKobo: KoboOut, amountKobo: KoboOut })

export const TEST_DEPOSIT_DEFAULT_KOBO = 5_000_000n
export const TEST_DEPOSIT_MAX_KOBO = 10_000_000n

export class DepositsApi extends HttpApiGroup.make("deposits")
  .add(
    HttpApiEndpoint.post("sync", "/deposit/sync")
      .addSuccess(success("Transaction", BalanceView, { message: "Deposits synced." }))
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
      })))
      .addSuccess(success("Transaction", BalanceView, { message: "Test deposit credited." }))
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
  )
  .prefix("/api/v1/webhooks")
  .annotate(OpenApi.Title, "Webhooks")
{}

const BankView = Schema.Struct({ bankCode: Schema.String, bankName: Schema.String })

export class BanksApi extends HttpApiGroup.make("banks")
  .add(HttpApiEndpoint.get("list", "/banks").addSuccess(success("Bank", Schema.Array(BankView))))
  .prefix("/api/v1")
  .annotate(OpenApi.Title, "Banks")
{}

export const BeneficiaryView = Schema.Struct({
  id: Schema.String,
  accountNumber: Schema.String,
  bankCode: Schema.String,
  bankName: Schema.String,
  accountName: Schema.String,
  isDefault: Schema.Boolean,
  createdAt: Schema.String
})

const BeneficiaryId = HttpApiSchema.param("id", Uuid)

export class BeneficiariesApi extends HttpApiGroup.make("beneficiaries")
  .add(
    HttpApiEndpoint.get("lookup", "/lookup")
      .setUrlParams(Body({ accountNumber: AccountNumber, bankCode: BankCode }))
      .addSuccess(success("Beneficiary", Schema.Struct({
        accountName: Schema.String,
        accountNumber: Schema.String,
        bankCode: Schema.String,
        nipSessionId: Schema.String
      })))
  )
  .add(
    HttpApiEndpoint.post("add", "/")
      .setPayload(Body({ accountNumber: AccountNumber, bankCode: BankCode, bankName: Name }))
      .addSuccess(success("Beneficiary", BeneficiaryView, { status: 201, message: "Beneficiary saved." }))
  )
  .add(HttpApiEndpoint.get("list", "/").addSuccess(success("Beneficiary", Schema.Array(BeneficiaryView))))
  .add(
    HttpApiEndpoint.patch("setDefault")`/${BeneficiaryId}/default`
      .addSuccess(success("Beneficiary", BeneficiaryView, { message: "Default beneficiary updated." }))
  )
  .add(
    HttpApiEndpoint.del("remove")`/${BeneficiaryId}`
      .setPayload(Body({ otpPinId: Uuid, otpCode: OtpCode }))
      .addSuccess(success("Beneficiary", NoData, { message: "Beneficiary removed." }))
  )
  .prefix("/api/v1/beneficiaries")
  .annotate(OpenApi.Title, "Beneficiaries")
{}

