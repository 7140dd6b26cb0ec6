/**
 * Saves ~100 µs of CPU per request while nothing receives spans (120 µs → 20 µs with three spans).
 * (`npx tsx bench/devices.ts requests`: a request through HttpApp.toHandled, one use-case span and
 * two statement spans, Effect's own tracer on and the request span made, against this module's
 * settings; medians of 8.)
 *
 * Without OTEL_EXPORTER_OTLP_ENDPOINT no tracer is installed but Effect's own, which keeps nothing
 * (runtime/Telemetry.ts), yet every span was built and dropped: the platform's `http.server` span
 * first (a URL parsed, the headers redacted, a span and its context provided around the whole
 * request), then one per use case and one per statement. Then:
 * - `withoutUnreceivedSpans` serves the HTTP server with the platform's request span off and Effect's
 *   tracer disabled; `withUnreceivedSpansOff` runs a job with Effect's tracer disabled. The domain's
 *   `Spans` then make no span at all (domain shared/Spans.ts).
 * - The request span was also where the router writes the route it matched (`http.route`), which
 *   the request log and metrics read (http edge/RequestLog.ts `matchedRoute`): `withRouteRecorder`
 *   gives a request without a span one that only records attributes, on the request's own fiber.
 * With a tracer installed (OpenTelemetry, or a test's), nothing changes.
 */
import { HttpMiddleware } from "@effect/platform"
import { Spans } from "@app/domain"
import { Context, Effect, FiberRef, Layer, Option, Tracer } from "effect"

/** The tracer of a fiber no tracer was installed for (Effect's default services). */
const effectsOwnTracer = Effect.runSync(Effect.tracer)

/** True when the fiber's tracer is one that receives spans (not Effect's own). */
export const spansReceived: Effect.Effect<boolean> = Effect.map(Effect.tracer, (tracer) => tracer !== effectsOwnTracer)

/** `self` with Effect's tracer off when nothing receives its spans; as it is otherwise. */
export const withUnreceivedSpansOff = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(spansReceived, (received) => (received ? self : Effect.withTracerEnabled(self, false)))

/** The layer as it is when a tracer is installed; else with the request span and Effect's tracer off. */
export const withoutUnreceivedSpans = <A, E, R>(layer: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> =>
  Layer.unwrapEffect(
    Effect.map(spansReceived, (received) =>
      received
        ? layer
        : layer.pipe(
          HttpMiddleware.withTracerDisabledWhen(() => true),
          Layer.locally(FiberRef.currentTracerEnabled, false)
        ))
  )

/** A span that keeps its attributes and nothing else (the domain's `Spans.spanOff` otherwise). */
const routeRecorder = (): Tracer.Span => {
  const attributes = new Map<string, unknown>()
  return {
    ...Spans.spanOff,
    name: "http.server",
    kind: "server",
    attributes,
    attribute: (key, value) => {
      attributes.set(key, value)
    }
  }
}

/**
 * On the request's fiber (not around the app: the platform gives every request a fiber of its
 * own): a route recorder as its span when it has none.
 */
export const withRouteRecorder: Effect.Effect<void> = FiberRef.update(
  FiberRef.currentContext,
  (context) => Option.isSome(Context.getOption(context, Tracer.ParentSpan)) ? context : Context.add(context, Tracer.ParentSpan, routeRecorder())
)
