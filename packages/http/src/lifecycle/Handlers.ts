import { HttpApiBuilder } from "@effect/platform"
import { Lifecycle } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { signedIn } from "../shared/Security.js"
import { CloseOtpRejected, TransactionInProgress } from "./Errors.js"

const customer = mapDomainErrors("Customer")

export const LifecycleHandlers = HttpApiBuilder.group(Api, "lifecycle", (handlers) =>
  handlers
    .handle("closeAccount", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Lifecycle.closeAccount(accountId, payload)).pipe(
        Effect.map((a) => ({ status: a.status, amountWithdrawnKobo: a.amountWithdrawnKobo })),
        // the spec's close-account row: an invalid or expired code is a 400 here (401 elsewhere)
        Effect.catchTag("OtpGateRejected", () => Effect.fail(new CloseOtpRejected())),
        Effect.catchTag("MovementInFlight", () => Effect.fail(new TransactionInProgress())),
        customer
      ))
    // delete-account keeps the gate's 401 OTP_INVALID (its spec row says 401)
    .handle("deleteAccount", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Lifecycle.deleteAccount(accountId, payload)).pipe(
        Effect.catchTag("MovementInFlight", () => Effect.fail(new TransactionInProgress())),
        customer
      )))
