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
import { type CoreBankingError, ProviderMisconfigured, ProviderUnknownOutcome } from "@app/domain"
import { Duration, Effect, type Redacted, Schedule, type Scope } from "effect"
import { measureProviderCall } from "../ops/Metrics.js"
import { type Call, classify, makeReadEnvelope } from "./Attempt.js"
import { makeFairSemaphore } from "../concurrency/FairSemaphore.js"
import { makeSender, type Send, splitBaseUrl } from "./Sender.js"

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

const MAX_BACKOFF = Duration.seconds(2)

/** Runs a call: its request, then its attempts, classified; the retry policy of the call. */
export type Run = <D, I, A>(call: Call<D, I, A>) => Effect.Effect<A, CoreBankingError>

export const makeTransport = (
  config: CoreBankingHttpOptions
): Effect.Effect<Run, never, Scope.Scope> =>
  Effect.gen(function*() {
    const timeoutMs = Math.max(1, config.timeoutMs)
    const maxConcurrency = Math.max(1, Math.floor(config.maxConcurrency ?? CoreBankingHttpDefaults.maxConcurrency))
    const maxAttempts = Math.max(1, Math.floor(config.maxAttempts ?? CoreBankingHttpDefaults.maxAttempts))
    const retryBaseDelayMs = Math.max(0, config.retryBaseDelayMs ?? CoreBankingHttpDefaults.retryBaseDelayMs)
    // first come, first served, one wake-up per release (concurrency/FairSemaphore.ts)
    const semaphore = yield* makeFairSemaphore(maxConcurrency)

    // no sender for a base URL that is not an http(s) URL: every call is then ProviderMisconfigured
    const base = splitBaseUrl(config.baseUrl)
    const wrap = config.wrapSend ?? ((send: Send) => send)
    const readEnvelope = base === undefined ? undefined : makeReadEnvelope(wrap(yield* makeSender(base, config.token)), timeoutMs)

    const backoff = Schedule.exponential(Duration.millis(retryBaseDelayMs), 2).pipe(
      Schedule.modifyDelay((delay) => Duration.min(delay, MAX_BACKOFF)),
      Schedule.jittered,
      Schedule.intersect(Schedule.recurs(maxAttempts - 1))
    )

    const run = <D, I, A>(call: Call<D, I, A>): Effect.Effect<A, CoreBankingError> => {
      const { operation } = call
      const labels = call.reference === undefined ? { operation } : { operation, reference: call.reference }
      return Effect.suspend(() => {
        if (readEnvelope === undefined) {
          return Effect.fail(new ProviderMisconfigured({ operation, detail: "the provider URL is invalid" }))
        }
        let attempts = 0
        return Effect.flatMap(call.request, (request) => {
          const once = Effect.suspend(() => {
            const attempt = ++attempts
            return Effect.annotateCurrentSpan("attempt", attempt).pipe(
              Effect.zipRight(Effect.logDebug("core banking request")),
              Effect.zipRight(readEnvelope(operation, request)),
              Effect.flatMap((envelope) => classify(call, envelope)),
              Effect.tapErrorTag("Transient", (error) =>
                Effect.logWarning("core banking attempt failed").pipe(
                  Effect.annotateLogs({
                    detail: error.detail,
                    willRetry: call.retry && error.timedOut !== true && attempt < maxAttempts
                  })
                )),
              semaphore.withPermit,
              Effect.annotateLogs("attempt", attempt)
            )
          })
          const attempted = call.retry && maxAttempts > 1
            ? Effect.retry(once, { schedule: backoff, while: (error) => error._tag === "Transient" && error.timedOut !== true })
            : once
          return Effect.catchTag(attempted, "Transient", (error) =>
            Effect.fail(
              new ProviderUnknownOutcome({
                operation,
                detail: `${error.detail} (${attempts} attempt${attempts === 1 ? "" : "s"})`
              })
            ))
        })
      }).pipe(
        Effect.tapBoth({
          onSuccess: () =>
            Effect.annotateCurrentSpan("outcome", "ok").pipe(Effect.zipRight(Effect.logDebug("core banking call succeeded"))),
          onFailure: (failure) => {
            switch (failure._tag) {
              case "ProviderRefused":
                return Effect.annotateCurrentSpan("outcome", `refused:${failure.code}`).pipe(
                  Effect.zipRight(Effect.logDebug("core banking call refused")),
                  Effect.annotateLogs("responseCode", failure.code)
                )
              case "ProviderUnknownOutcome":
                return Effect.annotateCurrentSpan("outcome", "unknown").pipe(
                  Effect.zipRight(Effect.logWarning("core banking outcome unknown")),
                  Effect.annotateLogs("detail", failure.detail)
                )
              case "ProviderMisconfigured":
                return Effect.annotateCurrentSpan("outcome", "misconfigured").pipe(
                  Effect.zipRight(Effect.logWarning("core banking provider misconfigured")),
                  Effect.annotateLogs("detail", failure.detail)
                )
            }
          }
        }),
        Effect.annotateLogs(labels),
        measureProviderCall(operation),
        Effect.withSpan(call.spanName ?? `CoreBanking.${operation}`, { attributes: labels, captureStackTrace: false })
      )
    }

    return run
  })
