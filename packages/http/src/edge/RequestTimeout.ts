/**
 * Every request has a time limit (REQUEST_TIMEOUT_MS, default 30 s). Past it the client gets 503
 * REQUEST_TIMEOUT in the envelope (with Retry-After) instead of an open socket, and the request's
 * work is interrupted in the background (it runs in a fiber of its own: the answer does not wait
 * for it). A database transaction rolls back; the money steps that are uninterruptible (storing and
 * driving a transfer, Borrow, Extra Cash) run to their end first, as they do when a client
 * disconnects, and anything a movement leaves is finished or reversed by the recovery job; a retry
 * with the same idempotencyKey is safe. Messages already handed to the notifier still go.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Exit, type Fiber, FiberRef, Option } from "effect"
import { matchedRoute } from "./RequestLog.js"
import { apiObjectForUrl } from "../ErrorMiddleware.js"
import { failureResponse } from "../shared/Envelope.js"
import { failure } from "../shared/ErrorTable.js"
import { edgeCodes } from "./Errors.js"

export const requestTimeout = (timeoutMs: number) => <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  // The platform runs a request's middleware uninterruptibly; the app and the wait for it are made
  // interruptible here, so the limit and a client's disconnect can cut in.
  Effect.uninterruptible(Effect.fiberIdWith((requestFiber) =>
    Effect.flatMap(Effect.forkDaemon(Effect.interruptible(app)), (work) =>
      Effect.flatMap(Effect.exit(Effect.interruptible(within(work, timeoutMs))), (waited) => {
        if (Exit.isFailure(waited)) {
          // the request was interrupted (the client went away): the work is interrupted in the
          // background, as Effect.disconnect would
          work.unsafeInterruptAsFork(requestFiber)
          return Effect.failCause(waited.cause)
        }
        if (waited.value === TIMED_OUT) {
          work.unsafeInterruptAsFork(requestFiber)
          return timedOut(timeoutMs)
        }
        return Effect.zipRight(answerRefsOf(work), waited.value)
      })
    )
  ))

const TIMED_OUT = Symbol("timed out")

/**
 * What the work set that the request reads after it, brought back to the request's fiber: the
 * pre-response handlers the platform applies to the answer (a cookie, Retry-After) and the log
 * annotations of the request's line. Only these two: Fiber.inheritAll diffed and patched every
 * fiber ref for them (the context of ~65 services among them).
 */
const answerRefsOf = (work: Fiber.RuntimeFiber<unknown, unknown>) =>
  Effect.zipRight(
    FiberRef.set(HttpApp.currentPreResponseHandlers, work.getFiberRef(HttpApp.currentPreResponseHandlers)),
    FiberRef.set(FiberRef.currentLogAnnotations, work.getFiberRef(FiberRef.currentLogAnnotations))
  )

/**
 * The work's exit, or TIMED_OUT once `ms` have passed: one timer and one observer on the work's
 * fiber. (Effect.timeoutTo over Effect.disconnect, which this replaces, forked three fibers per
 * request to race a sleep: about a third of the edge's cost on a short request.) The timer is
 * Node's: the limit is the server's wall time, not domain time, and its tests run on real time.
 */
const within = <A, E>(work: Fiber.RuntimeFiber<A, E>, ms: number) =>
  Effect.async<Exit.Exit<A, E> | typeof TIMED_OUT>((resume) => {
    const observer = (exit: Exit.Exit<A, E>) => {
      clearTimeout(timer)
      resume(Effect.succeed(exit))
    }
    const timer = setTimeout(() => {
      work.removeObserver(observer)
      resume(Effect.succeed(TIMED_OUT))
    }, ms)
    work.addObserver(observer)
    return Effect.sync(() => {
      clearTimeout(timer)
      work.removeObserver(observer)
    })
  })

/**
 * The 503. The app's own answer would have gone through the pre-response handlers registered so
 * far (CORS, security headers); this one is written by the server after the middleware returns, so
 * it applies them itself, and a browser can read it.
 */
const timedOut = (timeoutMs: number) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    // the route template, never the raw URL (a link token, an account number: see RequestLog.ts)
    yield* Effect.logWarning("request timed out").pipe(
      Effect.annotateLogs({ "http.method": request.method, "http.route": yield* matchedRoute, timeoutMs })
    )
    const response = failureResponse(
      failure(edgeCodes, "REQUEST_TIMEOUT", apiObjectForUrl(request.url), "The request took too long; please retry later")
    ).pipe(HttpServerResponse.setHeader("retry-after", "5"))
    const handlers = yield* FiberRef.get(HttpApp.currentPreResponseHandlers)
    return Option.isSome(handlers) ? yield* Effect.orElseSucceed(handlers.value(request, response), () => response) : response
  })
