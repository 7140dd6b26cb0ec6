/** The HTTP contract of manual transfers and their fee quote. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  AccountNotActive, AccountNotFound, BeneficiaryAccountNotFound, IdempotencyConflict, InsufficientBalance,
  InvalidBankCode, MovementInFlight, NoBankAccount, TooManyAttempts, TransferFailed, WithdrawalsNotAllowed
} from "@app/domain"
import { Schema } from "effect"
import { BankFailures } from "../shared/ApiErrors.js"
import { errors, success } from "../shared/Envelope.js"
import * as Ex from "../shared/Examples.js"
import { AccountNumber, BankCode, Body, KoboJson, KoboQuery, msg, Name, Uuid } from "../shared/Schemas.js"
import { FeeQuote, MovementView } from "./Views.js"

/** ₦10,000,000: the largest single transfer accepted (NIP's usual per-transaction limit for individuals). */
export const MAX_TRANSFER_KOBO = 1_000_000_000n

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
      }).annotations({
        examples: [{
          destinationAccountNumber: "0045678912",
          destinationBankCode: "044",
          destinationBankName: "Access Bank",
          destinationAccountName: "Emeka Nwosu",
          amountKobo: 2_500_000n,
          idempotencyKey: Ex.IDEMPOTENCY_KEY,
          narration: "November rent share",
          nipSessionId: Ex.NIP_SESSION_ID
        }]
      }))
      .addSuccess(success("Transaction", MovementView, { message: "Transfer processed." }))
      // LOOKUP_THROTTLED (TooManyAttempts): without nipSessionId, its name enquiry counts against the look-up budget
      .addError(errors(
        ...BankFailures, AccountNotFound, NoBankAccount, InvalidBankCode, BeneficiaryAccountNotFound,
        IdempotencyConflict, TransferFailed, AccountNotActive, MovementInFlight, WithdrawalsNotAllowed,
        InsufficientBalance, TooManyAttempts
      ))
  )
  .add(
    HttpApiEndpoint.get("transferFee", "/transfer/fee")
      .setUrlParams(Body({ amountKobo: KoboQuery("amountKobo", MAX_TRANSFER_KOBO) }))
      .addSuccess(success("Transaction", FeeQuote))
  )
  .prefix("/api/v1/transactions")
  .annotate(OpenApi.Title, "Transfers")
{}
