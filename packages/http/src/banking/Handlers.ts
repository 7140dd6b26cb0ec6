import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { AppConfig } from "@app/adapters"
import { Banking, Fees, SecretHasher, Transactions } from "@app/domain"
import { Effect, Option, Redacted } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { toHttpFailure } from "../shared/Envelope.js"
import { TestDepositsDisabled, WebhookUnauthorized } from "./Errors.js"
import { signedIn } from "../shared/Security.js"
import { TEST_DEPOSIT_DEFAULT_KOBO } from "./Api.js"
import { balanceView, created, providerTransactionView } from "./Views.js"

export const KycHandlers = HttpApiBuilder.group(Api, "kyc", (handlers) =>
  handlers.handle("verifyBvn", ({ payload }) =>
    Effect.flatMap(signedIn, (accountId) => Banking.verifyBvn(accountId, payload)).pipe(mapDomainErrors("Auth"))))

const customer = mapDomainErrors("Customer")

const openBankAccount = () =>
  Effect.flatMap(signedIn, (accountId) => Banking.openBankAccount(accountId)).pipe(Effect.map(created), customer)

/** The handlers of `bankAccountEndpoints`, for the customers group (account/Handlers.ts). */
export const bankAccountHandlers = {
  createAccount: openBankAccount,
  createBankAccount: openBankAccount,
  balance: () =>
    Effect.flatMap(signedIn, (accountId) => Banking.balance(accountId)).pipe(Effect.map(balanceView), customer),
  providerTransactions: () =>
    Effect.flatMap(signedIn, (accountId) => Transactions.providerTransactions(accountId)).pipe(
      Effect.map((rows) => rows.map(providerTransactionView)),
      customer
    )
}

export const DepositHandlers = HttpApiBuilder.group(Api, "deposits", (handlers) =>
  handlers
    .handle("sync", () =>
      Effect.flatMap(signedIn, Banking.syncDeposits).pipe(
        Effect.map((s) => balanceView(s.balanceKobo)),
        mapDomainErrors("Transaction")
      ))
    .handle("testDeposit", ({ payload }) =>
      Effect.gen(function*() {
        if ((yield* AppConfig).appEnv === "production") {
          return yield* toHttpFailure("Transaction")(new TestDepositsDisabled())
        }
        const accountId = yield* signedIn
        const result = yield* Banking.testDeposit(accountId, payload?.amountKobo ?? TEST_DEPOSIT_DEFAULT_KOBO).pipe(
          mapDomainErrors("Transaction")
        )
        return balanceView(result.balanceKobo)
      }))
    .handle("depositFee", ({ urlParams }) => Effect.succeed(Fees.quote(urlParams.amountKobo, Fees.DefaultNipFeeSchedule))))

const accountNumberOf = (body: unknown): Option.Option<string> =>
  typeof body === "object" && body !== null && typeof (body as { accountNumber?: unknown }).accountNumber === "string"
    ? Option.some((body as { accountNumber: string }).accountNumber)
    : Option.none()

/**
 * The provider's notification that a transaction posted: authenticated by the static shared header
 * (constant-time comparison), acknowledged at once, and the customer's deposits synced in the
 * background. Replays and duplicates are harmless: a deposit is recorded once per posting.
 */
export const WebhookHandlers = HttpApiBuilder.group(Api, "webhooks", (handlers) =>
  handlers.handle("coreBanking", ({ payload }) =>
    Effect.gen(function*() {
      const config = yield* AppConfig
      const request = yield* HttpServerRequest.HttpServerRequest
      const presented = request.headers[config.webhookHeader]
      if (presented === undefined || !(yield* SecretHasher).equals(presented, Redacted.value(config.webhookSecret))) {
        return yield* toHttpFailure("Webhook")(new WebhookUnauthorized())
      }
      const accountNumber = accountNumberOf(payload)
      if (Option.isNone(accountNumber)) {
        yield* Effect.logWarning("webhook without an account number ignored")
        return {}
      }
      yield* Banking.depositsForAccountNumber(accountNumber.value).pipe(
        Effect.tap((sync) => Effect.logInfo("webhook deposit sync").pipe(Effect.annotateLogs({ newDeposits: sync.newDeposits }))),
        Effect.catchAllCause((cause) =>
          Effect.logWarning("webhook deposit sync failed; reconciliation will pick it up").pipe(
            Effect.annotateLogs("cause", String(cause))
          )
        ),
        Effect.forkDaemon
      )
      return {}
    })))

export const BankHandlers = HttpApiBuilder.group(Api, "banks", (handlers) =>
  handlers.handle("list", () => Banking.banks.pipe(mapDomainErrors("Bank"))))
