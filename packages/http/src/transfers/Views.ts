/** What the transfer endpoints answer: the movement row and the NIP fee quote. */
import { CustomerId, KoboString, PlanId, TransferSaga, type Transfer } from "@app/domain"
import { Schema } from "effect"

const KoboOut = KoboString

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
})

/** A fee quote (Fees.quote): of transfers, and of deposits. */
export const FeeQuote = Schema.Struct({ totalKobo: KoboOut, feeKobo: KoboOut, vatKobo: KoboOut, amountKobo: KoboOut })

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
