/** The HTTP contract of manual transfers and their fee quote. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { KoboString } from "@app/domain"
import { Schema } from "effect"
import { AccountNumber, BankCode } from "./BankingApi.js"
import { success } from "./Envelope.js"
import { Body, KoboJson, KoboQuery, msg, Name, Uuid } from "./Schemas.js"

const KoboOut = KoboString

/** ₦10,000,000: the largest single transfer accepted (NIP's usual per-transaction limit for individuals). */
export const MAX_TRANSFER_KOBO = 1_000_000_000n

export const MovementView = Schema.Struct({
  id: Schema.String,
  customerId: Schema.String,
  planId: Schema.NullOr(Schema.String),
  type: Schema.Literal("transfer"),
  purpose: Schema.String,
  amountKobo: KoboOut,
  feeKobo: KoboOut,
  status: Schema.Literal("pending", "confirmed", "failed"),
  retrievalReference: Schema.String,
  transferReference: Schema.String,
  failureReason: Schema.NullOr(Schema.String),
  retryCount: Schema.Number,
  destinationAccountNumber: Schema.String,
  destinationBankCode: Schema.String,
  destinationBankName: Schema.String,
  destinationAccountName: Schema.String,
  narration: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const FeeQuote = Schema.Struct({ totalKobo: KoboOut, feeKobo: KoboOut, vatKobo: KoboOut, amountKobo: KoboOut })

export class TransfersApi extends HttpApiGroup.make("transfers")
  .add(
    HttpApiEndpoint.post("transfer", "/transfer")
      .setPayload(Body({
        destinationAccountNumber: AccountNumber,
        destinationBankCode: BankCode,
        destinationBankName: Name,
        destinationAccountName: Name,
        amountKobo: KoboJson("amountKobo", MAX_TRANSFER_KOBO),
        idempotencyKey: Uuid,
        narration: Schema.optional(Schema.String.pipe(Schema.maxLength(100, msg("narration must be at most 100 characters")))),
        nipSessionId: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64)))
      }))
      .addSuccess(success("Transaction", MovementView, { message: "Transfer processed." }))
  )
  .add(
    HttpApiEndpoint.get("transferFee", "/transfer/fee")
      .setUrlParams(Body({ amountKobo: KoboQuery("amountKobo", MAX_TRANSFER_KOBO) }))
      .addSuccess(success("Transaction", FeeQuote))
  )
  .prefix("/api/v1/transactions")
  .annotate(OpenApi.Title, "Transfers")
{}
