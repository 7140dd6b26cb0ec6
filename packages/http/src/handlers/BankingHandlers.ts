import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { AppConfig } from "@app/adapters"
import { type Beneficiary, Banking, Beneficiaries, Fees, type ProviderTransaction, SecretHasher } from "@app/domain"
import { Effect, Option, Redacted } from "effect"
import { Api, CurrentAccount } from "../Api.js"
import { TEST_DEPOSIT_DEFAULT_KOBO } from "../BankingApi.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { HttpFailure } from "../Envelope.js"

const signedIn = Effect.map(CurrentAccount, ({ account }) => account.id)

export const KycHandlers = HttpApiBuilder.group(Api, "kyc", (handlers) =>
  handlers.handle("verifyBvn", ({ payload }) =>
    Effect.flatMap(signedIn, (accountId) => Banking.verifyBvn(accountId, payload)).pipe(mapDomainErrors("Auth"))))

export const providerTransactionView = (t: ProviderTransaction) => ({
  reference: t.reference,
  type: t.direction,
  amountKobo: t.amountKobo,
  amount: t.amountKobo,
  narration: t.narration,
  channel: t.channel,
  postedAt: t.postedAt.toISOString(),
  counterpartyName: t.counterpartyName,
  counterpartyAccountNumber: t.counterpartyAccountNumber,
  counterpartyBankCode: t.counterpartyBankCode
})

const balanceView = (kobo: bigint) => ({ balanceKobo: Number(kobo) })

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
          return yield* new HttpFailure({
            status: 403,
            apiObject: "Transaction",
            message: "Test deposits are disabled in production"
          })
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
        return yield* new HttpFailure({ status: 401, apiObject: "Webhook", message: "Invalid webhook credentials" })
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

export const beneficiaryView = (b: Beneficiary) => ({
  id: b.id,
  accountNumber: b.accountNumber,
  bankCode: b.bankCode,
  bankName: b.bankName,
  accountName: b.accountName,
  isDefault: b.isDefault,
  createdAt: b.createdAt.toISOString()
})

const beneficiaries = mapDomainErrors("Beneficiary")

export const BeneficiaryHandlers = HttpApiBuilder.group(Api, "beneficiaries", (handlers) =>
  handlers
    .handle("lookup", ({ urlParams }) => Beneficiaries.lookup(urlParams.accountNumber, urlParams.bankCode).pipe(beneficiaries))
    .handle("add", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Beneficiaries.add(accountId, payload)).pipe(
        Effect.map(beneficiaryView),
        beneficiaries
      ))
    .handle("list", () =>
      Effect.flatMap(signedIn, Beneficiaries.list).pipe(Effect.map((all) => all.map(beneficiaryView)), beneficiaries))
    .handle("setDefault", ({ path }) =>
      Effect.flatMap(signedIn, (accountId) => Beneficiaries.setDefault(accountId, path.id)).pipe(
        Effect.map(beneficiaryView),
        beneficiaries
      ))
    .handle("remove", ({ path, payload }) =>
      Effect.flatMap(signedIn, (accountId) => Beneficiaries.remove(accountId, path.id, payload.otpPinId, payload.otpCode)).pipe(
        Effect.as({}),
        beneficiaries
      )))
