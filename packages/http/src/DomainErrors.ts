/**
 * Failures → HTTP. Each failure class says its status, code, message and meaning itself (domain:
 * @app/domain's shared/Failure.ts; handler-only ones: `<feature>/Errors.ts` here), so this module
 * only pipes a use case's failures into envelopes of the group's apiObject, logs provider trouble,
 * and adds Retry-After where a failure says when to retry.
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import type { Answerable, CodeOf } from "@app/domain"
import { Effect } from "effect"
import { type HttpFailure, type HttpFailureOf, toHttpFailure } from "./shared/Envelope.js"

export { toHttpFailure }

/** Provider trouble is for operators to see too, not only the client. */
const logProviderTrouble = (e: Answerable & { readonly _tag?: string }) => {
  const f = e as { readonly _tag?: string; readonly operation?: string; readonly detail?: unknown; readonly code?: unknown }
  return f._tag === "ProviderMisconfigured"
    ? Effect.logError("core banking provider misconfigured").pipe(Effect.annotateLogs({ operation: f.operation, detail: f.detail }))
    : f._tag === "ProviderUnknownOutcome"
    ? Effect.logWarning("core banking outcome unknown").pipe(Effect.annotateLogs({ operation: f.operation, detail: f.detail }))
    : f._tag === "ProviderRefused"
    ? Effect.logWarning("core banking refused").pipe(Effect.annotateLogs({ operation: f.operation, code: f.code }))
    : Effect.void
}

/**
 * A failure that says when to retry (`retryAfterSeconds`: cooldowns, lockouts) also answers the
 * standard Retry-After header, in whole seconds.
 */
const retryAfterHeader = (failure: HttpFailure) => {
  const seconds = failure.detail?.retryAfterSeconds
  return typeof seconds === "number"
    ? HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(Math.max(0, Math.ceil(seconds)))))
    )
    : Effect.void
}

/**
 * Pipe a use case through this to turn its failures into envelopes of `apiObject`. The failure type
 * keeps each code, so the handler compiles only where its endpoint declares every one (`errors(…)`).
 */
export const mapDomainErrors = (apiObject: string) =>
  <A, E extends Answerable, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, HttpFailureOf<CodeOf<E>>, R> =>
    Effect.tapError(
      Effect.mapError(Effect.tapError(effect, logProviderTrouble), toHttpFailure(apiObject)),
      retryAfterHeader
    )
