/**
 * One attempt of a call of the HTTP adapter (`HttpCoreBanking.ts`; `Transport.ts` makes the attempts
 * of a call): its request sent, its answer read within the timeout and decoded with the Wire schemas,
 * and classified.
 *
 * Classification of one attempt:
 *   HTTP 401/403                        → ProviderMisconfigured (never retried)
 *   HTTP 404 (even with an envelope)    → ProviderMisconfigured (wrong URL: never "not found")
 *   other 4xx                           → ProviderRefused with its envelope's refusal code (not
 *                                         success, pending, ambiguous or "94"), else
 *                                         ProviderMisconfigured (off-protocol answer)
 *   HTTP 5xx, 408, 429, timeout, connection refused/reset, unreadable body → transient
 *   answer that does not decode         → ProviderUnknownOutcome (reads and writes alike)
 *   "00"                                → success (its `data` decoded with the operation's schema)
 *   pending "01"/"09"/"91"/"97"         → transfer: "pending"; requery: "pending";
 *                                         other writes: ProviderUnknownOutcome (requery);
 *                                         reads: transient
 *   ambiguous "96"/"06"/"68"            → writes: ProviderUnknownOutcome (requery; never re-sent
 *                                         blindly); reads: transient
 *   (`Wire.Codes.ambiguous`: system malfunction, error, response received too late)
 *   "25" on findAccountByReference/bvnLookup → Option.none; on requery → "not_found"
 *   "94" (duplicate) on ANY write, first attempt or retry → ProviderUnknownOutcome: the reference was
 *                                         seen before (our earlier attempt, or a crashed run's, may
 *                                         have landed; strict providers answer every repeat "94"), so
 *                                         only a requery says what happened, never a refusal
 *   any other code                      → ProviderRefused { operation, code, reason: responseMessage }
 */
import {
  type CoreBankingError,
  ProviderMisconfigured,
  ProviderRefused,
  ProviderUnknownOutcome,
  ResponseCodes
} from "@app/domain"
import { Effect, Either, Schema } from "effect"
import { issuePaths } from "./Mapping.js"
import { type Send, Transient, type WireRequest } from "./Sender.js"
import * as Wire from "./Wire.js"

export type AttemptError = CoreBankingError | Transient

export interface Call<D, I, A> {
  readonly operation: string
  /** span/log name, default `CoreBanking.<operation>` */
  readonly spanName?: string
  /** our reference of the request, when it has one (never a secret) */
  readonly reference: string | undefined
  readonly write: boolean
  readonly retry: boolean
  /** the request, after the pre-send checks (a failed check is ProviderRefused "26") */
  readonly request: Effect.Effect<WireRequest, ProviderRefused>
  /** the schema of `data` on "00" */
  readonly data: Schema.Schema<D, I>
  readonly onSuccess: (data: D) => A
  /** the value of a pending code, where the port has one (transfer, requery) */
  readonly onPending?: A
  /** the value of "25", where the port has one (lookups) */
  readonly onNotFound?: A
}

const RawEnvelope = Schema.parseJson(Wire.Envelope(Schema.Unknown))
const decodeEnvelope = Schema.decodeUnknownEither(RawEnvelope)
type RawEnvelope = typeof RawEnvelope.Type

/** A code that can only mean "refused": not success, pending, ambiguous or duplicate. */
const isRefusalCode = (code: string): boolean =>
  code !== ResponseCodes.success && code !== Wire.Codes.duplicate && !ResponseCodes.pending.includes(code) &&
  !Wire.Codes.ambiguous.includes(code)

/** The envelope of an answer, by the HTTP rows of the classification. */
const envelopeOf = (operation: string, status: number, text: string): Either.Either<RawEnvelope, AttemptError> => {
  if (status === 401 || status === 403) {
    return Either.left(
      new ProviderMisconfigured({ operation, detail: `HTTP ${status}: the provider rejected our credentials` })
    )
  }
  if (status >= 500 || status === 408 || status === 429) return Either.left(new Transient({ detail: `HTTP ${status}` }))
  const envelope = decodeEnvelope(text)
  if (status >= 200 && status < 300) {
    return Either.isLeft(envelope)
      ? Either.left(new ProviderUnknownOutcome({ operation, detail: `malformed answer (${issuePaths(envelope.left)})` }))
      : Either.right(envelope.right)
  }
  // Off-protocol (every answer should be HTTP 200). A 404 is a wrong route or URL even with an
  // envelope (the sandbox answers unknown routes 404 "25", which must not read as "not found");
  // another 4xx counts as a refusal only in the protocol's own envelope with a refusal code.
  if (
    status !== 404 && status >= 400 && status < 500 && Either.isRight(envelope) &&
    isRefusalCode(envelope.right.responseCode)
  ) {
    return Either.left(
      new ProviderRefused({ operation, code: envelope.right.responseCode, reason: envelope.right.responseMessage })
    )
  }
  return Either.left(new ProviderMisconfigured({ operation, detail: `unexpected HTTP ${status}` }))
}

/** One attempt's request and the envelope of its answer (the HTTP rows of the classification). */
export const makeReadEnvelope = (send: Send, timeoutMs: number) =>
(operation: string, request: WireRequest): Effect.Effect<RawEnvelope, AttemptError> =>
  Effect.flatMap(send(request, timeoutMs), (answer) => envelopeOf(operation, answer.status, answer.text))

/** The response code of a decoded envelope, classified by what the call says (write, onPending, onNotFound). */
export const classify = <D, I, A>(call: Call<D, I, A>, envelope: RawEnvelope): Effect.Effect<A, AttemptError> => {
  const { operation } = call
  const code = envelope.responseCode
  if (code === ResponseCodes.success) {
    const data = Schema.decodeUnknownEither(call.data)(envelope.data)
    return Either.isLeft(data)
      ? Effect.fail(new ProviderUnknownOutcome({ operation, detail: `malformed "00" answer (${issuePaths(data.left)})` }))
      : Effect.succeed(call.onSuccess(data.right))
  }
  if (ResponseCodes.pending.includes(code)) {
    if (call.onPending !== undefined) return Effect.succeed(call.onPending)
    return Effect.fail(
      call.write
        ? new ProviderUnknownOutcome({ operation, detail: `pending answer "${code}": requery the reference` })
        : new Transient({ detail: `pending answer "${code}" to a read` })
    )
  }
  if (Wire.Codes.ambiguous.includes(code)) {
    return Effect.fail(
      call.write
        ? new ProviderUnknownOutcome({ operation, detail: `ambiguous answer "${code}": requery the reference` })
        : new Transient({ detail: `ambiguous answer "${code}" to a read` })
    )
  }
  if (code === ResponseCodes.notFound && call.onNotFound !== undefined) return Effect.succeed(call.onNotFound)
  if (code === Wire.Codes.duplicate && call.write) {
    return Effect.fail(
      new ProviderUnknownOutcome({
        operation,
        detail: `duplicate answer "${code}": the reference was used before and may have been applied; requery it`
      })
    )
  }
  return Effect.fail(new ProviderRefused({ operation, code, reason: envelope.responseMessage }))
}
