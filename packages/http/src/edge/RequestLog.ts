/**
 * One log line per answered request: `Sent HTTP response` with the method, the matched route
 * template (`/api/v1/admin/auth/links/:token`, or `unmatched`) and the status, inside the request's
 * log span (its duration) and correlation id. It replaces @effect/platform's request logger, which
 * writes the raw URL: an admin link token in the path, account numbers in a name-enquiry query and
 * search text would all land in the logs (and, as span events, in exported traces). A failure's
 * cause is logged as the platform does, so a 500 can be traced to its stack here and never in the
 * response. Written around every request by edge/AroundRequests.ts.
 */
import { HttpServerError, type HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Exit, FiberRef, HashMap, HashSet, Option } from "effect"

export const UNMATCHED_ROUTE = "unmatched"

/**
 * The route template the router matched, which it records on the request's span: the
 * `http.server` span, or without tracing a route recorder (adapters' ops/UnreceivedSpans.ts).
 */
export const matchedRoute = Effect.map(Effect.option(Effect.currentSpan), (span) =>
  Option.flatMap(span, (s) => Option.fromNullable(s.attributes.get("http.route"))).pipe(
    Option.filter((r): r is string => typeof r === "string"),
    Option.getOrElse(() => UNMATCHED_ROUTE)
  ))

/** Log spans are named by their label; every request's is this one (`http.span.1=4ms` on its lines). */
export const REQUEST_LOG_SPAN = "http.span.1"

/**
 * The status a request is counted and logged with: its answer's, or for a failure the one the
 * platform answers it with; a request interrupted without an answer is 499 when the client went
 * away and 503 when the server stopped it (the platform's own codes), not the 500 of a failure.
 */
export const answerStatus = <E>(exit: Exit.Exit<HttpServerResponse.HttpServerResponse, E>): number =>
  Exit.isSuccess(exit)
    ? exit.value.status
    : Cause.isInterruptedOnly(exit.cause)
    ? HashSet.has(Cause.interruptors(exit.cause), HttpServerError.clientAbortFiberId) ? 499 : 503
    : HttpServerError.exitResponse(exit).status

/**
 * The request's log line, once it is answered, with `answerStatus`: its route and status, and for
 * a failure the cause as the platform logs it. Run on the request's own fiber, inside its log span
 * and correlation id; the annotations are set on that fiber (not around the line, which took ~20
 * steps of Effect's runtime to restore them), whose work ends with the answer.
 */
export const logAnswer = <E>(
  method: string,
  route: string,
  status: number,
  exit: Exit.Exit<HttpServerResponse.HttpServerResponse, E>
): Effect.Effect<void> => {
  const logged = Exit.isSuccess(exit) ? Option.none() : HttpServerError.causeResponseStripped(exit.cause)[1]
  return FiberRef.update(FiberRef.currentLogAnnotations, (annotations) =>
    HashMap.set(HashMap.set(HashMap.set(annotations, "http.method", method), "http.route", route), "http.status", status)).pipe(
    Effect.zipRight(Effect.log(Option.isSome(logged) ? logged.value : "Sent HTTP response"))
  )
}
