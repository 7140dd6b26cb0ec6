/**
 * Every request has a time limit (REQUEST_TIMEOUT_MS, default 30 s). Past it the client gets 503
 * REQUEST_TIMEOUT in the envelope (with Retry-After) instead of an open socket, and the request's
 * work is interrupted. A database transaction rolls back; a retry with the same idempotencyKey is
 * safe. Messages already handed to the notifier still go.
 *
 * Two ways, by method:
 * - A request that may move money (any method but GET and HEAD: POST, PATCH, PUT, DELETE…) runs
 *   its work in a fiber of its own, and the answer does not wait for it: the money steps that are
 *   uninterruptible (storing and driving a transfer, Borrow, Extra Cash, closing) run to their end
 *   first, as they do when a client disconnects, and anything a movement leaves is finished or
 *   reversed by the recovery job.
 * - A read (GET, HEAD) has no such step: it runs on the request's own fiber, and at the limit that
 *   fiber's work is interrupted where it is, then answered (after the interruption's finalizers: a
 *   rollback, a connection given back). That saves a fiber per request on the reads that make most
 *   of the traffic (a fork, the copy of its fiber refs and two turns of Effect's scheduler: GET
 *   /health 0.40 → 0.28 ms of CPU, README round 11).
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Exit, type Fiber, FiberId, FiberRef, HashSet, Option } from "effect"
import { matchedRoute } from "./RequestLog.js"
import { apiObjectForUrl } from "../ErrorMiddleware.js"
import { failureResponse, toHttpFailure } from "../shared/Envelope.js"
import { RequestTimedOut } from "./Errors.js"

export const requestTimeout = (timeoutMs: number) => <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    request.method === "GET" || request.method === "HEAD" ? onRequestFiber(app, timeoutMs) : inFiberOfItsOwn(app, timeoutMs))

/** Who interrupts a read at its limit (told apart from a client's disconnect by this id). */
const LIMIT = FiberId.make(-1, 0)

/**
 * A read, on the request's fiber: a Node timer interrupts the fiber at the limit, and the
 * interruption, caught here, becomes the 503. Only the work is made interruptible: the platform
 * runs the rest of a request uninterruptibly, so the fiber goes on to log and write the 503 and
 * close the request's scope. The interruption stays recorded on the fiber, so its own exit, once
 * all that is done, is an interruption; the platform does not look at it (RequestTimeout.test.ts
 * checks that the answer is written after it, EdgeLimits.test.ts through a real server).
 */
const onRequestFiber = <E, R>(app: HttpApp.Default<E, R>, timeoutMs: number): HttpApp.Default<E, R> =>
  Effect.uninterruptible(Effect.withFiberRuntime((fiber) => {
    const timer = setTimeout(() => fiber.unsafeInterruptAsFork(LIMIT), timeoutMs)
    return Effect.flatMap(Effect.exit(Effect.interruptible(app)), (exit) => {
      clearTimeout(timer)
      return Exit.isFailure(exit) && HashSet.has(Cause.interruptors(exit.cause), LIMIT) ? timedOut(timeoutMs) : exit
    })
  }))

/**
 * A request that may move money, in a fiber of its own. The platform runs a request's middleware
 * uninterruptibly; the app and the wait for it are made interruptible here, so the limit and a
 * client's disconnect can cut in.
 */
const inFiberOfItsOwn = <E, R>(app: HttpApp.Default<E, R>, timeoutMs: number): HttpApp.Default<E, R> =>
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
    const response = failureResponse(toHttpFailure(apiObjectForUrl(request.url))(new RequestTimedOut())).pipe(HttpServerResponse.setHeader("retry-after", "5"))
    const handlers = yield* FiberRef.get(HttpApp.currentPreResponseHandlers)
    return Option.isSome(handlers) ? yield* Effect.orElseSucceed(handlers.value(request, response), () => response) : response
  })
