/**
 * Domain failures → HTTP: the features' error tables (`<feature>/Errors.ts`) combined into one,
 * which must have an entry for every tag of DomainError (a failure without one does not compile).
 * Messages are the spec's where it gives one. Each group passes its apiObject.
 */
import { Effect } from "effect"
import { type AccountError, accountErrors } from "./account/Errors.js"
import { type AuthError, authErrors } from "./auth/Errors.js"
import { type BankingError, bankingErrors, providerErrors } from "./banking/Errors.js"
import { type BeneficiaryError, beneficiaryErrors } from "./beneficiaries/Errors.js"
import { type PlanError, planErrors } from "./plans/Errors.js"
import { httpFailure, type HttpFailureWith } from "./shared/Envelope.js"
import type { ErrorEntry, ErrorTable } from "./shared/ErrorTable.js"
import { type TransactionError, transactionErrors } from "./transactions/Errors.js"
import { type TransferError, transferErrors } from "./transfers/Errors.js"
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

const errorTable = {
  ...accountErrors,
  ...authErrors,
  ...bankingErrors,
  ...providerErrors,
  ...beneficiaryErrors,
  ...transferErrors,
  ...transactionErrors,
  ...planErrors
} satisfies ErrorTable<DomainError>

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
  const { detail, message, status } = errorEntry(e)
  return httpFailure(status, apiObject, message, detail) as HttpFailureOf<E>
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

/** Pipe a use case through this to turn its domain failures into envelopes of `apiObject`. */
export const mapDomainErrors = (apiObject: string) =>
  <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, HttpFailureOf<E>, R> =>
    Effect.mapError(Effect.tapError(effect, logProviderTrouble), toHttpFailure(apiObject))
