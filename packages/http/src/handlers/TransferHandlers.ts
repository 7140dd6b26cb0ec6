import { HttpApiBuilder } from "@effect/platform"
import { Fees, Settings, type Transfer, Transfers, TransferSaga } from "@app/domain"
import { Effect } from "effect"
import { Api, CurrentAccount } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"

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

export const TransferHandlers = HttpApiBuilder.group(Api, "transfers", (handlers) =>
  handlers
    .handle("transfer", ({ payload }) =>
      Effect.flatMap(CurrentAccount, ({ account }) => Transfers.startManualTransfer(account.id, payload)).pipe(
        Effect.map(movementView),
        mapDomainErrors("Transaction")
      ))
    .handle("transferFee", ({ urlParams }) =>
      Effect.map(Settings.get(Settings.NipFees), (schedule) => Fees.quote(urlParams.amountKobo, schedule))))
