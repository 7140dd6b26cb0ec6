/**
 * Domain failures → HTTP: the features' error tables (`<feature>/Errors.ts`) combined into one,
 * which must have an entry for every tag of DomainError (a failure without one does not compile),
 * and their catalogues combined into `errorCatalogue`.
 * Messages are the spec's where it gives one. Each group passes its apiObject.
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { accountCodes, type AccountError, accountErrors } from "./account/Errors.js"
import { adminCodes, type AdminError, adminErrors } from "./admin/Errors.js"
import { authCodes, type AuthError, authErrors } from "./auth/Errors.js"
import { bankingCodes, type BankingError, bankingErrors, bankingHandlerCodes, providerCodes, providerErrors } from "./banking/Errors.js"
import { beneficiaryCodes, type BeneficiaryError, beneficiaryErrors } from "./beneficiaries/Errors.js"
import { lifecycleCodes, type LifecycleError, lifecycleErrors } from "./lifecycle/Errors.js"
import { notificationCodes, type NotificationError, notificationErrors } from "./notifications/Errors.js"
import { planCodes, type PlanError, planErrors } from "./plans/Errors.js"
import { profileHandlerCodes } from "./profile/Errors.js"
import { opsHandlerCodes } from "./ops/Errors.js"
import { edgeCodes } from "./edge/Errors.js"
import { referralCodes, type ReferralError, referralErrors } from "./referrals/Errors.js"
import { spendingCodes, type SpendingError, spendingErrors } from "./spending/Errors.js"
import { supportCodes, type SupportError, supportErrors } from "./support/Errors.js"
import { type HttpFailure, httpFailure, type HttpFailureWith } from "./shared/Envelope.js"
import { type CodeInfo, type ErrorEntry, type ErrorTable, sharedCodes } from "./shared/ErrorTable.js"
import { transactionCodes, type TransactionError, transactionErrors } from "./transactions/Errors.js"
import { transferCodes, type TransferError, transferErrors } from "./transfers/Errors.js"
import type { CoreBankingError } from "@app/domain"

export type DomainError =
  | AccountError
  | AuthError
  | BankingError
  | CoreBankingError
  | BeneficiaryError
  | TransferError
  | TransactionError
  | PlanError
  | ReferralError
  | NotificationError
  | AdminError
  | SpendingError
  | SupportError
  | LifecycleError

const errorTable = {
  ...accountErrors,
  ...authErrors,
  ...bankingErrors,
  ...providerErrors,
  ...beneficiaryErrors,
  ...transferErrors,
  ...transactionErrors,
  ...planErrors,
  ...referralErrors,
  ...notificationErrors,
  ...adminErrors,
  ...spendingErrors,
  ...supportErrors,
  ...lifecycleErrors
} satisfies ErrorTable<DomainError>

/**
 * Every failure code the API answers, with its status and meaning: the one catalogue, published in
 * docs/errors.md and in the OpenAPI document's description (so on /docs).
 */
export const errorCatalogue: Readonly<Record<string, CodeInfo>> = {
  ...sharedCodes,
  ...authCodes,
  ...accountCodes,
  ...bankingCodes,
  ...bankingHandlerCodes,
  ...profileHandlerCodes,
  ...opsHandlerCodes,
  ...edgeCodes,
  ...providerCodes,
  ...beneficiaryCodes,
  ...transferCodes,
  ...transactionCodes,
  ...planCodes,
  ...referralCodes,
  ...notificationCodes,
  ...adminCodes,
  ...spendingCodes,
  ...supportCodes,
  ...lifecycleCodes
}

/** The catalogue as a Markdown table (code, status, meaning), sorted by status then code. */
export const errorCatalogueMarkdown = [
  "| code | status | meaning |",
  "|---|---|---|",
  ...Object.entries(errorCatalogue)
    .sort(([a, x], [b, y]) => x.status - y.status || a.localeCompare(b))
    .map(([code, { meaning, status }]) => `| \`${code}\` | ${status} | ${meaning} |`)
].join("\n")

/** The entry of a domain failure: its status, stable code, message and detail. */
export const errorEntry = (e: DomainError): ErrorEntry => (errorTable[e._tag] as (e: DomainError) => ErrorEntry)(e)

/** The status each failure of E answers with, as the tables say. */
export type StatusOf<E extends DomainError> = E extends DomainError
  ? ReturnType<(typeof errorTable)[E["_tag"]]>["status"]
  : never

type PerStatus<S extends number> = S extends number ? HttpFailureWith<S> : never

/** What toHttpFailure makes of E: one HttpFailureWith per status, each for the endpoint to declare. */
export type HttpFailureOf<E extends DomainError> = PerStatus<StatusOf<E>>

export const toHttpFailure = (apiObject: string) => <E extends DomainError>(e: E): HttpFailureOf<E> => {
  const { code, detail, message, status } = errorEntry(e)
  return httpFailure(status, code, apiObject, message, detail) as HttpFailureOf<E>
}

/** Provider trouble is for operators to see too, not only the client. */
const logProviderTrouble = (e: DomainError) =>
  e._tag === "ProviderMisconfigured"
    ? Effect.logError("core banking provider misconfigured").pipe(Effect.annotateLogs({ operation: e.operation, detail: e.detail }))
    : e._tag === "ProviderUnknownOutcome"
    ? Effect.logWarning("core banking outcome unknown").pipe(Effect.annotateLogs({ operation: e.operation, detail: e.detail }))
    : e._tag === "ProviderRefused"
    ? Effect.logWarning("core banking refused").pipe(Effect.annotateLogs({ operation: e.operation, code: e.code }))
    : Effect.void

/**
 * A failure that says when to retry (`retryAfterSeconds`: cooldowns, lockouts) also answers the
 * standard Retry-After header, in whole seconds.
 */
const retryAfterHeader = (failure: HttpFailure) => {
  const seconds = failure.detail?.retryAfterSeconds
  return typeof seconds === "number"
    ? HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(Math.max(0, Math.ceil(seconds)))))
    )
    : Effect.void
}

/** Pipe a use case through this to turn its domain failures into envelopes of `apiObject`. */
export const mapDomainErrors = (apiObject: string) =>
  <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, HttpFailureOf<E>, R> =>
    Effect.tapError(
      Effect.mapError(Effect.tapError(effect, logProviderTrouble), toHttpFailure(apiObject)),
      retryAfterHeader
    )
