/**
 * The HTTP of the provider adapter (`HttpCoreBanking.ts`): one request sent, its answer read as text,
 * within a timeout. Everything else (retries, permits, classification, spans, logs) is the
 * transport's (`Transport.ts`, `Attempt.ts`).
 *
 * It is undici's `Pool` for the provider's origin, called directly. The adapter used to go through
 * `@effect/platform`'s HttpClient (on the same undici), with `Effect.timeoutFail` around each
 * attempt: about 300 µs of our CPU per provider call in all, where undici alone takes about 35. Here
 * a request is one `Effect.async` whose own timer aborts it, and the whole call (permit, retry
 * policy, span, metrics, classification) cost about 115 µs (round 5). Since round 7 the transport
 * runs a call in ~55 steps of Effect's runtime instead of ~200 (Transport.ts): with an instant
 * sender, 29 µs per call against 84 before, on the same machine. A payout makes 8 provider calls
 * (README, Benchmarks).
 *
 * Failures are all transient (the transport decides whether to retry): the connection's own error
 * code (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET…), an answer whose body could not be read, or no
 * answer within the timeout (`timedOut`). An interrupted call aborts its request. Nothing here logs,
 * and the token goes only into the Authorization header.
 */
import { Data, Effect, Redacted, type Scope } from "effect"
import { EventEmitter } from "node:events"
import { Pool } from "undici"

/** A failure of one attempt that may be retried when the call is safe to repeat. */
export class Transient extends Data.TaggedError("Transient")<{ readonly detail: string; readonly timedOut?: boolean }> {}

/** A request to the provider: its method, its path (with the query) under the base URL, its JSON body. */
export interface WireRequest {
  readonly method: "GET" | "POST"
  readonly path: string
  /** the JSON text of the body, when it has one */
  readonly body?: string
}

/** What came back: the HTTP status and the body as text. */
export interface WireAnswer {
  readonly status: number
  readonly text: string
}

/** Sends one request and reads its answer within `timeoutMs`. */
export type Send = (request: WireRequest, timeoutMs: number) => Effect.Effect<WireAnswer, Transient>

/** An abort signal as undici accepts it (`aborted`, then one "abort" event). */
class AbortEmitter extends EventEmitter {
  aborted = false
  fire() {
    if (this.aborted) return
    this.aborted = true
    this.emit("abort")
  }
}

/** The base URL split for a Pool: its origin, and the path every request path goes under. */
export const splitBaseUrl = (baseUrl: string): { readonly origin: string; readonly prefix: string } | undefined => {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    return undefined
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, "") }
}

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

/**
 * The sender for `origin` (see `splitBaseUrl`), with the bearer token on every request. Its Pool
 * (keep-alive connections, as many as the calls in flight) is closed with the scope.
 */
export const makeSender = (
  base: { readonly origin: string; readonly prefix: string },
  token: Redacted.Redacted<string>
): Effect.Effect<Send, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => new Pool(base.origin)),
      (pool) => Effect.promise(() => pool.destroy().catch(() => undefined))
    ),
    (pool): Send => {
      const plain = { authorization: `Bearer ${Redacted.value(token)}`, accept: "application/json" }
      const json = { ...plain, "content-type": "application/json" }
      return (request, timeoutMs) =>
        Effect.async<WireAnswer, Transient>((resume) => {
          // undici takes an EventEmitter as the abort signal: an AbortController (an EventTarget)
          // cost ~1% of the service's CPU under bench:payouts, to make and to listen to
          const abort = new AbortEmitter()
          let settled = false
          const settle = (outcome: Effect.Effect<WireAnswer, Transient>) => {
            if (settled) return
            settled = true
            clearTimeout(timer)
            resume(outcome)
          }
          const timer = setTimeout(() => {
            settle(Effect.fail(new Transient({ detail: `no answer within ${timeoutMs} ms`, timedOut: true })))
            abort.fire()
          }, timeoutMs)
          pool.request({
            path: base.prefix + request.path,
            method: request.method,
            headers: request.body === undefined ? plain : json,
            body: request.body ?? null,
            signal: abort
          }).then(
            (response) =>
              response.body.text().then(
                (text) => settle(Effect.succeed({ status: response.statusCode, text })),
                () => settle(Effect.fail(new Transient({ detail: "the answer could not be read" })))
              ),
            (error: unknown) => {
              const code = transportCode(error)
              settle(Effect.fail(new Transient({ detail: `connection failed${code === undefined ? "" : ` (${code})`}` })))
            }
          )
          // interrupted: the request is abandoned and its connection closed
          return Effect.sync(() => {
            settled = true
            clearTimeout(timer)
            abort.fire()
          })
        })
    }
  )
