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
import type { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpClientError } from "@effect/platform/HttpClientError"
import { Data, Duration, Effect, Schema } from "effect"
import { issuePaths, refuse } from "./Mapping.js"
import * as Wire from "./Wire.js"

/** A failure of one attempt that may be retried when the call is safe to repeat. */
export class Transient extends Data.TaggedError("Transient")<{ readonly detail: string; readonly timedOut?: boolean }> {}

export type AttemptError = CoreBankingError | Transient

export interface Call<D, I, A> {
  readonly operation: string
  /** span/log name, default `CoreBanking.<operation>` */
  readonly spanName?: string
  /** our reference of the request, when it has one (never a secret) */
  readonly reference: string | undefined
  readonly write: boolean
  readonly retry: boolean
  /** false: the URL holds personal data (BVN), so the HTTP client must not record it in a span */
  readonly traceHttp?: boolean
  /** the request, after the pre-send checks (a failed check is ProviderRefused "26") */
  readonly request: Effect.Effect<HttpClientRequest.HttpClientRequest, ProviderRefused>
  /** the schema of `data` on "00" */
  readonly data: Schema.Schema<D, I>
  readonly onSuccess: (data: D) => A
  /** the value of a pending code, where the port has one (transfer, requery) */
  readonly onPending?: A
  /** the value of "25", where the port has one (lookups) */
  readonly onNotFound?: A
}

const RawEnvelope = Schema.parseJson(Wire.Envelope(Schema.Unknown))
const decodeEnvelope = Schema.decodeUnknown(RawEnvelope)
type RawEnvelope = typeof RawEnvelope.Type

/** The error code of a transport failure (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET…), if any. */
const transportCode = (cause: unknown): string | undefined => {
  let current: unknown = cause
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/** A code that can only mean "refused": not success, pending, ambiguous or duplicate. */
const isRefusalCode = (code: string): boolean =>
  code !== ResponseCodes.success && code !== Wire.Codes.duplicate && !ResponseCodes.pending.includes(code) &&
  !Wire.Codes.ambiguous.includes(code)

const fromHttpError = (operation: string, error: HttpClientError): AttemptError => {
  if (error._tag === "ResponseError") return new Transient({ detail: "the answer could not be read" })
  switch (error.reason) {
    case "Transport": {
      const code = transportCode(error.cause)
      return new Transient({ detail: `connection failed${code === undefined ? "" : ` (${code})`}` })
    }
    case "InvalidUrl":
      return new ProviderMisconfigured({ operation, detail: "the provider URL is invalid" })
    case "Encode":
      return refuse(operation, "the request could not be encoded")
  }
}

/** One attempt's request and the envelope of its answer (the HTTP rows of the classification). */
export const makeReadEnvelope = (
  client: HttpClient.HttpClient,
  untracedClient: HttpClient.HttpClient,
  timeoutMs: number
) =>
(
  operation: string,
  request: HttpClientRequest.HttpClientRequest,
  traceHttp: boolean
): Effect.Effect<RawEnvelope, AttemptError> =>
  Effect.gen(function*() {
    const response = yield* (traceHttp ? client : untracedClient).execute(request)
    const status = response.status
    const text = yield* response.text
    if (status === 401 || status === 403) {
      return yield* new ProviderMisconfigured({
        operation,
        detail: `HTTP ${status}: the provider rejected our credentials`
      })
    }
    if (status >= 500 || status === 408 || status === 429) {
      return yield* new Transient({ detail: `HTTP ${status}` })
    }
    const envelope = yield* Effect.either(decodeEnvelope(text))
    if (status >= 200 && status < 300) {
      if (envelope._tag === "Left") {
        return yield* new ProviderUnknownOutcome({
          operation,
          detail: `malformed answer (${issuePaths(envelope.left)})`
        })
      }
      return envelope.right
    }
    // Off-protocol (every answer should be HTTP 200). A 404 is a wrong route or URL even with an
    // envelope (the sandbox answers unknown routes 404 "25", which must not read as "not found");
    // another 4xx counts as a refusal only in the protocol's own envelope with a refusal code.
    if (
      status !== 404 && status >= 400 && status < 500 && envelope._tag === "Right" &&
      isRefusalCode(envelope.right.responseCode)
    ) {
      return yield* new ProviderRefused({
        operation,
        code: envelope.right.responseCode,
        reason: envelope.right.responseMessage
      })
    }
    return yield* new ProviderMisconfigured({ operation, detail: `unexpected HTTP ${status}` })
  }).pipe(
    Effect.catchTags({
      RequestError: (error) => Effect.fail(fromHttpError(operation, error)),
      ResponseError: (error) => Effect.fail(fromHttpError(operation, error))
    }),
    Effect.timeoutFail({
      duration: Duration.millis(timeoutMs),
      onTimeout: () => new Transient({ detail: `no answer within ${timeoutMs} ms`, timedOut: true })
    })
  )

/** The response code of a decoded envelope, classified by what the call says (write, onPending, onNotFound). */
export const classify = <D, I, A>(call: Call<D, I, A>, envelope: RawEnvelope): Effect.Effect<A, AttemptError> => {
  const { operation } = call
  const code = envelope.responseCode
  if (code === ResponseCodes.success) {
    return Schema.decodeUnknown(call.data)(envelope.data).pipe(
      Effect.mapError((error) =>
        new ProviderUnknownOutcome({ operation, detail: `malformed "00" answer (${issuePaths(error)})` })
      ),
      Effect.map(call.onSuccess)
    )
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
