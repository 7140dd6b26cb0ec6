/**
 * Every request gets a correlation id: the caller's `X-Request-Id` when it is a plausible one (8 to
 * 128 of letters, digits, `.`, `_`, `-`: a proxy or a client may set it), else a new UUID. It is
 * annotated on every log line written while the request is handled (the request log included,
 * JSON in production), echoed in the `X-Request-Id` response header, and is the `correlationId` of
 * a 500 envelope, so a customer's quote, the response and the logs all name the same request.
 * Applied around every request by edge/AroundRequests.ts.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect, FiberRef, HashMap, Option } from "effect"

export const REQUEST_ID_HEADER = "x-request-id"
const PLAUSIBLE = /^[A-Za-z0-9._-]{8,128}$/

/** The correlation id of the request being handled (a new UUID outside one). */
export const currentCorrelationId = Effect.map(FiberRef.get(FiberRef.currentLogAnnotations), (annotations) =>
  Option.match(HashMap.get(annotations, "correlationId"), {
    onNone: () => crypto.randomUUID(),
    onSome: (id) => String(id)
  }))

/** The request's correlation id: its plausible `X-Request-Id`, else a new UUID. */
export const correlationIdOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const given = request.headers[REQUEST_ID_HEADER]
  return given !== undefined && PLAUSIBLE.test(given) ? given : crypto.randomUUID()
}
