/**
 * Request metrics: `http_requests_total{route,method,status}` and
 * `http_request_duration_seconds{route,method}` for every answered request. `route` is the route
 * template the router matched (`/api/v1/admin/auth/links/:token`), which the router records on the
 * request's span as `http.route` (the `http.server` span, or without tracing a route recorder:
 * adapters' ops/UnreceivedSpans.ts); a request no route matched (a 404, or one refused
 * before routing) is `unmatched`. Never the raw path: it would carry ids, tokens and account numbers,
 * and an unbounded number of series. Recorded around every request by edge/AroundRequests.ts.
 */
import { httpRequestDuration, httpRequestsTotal, unsafeRecord } from "@app/adapters/ops/Metrics"

export { UNMATCHED_ROUTE } from "./RequestLog.js"

/** The methods used as labels; anything else is `other` (a bounded label set). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

/** Records an answered request: its count by route, method and status, and its duration by route and method. */
export const recordRequest = (route: string, requestMethod: string, status: number, seconds: number): void => {
  const method = METHODS.has(requestMethod) ? requestMethod : "other"
  unsafeRecord(httpRequestsTotal, 1, { route, method, status: String(status) })
  unsafeRecord(httpRequestDuration, seconds, { route, method })
}
