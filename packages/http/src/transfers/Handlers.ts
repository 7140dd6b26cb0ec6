import { HttpApiBuilder } from "@effect/platform"
import { Fees, Settings, Transfers } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { signedIn } from "../shared/Security.js"
import { movementView } from "./Views.js"

export const TransferHandlers = HttpApiBuilder.group(Api, "transfers", (handlers) =>
  handlers
    .handle("transfer", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Transfers.startManualTransfer(accountId, payload)).pipe(
        Effect.map(movementView),
        mapDomainErrors("Transaction")
      ))
    .handle("transferFee", ({ urlParams }) =>
      Effect.map(Settings.get(Settings.NipFees), (schedule) => Fees.quote(urlParams.amountKobo, schedule))))
