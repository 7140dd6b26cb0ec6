/**
 * One log line per answered request: `Sent HTTP response` with the method, the matched route
 * template (`/api/v1/admin/auth/links/:token`, or `unmatched`) and the status, inside the request's
 * log span (its duration) and correlation id. It replaces @effect/platform's request logger, which
 * writes the raw URL: an admin link token in the path, account numbers in a name-enquiry query and
 * search text would all land in the logs (and, as span events, in exported traces). A failure's
 * cause is logged as the platform does, so a 500 can be traced to its stack here and never in the
 * response.
 */
import { type HttpApp, HttpServerError, HttpServerRequest } from "@effect/platform"
import { Effect, Exit, Option } from "effect"

export const UNMATCHED_ROUTE = "unmatched"

/** The route template the router matched, which it records on the request's `http.server` span. */
export const matchedRoute = Effect.map(Effect.option(Effect.currentSpan), (span) =>
  Option.flatMap(span, (s) => Option.fromNullable(s.attributes.get("http.route"))).pipe(
    Option.filter((r): r is string => typeof r === "string"),
    Option.getOrElse(() => UNMATCHED_ROUTE)
  ))

let counter = 0

export const logRequests = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const exit = yield* Effect.exit(app)
    const route = yield* matchedRoute
    const annotations = { "http.method": request.method, "http.route": route }
    if (Exit.isSuccess(exit)) {
      yield* Effect.annotateLogs(Effect.log("Sent HTTP response"), { ...annotations, "http.status": exit.value.status })
    } else {
      const [response, cause] = HttpServerError.causeResponseStripped(exit.cause)
      yield* Effect.annotateLogs(
        Effect.log(Option.isSome(cause) ? cause.value : "Sent HTTP response"),
        { ...annotations, "http.status": response.status }
      )
    }
    return yield* exit
  }).pipe(Effect.withLogSpan(`http.span.${++counter}`))
