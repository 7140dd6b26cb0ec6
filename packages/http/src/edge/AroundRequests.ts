/**
 * What is done around every request, outermost of the edge: its correlation id (Correlation.ts),
 * the security headers and the X-Request-Id header on its answer (SecurityHeaders.ts), its log line
 * (RequestLog.ts) and its metrics (RequestMetrics.ts). One middleware instead of four: each of
 * them read the request, wrapped the answer in an Exit and read the matched route on its own,
 * ~140 steps of Effect's runtime per request for what these ~40 do (measured on GET /health).
 *
 * The headers go on the app's own answers through a pre-response handler (the platform writes
 * those inside the app), and on an answer made by a middleware below without calling the app (the
 * body-size guard, a CORS preflight, the request time limit) here, after it returns. Metrics see
 * every answer, the edge's own included; the log line is written inside the request's log span
 * and correlation id, like every line written while it is handled. The route it logs is the one
 * the router records on the request's span, or on a route recorder without tracing
 * (adapters' ops/UnreceivedSpans.ts).
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { AppEnv } from "@app/adapters"
import { Effect, Exit, FiberRef, HashMap, List, LogSpan } from "effect"
import { correlationIdOf, REQUEST_ID_HEADER } from "./Correlation.js"
import { answerStatus, logAnswer, matchedRoute, REQUEST_LOG_SPAN } from "./RequestLog.js"
import { recordRequest } from "./RequestMetrics.js"
import { isDocsPage, withSecurityHeaders } from "./SecurityHeaders.js"
import { withRouteRecorder } from "@app/adapters/ops/UnreceivedSpans"

export const aroundRequests = (appEnv: AppEnv) => <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.clockWith((clock) => {
      const id = correlationIdOf(request)
      const docs = isDocsPage(request.url)
      const finish = (response: HttpServerResponse.HttpServerResponse) =>
        withSecurityHeaders(HttpServerResponse.setHeader(response, REQUEST_ID_HEADER, id), { appEnv, docs })
      const started = clock.unsafeCurrentTimeNanos()
      // The correlation id and the log span are set on the request's fiber, not around the app
      // (Effect.annotateLogs, Effect.withLogSpan: ~50 steps to restore them afterwards): the
      // platform gives every request a fiber of its own, and what it does after this returns (the
      // answer's writing) is part of the request too.
      return withRouteRecorder.pipe(
        Effect.zipRight(FiberRef.update(FiberRef.currentLogAnnotations, HashMap.set<string, unknown>("correlationId", id))),
        Effect.zipRight(FiberRef.update(FiberRef.currentLogSpan, List.prepend(LogSpan.make(REQUEST_LOG_SPAN, clock.unsafeCurrentTimeMillis())))),
        Effect.zipRight(HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(finish(response)))),
        Effect.zipRight(Effect.exit(app)),
        Effect.flatMap((exit) =>
          Effect.flatMap(matchedRoute, (route) => {
            const status = answerStatus(exit)
            recordRequest(route, request.method, status, Number(clock.unsafeCurrentTimeNanos() - started) / 1e9)
            return Effect.zipRight(logAnswer(request.method, route, status, exit), Exit.isSuccess(exit) ? Effect.succeed(finish(exit.value)) : exit)
          })
        )
      )
    })
  )
