/**
 * The transport of the HTTP adapter of the CoreBanking port (`HttpCoreBanking.ts`): the runner of a
 * call's attempts (`Sender.ts` sends one request with the base URL and token; `Attempt.ts` classifies
 * its answer).
 *
 * Every call: pre-send checks (references 1–12 chars, amounts whole kobo ≤ MAX_SAFE_INTEGER, the
 * body encoded with its Wire schema; a failed check is ProviderRefused "26" and nothing is sent) →
 * one permit of a semaphore (`maxConcurrency`) per attempt → `Authorization: Bearer <token>` → at most
 * `timeoutMs` per attempt (`CORE_BANKING_TIMEOUT_MS`) → the answer decoded with the Wire schemas.
 *
 * A transient failure is retried (exponential backoff from `retryBaseDelayMs`, jittered, capped at
 * 2 s, `maxAttempts` attempts in all) only where repeating is safe; when attempts run out, or the
 * call is not retried, it becomes ProviderUnknownOutcome. A definite answer is never retried, and
 * neither is a TIMEOUT: CORE_BANKING_TIMEOUT_MS is how long the service waits for one provider call
 * before the outcome is unknown (operations.md), so a slow provider costs one timeout, not
 * `maxAttempts` of them; the caller learns the outcome later by requery with the same reference.
 *
 * Observability: one span per call, `CoreBanking.<operation>` (`TestFunding.deposit`), with the
 * attributes `operation`, `reference` (our request reference, when the call has one), `attempt` (the
 * number of attempts made) and `outcome`; and in metrics `provider_calls_total{operation,outcome}` and
 * `provider_call_duration_seconds{operation}` (ops/Metrics.ts). Logs (debug per attempt and outcome, warning on transient
 * failures, unknown outcomes and misconfiguration) carry only the operation, reference, attempt,
 * response code and our own description of the failure: never the token, a BVN, a body, a URL or
 * personal data. There is no span per HTTP request (the BVN is in the URL of its request).
 */
import { type CoreBankingError, ProviderMisconfigured, ProviderUnknownOutcome, Spans } from "@app/domain"
import { Duration, Effect, FiberRef, LogLevel, Random, type Redacted, type Scope, type Tracer } from "effect"
import { measureProviderCall } from "../ops/Metrics.js"
import { type AttemptError, type Call, classify, makeReadEnvelope } from "./Attempt.js"
import { makeFairSemaphore } from "../concurrency/FairSemaphore.js"
import { makeSender, type Send, splitBaseUrl, type Transient } from "./Sender.js"

export interface CoreBankingHttpConfig {
  /** e.g. http://localhost:8081; routes of Wire.ts are appended */
  readonly baseUrl: string
  readonly token: Redacted.Redacted<string>
  /** per attempt (CORE_BANKING_TIMEOUT_MS) */
  readonly timeoutMs: number
  /** concurrent provider calls (default 16) */
  readonly maxConcurrency: number
  /** attempts in all for calls that are safe to repeat (default 3) */
  readonly maxAttempts: number
  /** first backoff delay between attempts (default 100 ms) */
  readonly retryBaseDelayMs?: number
  /** wraps the sender of every attempt (benchmarks time the HTTP exchanges with it) */
  readonly wrapSend?: (send: Send) => Send
}

/** What `makeHttpCoreBanking` accepts: the config with its defaulted fields optional. */
export type CoreBankingHttpOptions =
  & Pick<CoreBankingHttpConfig, "baseUrl" | "token" | "timeoutMs">
  & Partial<Pick<CoreBankingHttpConfig, "maxConcurrency" | "maxAttempts" | "retryBaseDelayMs" | "wrapSend">>

export const CoreBankingHttpDefaults = {
  maxConcurrency: 16,
  maxAttempts: 3,
  retryBaseDelayMs: 100
} as const

export const MAX_BACKOFF_MS = 2_000

/** A transport's limits, defaulted (CoreBankingHttpDefaults) and clamped: at least 1 ms, one permit, one attempt. */
export const transportLimits = (
  config: Pick<CoreBankingHttpOptions, "timeoutMs" | "maxConcurrency" | "maxAttempts" | "retryBaseDelayMs">
) => ({
  timeoutMs: Math.max(1, config.timeoutMs),
  maxConcurrency: Math.max(1, Math.floor(config.maxConcurrency ?? CoreBankingHttpDefaults.maxConcurrency)),
  maxAttempts: Math.max(1, Math.floor(config.maxAttempts ?? CoreBankingHttpDefaults.maxAttempts)),
  retryBaseDelayMs: Math.max(0, config.retryBaseDelayMs ?? CoreBankingHttpDefaults.retryBaseDelayMs)
})

/**
 * The attempts of one call under the retry policy of both transports (this one and BankOne's):
 * attempt n (1, 2, …) is followed by `backoff(n)` and attempt n + 1 only when the call is safe to
 * repeat, n < `maxAttempts`, and attempt n failed transiently without timing out. A transient failure
 * left at the end is ProviderUnknownOutcome, with the number of attempts made.
 */
export const attemptsOf = <A>(
  call: { readonly operation: string; readonly retry: boolean },
  maxAttempts: number,
  backoff: (attempt: number) => Effect.Effect<void>,
  attempt: (attempt: number) => Effect.Effect<A, AttemptError>
): Effect.Effect<A, CoreBankingError> =>
  // the count is each run's own: an effect of this may be run more than once, at once
  Effect.suspend(() => {
    let attempts = 0
    const from = (n: number): Effect.Effect<A, AttemptError> => {
      const once = Effect.suspend(() => {
        attempts = n
        return attempt(n)
      })
      return n < maxAttempts && call.retry
        ? Effect.catchIf(
          once,
          (error): error is Transient => error._tag === "Transient" && error.timedOut !== true,
          () => Effect.zipRight(backoff(n), from(n + 1))
        )
        : once
    }
    return Effect.catchTag(from(1), "Transient", (error) =>
      Effect.fail(
        new ProviderUnknownOutcome({
          operation: call.operation,
          detail: `${error.detail} (${attempts} attempt${attempts === 1 ? "" : "s"})`
        })
      ))
  })

/** Runs a call: its request, then its attempts, classified; the retry policy of the call. */
export type Run = <D, I, A>(call: Call<D, I, A>) => Effect.Effect<A, CoreBankingError>

export const makeTransport = (
  config: CoreBankingHttpOptions
): Effect.Effect<Run, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { maxAttempts, maxConcurrency, retryBaseDelayMs, timeoutMs } = transportLimits(config)
    // first come, first served, one wake-up per release (concurrency/FairSemaphore.ts)
    const semaphore = yield* makeFairSemaphore(maxConcurrency)

    // no sender for a base URL that is not an http(s) URL: every call is then ProviderMisconfigured
    const base = splitBaseUrl(config.baseUrl)
    const wrap = config.wrapSend ?? ((send: Send) => send)
    const readEnvelope = base === undefined ? undefined : makeReadEnvelope(wrap(yield* makeSender(base, config.token)), timeoutMs)

    /**
     * The wait before attempt `attempt + 1`: exponential from `retryBaseDelayMs` (×2 per attempt),
     * capped at 2 s, jittered by ×0.8 to ×1.2 (Schedule.jittered's range). A hand-written loop rather
     * than `Effect.retry` with a Schedule: a call that succeeds first time (nearly all of them) then
     * pays nothing for its retry policy (the schedule's driver cost ~35 runtime steps per call).
     */
    const backoff = (attempt: number) =>
      Effect.flatMap(Random.next, (random) => {
        const delay = Math.min(retryBaseDelayMs * 2 ** (attempt - 1), MAX_BACKOFF_MS)
        return Effect.sleep(Duration.millis(delay * 0.8 * (1 - random) + delay * 1.2 * random))
      })

    const run = <D, I, A>(call: Call<D, I, A>): Effect.Effect<A, CoreBankingError> => {
      const { operation } = call
      const labels: Record<string, unknown> = call.reference === undefined
        ? { operation }
        : { operation, reference: call.reference }
      /**
       * A log line of this call, annotated with its labels (and `extra`), and an event of the call's
       * span (Effect's tracer logger puts a line on the span it runs under). The annotations and the
       * span are given to the line itself, and only when its level is logged at all: wrapping the
       * whole call in `Effect.annotateLogs` cost ~25 runtime steps per wrapper and call, for lines
       * that are mostly debug and not written.
       */
      const log = (span: Tracer.Span, level: LogLevel.LogLevel, message: string, extra?: Record<string, unknown>) =>
        Effect.withFiberRuntime<void>((fiber) =>
          LogLevel.greaterThan(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), level)
            ? Effect.void
            : Effect.logWithLevel(level, message).pipe(
              Effect.annotateLogs(extra === undefined ? labels : { ...labels, ...extra }),
              Effect.withParentSpan(span)
            )
        )
      return Spans.useSpan(
        call.spanName ?? `CoreBanking.${operation}`,
        { attributes: labels, captureStackTrace: false },
        (span) =>
          Effect.suspend(() => {
            if (readEnvelope === undefined) {
              return Effect.fail(new ProviderMisconfigured({ operation, detail: "the provider URL is invalid" }))
            }
            return Effect.flatMap(call.request, (request) =>
              attemptsOf(call, maxAttempts, backoff, (attempt) => {
                span.attribute("attempt", attempt)
                return log(span, LogLevel.Debug, "core banking request", { attempt }).pipe(
                  Effect.zipRight(readEnvelope(operation, request)),
                  Effect.flatMap((envelope) => classify(call, envelope)),
                  Effect.tapErrorTag("Transient", (error) =>
                    log(span, LogLevel.Warning, "core banking attempt failed", {
                      attempt,
                      detail: error.detail,
                      willRetry: call.retry && error.timedOut !== true && attempt < maxAttempts
                    })),
                  semaphore.withPermit
                )
              }))
          }).pipe(
            Effect.tapBoth({
              onSuccess: () => {
                span.attribute("outcome", "ok")
                return log(span, LogLevel.Debug, "core banking call succeeded")
              },
              onFailure: (failure) => {
                switch (failure._tag) {
                  case "ProviderRefused":
                    span.attribute("outcome", `refused:${failure.code}`)
                    return log(span, LogLevel.Debug, "core banking call refused", { responseCode: failure.code })
                  case "ProviderUnknownOutcome":
                    span.attribute("outcome", "unknown")
                    return log(span, LogLevel.Warning, "core banking outcome unknown", { detail: failure.detail })
                  case "ProviderMisconfigured":
                    span.attribute("outcome", "misconfigured")
                    return log(span, LogLevel.Warning, "core banking provider misconfigured", { detail: failure.detail })
                }
              }
            }),
            measureProviderCall(operation)
          )
      )
    }

    return run
  })
