/**
 * The transport of the BankOne adapter: one call's attempts over the generic adapter's undici sender
 * (`../Sender.ts`), with the generic transport's limits and retry policy (`transportLimits` and
 * `attemptsOf` of `../Transport.ts`): a permit of a fair semaphore per attempt, at most `timeoutMs` per
 * attempt, a transient failure retried (backoff from `retryBaseDelayMs`, doubling, capped at 2 s) only
 * where repeating is safe and never after a timeout; when attempts run out, the outcome is unknown.
 * One span per call (`CoreBanking.<operation>`), and the provider-call metrics. Logs and spans carry
 * the operation and our reference only: never the token (which BankOne wants in bodies and URLs), a
 * body or a URL.
 *
 * The HTTP rows of an answer (docs/bankone.md B37):
 *   401 / 403                → ProviderMisconfigured (the token), never retried
 *   5xx, 408, 429, timeout, connection failures → transient
 *   any other non-2xx        → ProviderMisconfigured (a wrong URL or a request BankOne cannot read)
 *   2xx                      → the call's own reading (`read`), after quoting amount literals
 */
import { type CoreBankingError, ProviderMisconfigured, Spans } from "@app/domain"
import { Duration, Effect, Either, type Redacted, type Scope } from "effect"
import { makeFairSemaphore } from "../../concurrency/FairSemaphore.js"
import { measureProviderCall } from "../../ops/Metrics.js"
import type { AttemptError } from "../Attempt.js"
import { makeSender, type Send, splitBaseUrl, Transient, type WireRequest } from "../Sender.js"
import { attemptsOf, MAX_BACKOFF_MS, transportLimits } from "../Transport.js"
import { quoteNumbers } from "./BankOneMoney.js"
import { AmountFields } from "./BankOneWire.js"

export interface BankOneCall<A> {
  readonly operation: string
  /** our reference of the request, when it has one */
  readonly reference: string | undefined
  readonly retry: boolean
  readonly request: WireRequest
  /** the meaning of a 2xx answer's JSON (amount literals already quoted) */
  readonly read: (json: unknown) => Either.Either<A, AttemptError>
}

export interface BankOneTransportConfig {
  readonly baseUrl: string
  /** sent as a bearer header too (BankOne reads its own fields; the sandbox's test routes read this) */
  readonly bearer: Redacted.Redacted<string>
  readonly timeoutMs: number
  readonly maxConcurrency?: number
  readonly maxAttempts?: number
  readonly retryBaseDelayMs?: number
  readonly wrapSend?: (send: Send) => Send
}

export type RunBankOne = <A>(call: BankOneCall<A>) => Effect.Effect<A, CoreBankingError>

const parse = (text: string): unknown => {
  try {
    return JSON.parse(quoteNumbers(text, AmountFields))
  } catch {
    return undefined
  }
}

export const makeBankOneTransport = (config: BankOneTransportConfig): Effect.Effect<RunBankOne, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { maxAttempts, maxConcurrency, retryBaseDelayMs, timeoutMs } = transportLimits(config)
    const semaphore = yield* makeFairSemaphore(maxConcurrency)
    const base = splitBaseUrl(config.baseUrl)
    const wrap = config.wrapSend ?? ((send: Send) => send)
    const send = base === undefined ? undefined : wrap(yield* makeSender(base, config.bearer))

    /** The wait before attempt `n + 1`: from `retryBaseDelayMs`, doubling, capped (no jitter). */
    const backoff = (n: number) => Effect.sleep(Duration.millis(Math.min(retryBaseDelayMs * 2 ** (n - 1), MAX_BACKOFF_MS)))

    const attempt = <A>(call: BankOneCall<A>): Effect.Effect<A, AttemptError> =>
      Effect.flatMap(send!(call.request, timeoutMs), ({ status, text }): Effect.Effect<A, AttemptError> => {
        const { operation } = call
        if (status === 401 || status === 403) {
          return Effect.fail(new ProviderMisconfigured({ operation, detail: `HTTP ${status}: BankOne rejected the token` }))
        }
        if (status >= 500 || status === 408 || status === 429) return Effect.fail(new Transient({ detail: `HTTP ${status}` }))
        if (status < 200 || status >= 300) {
          return Effect.fail(new ProviderMisconfigured({ operation, detail: `unexpected HTTP ${status}` }))
        }
        const json = parse(text)
        if (json === undefined) return Effect.fail(new Transient({ detail: "the answer is not JSON" }))
        return Either.match(call.read(json), { onLeft: Effect.fail, onRight: Effect.succeed })
      }).pipe(semaphore.withPermit)

    const run: RunBankOne = <A>(call: BankOneCall<A>) => {
      const { operation } = call
      const attributes: Record<string, unknown> = call.reference === undefined ? { operation } : { operation, reference: call.reference }
      const body: Effect.Effect<A, CoreBankingError> = send === undefined
        ? Effect.fail(new ProviderMisconfigured({ operation, detail: "the provider URL is invalid" }))
        : attemptsOf(call, maxAttempts, backoff, () => attempt(call))
      return body.pipe(
        Effect.tapError((e) =>
          e._tag === "ProviderRefused"
            ? Effect.logDebug("bankone call refused").pipe(Effect.annotateLogs({ ...attributes, responseCode: e.code }))
            : Effect.logWarning(e._tag === "ProviderUnknownOutcome" ? "bankone outcome unknown" : "bankone provider misconfigured")
              .pipe(Effect.annotateLogs({ ...attributes, detail: e.detail }))
        ),
        measureProviderCall(operation),
        Spans.withSpan(`CoreBanking.${operation}`, { attributes, captureStackTrace: false })
      )
    }
    return run
  })
