/** The HTTP contract of manual transfers and their fee quote. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { AccountNumber, BankCode, Body } from "./BankingApi.js"
import { success } from "./Envelope.js"
import { Name, Uuid } from "./Schemas.js"

const msg = (message: string) => ({ message: () => message })
const KoboOut = Schema.BigInt.annotations({ description: "integer kobo as a decimal string" })

/** ₦10,000,000: the largest single transfer accepted (NIP's usual per-transaction limit for individuals). */
export const MAX_TRANSFER_KOBO = 1_000_000_000n

const TransferAmount = Schema.BigIntFromNumber.annotations(msg("amountKobo must be a whole number of kobo")).pipe(
  Schema.greaterThanBigInt(0n, msg("amountKobo must be greater than 0")),
  Schema.lessThanOrEqualToBigInt(MAX_TRANSFER_KOBO, msg(`amountKobo must be at most ${MAX_TRANSFER_KOBO}`))
)

const QueryAmount = Schema.compose(
  Schema.String.pipe(Schema.pattern(/^[0-9]{1,16}$/, msg("amountKobo must be a whole number of kobo"))),
  Schema.BigInt
).pipe(
  Schema.greaterThanBigInt(0n, msg("amountKobo must be greater than 0")),
  Schema.lessThanOrEqualToBigInt(MAX_TRANSFER_KOBO, msg(`amountKobo must be at most ${MAX_TRANSFER_KOBO}`))
)

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
        amountKobo: TransferAmount,
        idempotencyKey: Uuid,
        narration: Schema.optional(Schema.String.pipe(Schema.maxLength(100, msg("narration must be at most 100 characters")))),
        nipSessionId: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64)))
      }))
      .addSuccess(success("Transaction", MovementView, { message: "Transfer processed." }))
  )
  .add(
    HttpApiEndpoint.get("transferFee", "/transfer/fee")
      .setUrlParams(Body({ amountKobo: QueryAmount }))
      .addSuccess(success("Transaction", FeeQuote))
  )
  .prefix("/api/v1/transactions")
  .annotate(OpenApi.Title, "Transfers")
{}
