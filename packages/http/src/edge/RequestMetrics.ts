/**
 * Request metrics: `http_requests_total{route,method,status}` and
 * `http_request_duration_seconds{route,method}` for every answered request. `route` is the route
 * template the router matched (`/api/v1/admin/auth/links/:token`), which the router records on the
 * request's `http.server` span as `http.route`; a request no route matched (a 404, or one refused
 * before routing) is `unmatched`. Never the raw path: it would carry ids, tokens and account numbers,
 * and an unbounded number of series.
 */
import { type HttpApp, HttpServerError, HttpServerRequest } from "@effect/platform"
import { count, httpRequestDuration, httpRequestsTotal, observeSeconds } from "@app/adapters/ops/Metrics"
import { Effect, Exit } from "effect"
import { matchedRoute } from "./RequestLog.js"

export { UNMATCHED_ROUTE } from "./RequestLog.js"

/** The methods used as labels; anything else is `other` (a bounded label set). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

export const observeRequests = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const [took, exit] = yield* Effect.timed(Effect.exit(app))
    const route = yield* matchedRoute
    const method = METHODS.has(request.method) ? request.method : "other"
    const status = Exit.isSuccess(exit) ? exit.value.status : HttpServerError.exitResponse(exit).status
    yield* count(httpRequestsTotal, { route, method, status: String(status) })
    yield* observeSeconds(httpRequestDuration, { route, method }, took)
    return yield* exit
  })
