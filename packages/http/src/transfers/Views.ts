/** What the transfer endpoints answer: the movement row and the NIP fee quote. */
import { CustomerId, KoboString, PlanId, TransferSaga, type Transfer } from "@app/domain"
import { Schema } from "effect"
import * as Ex from "../shared/Examples.js"

const KoboOut = KoboString

/** A confirmed transfer of ₦25,000 to an Access Bank account (NIP fee ₦25 and VAT). */
export const movementExample = {
  id: Ex.TRANSACTION_ID,
  customerId: Ex.CUSTOMER_ID,
  planId: null,
  type: "transfer",
  purpose: "manual_transfer",
  amountKobo: 2_500_000n,
  feeKobo: 2_688n,
  status: "confirmed",
  retrievalReference: "DX7CB1V4WAJ3",
  transferReference: "TX7CB1V4WAJ3",
  failureReason: null,
  retryCount: 0,
  destinationAccountNumber: "0045678912",
  destinationBankCode: "044",
  destinationBankName: "Access Bank",
  destinationAccountName: "Emeka Nwosu",
  narration: "November rent share",
  createdAt: "2026-11-28T09:30:15.000Z",
  updatedAt: "2026-11-28T09:30:19.000Z"
} as const

export const MovementView = Schema.Struct({
  id: Schema.String,
  customerId: CustomerId,
  planId: Schema.NullOr(PlanId),
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
}).annotations({ examples: [movementExample] })

/** A fee quote (Fees.quote): of transfers, and of deposits. */
export const FeeQuote = Schema.Struct({ totalKobo: KoboOut, feeKobo: KoboOut, vatKobo: KoboOut, amountKobo: KoboOut })
  .annotations({ examples: [{ totalKobo: 2_502_688n, feeKobo: 2_500n, vatKobo: 188n, amountKobo: 2_500_000n }] })

export const movementView = (t: Transfer) => {
  const refs = TransferSaga.referencesOf(t.id)
  return {
    id: t.id,
    customerId: t.customerId,
    planId: t.planId,
    type: "transfer" as const,
    purpose: t.purpose,
    amountKobo: t.amountKobo,
    feeKobo: t.feeKobo,
    status: t.status,
    retrievalReference: refs.debit,
    transferReference: refs.transfer,
    failureReason: t.failureReason,
    retryCount: t.retryCount,
    destinationAccountNumber: t.destinationAccountNumber,
    destinationBankCode: t.destinationBankCode,
    destinationBankName: t.destinationBankName,
    destinationAccountName: t.destinationAccountName,
    narration: t.narration,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString()
  }
}
