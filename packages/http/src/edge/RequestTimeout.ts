/**
 * Every request has a time limit (REQUEST_TIMEOUT_MS, default 30 s). Past it the client gets 503
 * REQUEST_TIMEOUT in the envelope (with Retry-After) instead of an open socket, and the request's
 * work is interrupted in the background (`Effect.disconnect`: the answer does not wait for it). A
 * database transaction rolls back; the money steps that are uninterruptible (storing and driving a
 * transfer, Borrow, Extra Cash) run to their end first, as they do when a client disconnects, and
 * anything a movement leaves is finished or reversed by the recovery job; a retry with the same
 * idempotencyKey is safe. Messages already handed to the notifier still go.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Duration, Effect, FiberRef, Option } from "effect"
import { matchedRoute } from "./RequestLog.js"
import { apiObjectForUrl } from "../ErrorMiddleware.js"
import { failureResponse } from "../shared/Envelope.js"
import { failure } from "../shared/ErrorTable.js"
import { edgeCodes } from "./Errors.js"

export const requestTimeout = (timeoutMs: number) => <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  // The platform runs a request's middleware uninterruptibly; the limit must be able to cut in.
  Effect.interruptible(
    Effect.timeoutTo(Effect.disconnect(app), {
      duration: Duration.millis(timeoutMs),
      onSuccess: Effect.succeed,
      onTimeout: () => timedOut(timeoutMs)
    }).pipe(Effect.flatten)
  )

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
