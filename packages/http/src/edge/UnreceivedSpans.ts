/**
 * Spans only where something receives them (adapters' ops/UnreceivedSpans.ts). Without
 * OTEL_EXPORTER_OTLP_ENDPOINT no tracer is installed but Effect's own (runtime/Telemetry.ts),
 * which keeps nothing: every span a request made was built and dropped, the platform's
 * `http.server` span first (a URL parsed, the headers redacted, a span and its context provided
 * around the whole request), then one per use case and one per statement.
 * `withoutUnreceivedSpans` serves such a server with the platform's request span off and Effect's
 * tracer disabled (spans are then not made at all: the domain's `Spans`). With a tracer installed
 * (OpenTelemetry, or a test's), nothing changes.
 *
 * The request span was also where the router writes the route it matched (`http.route`), which
 * the request log and metrics read (RequestLog.ts `matchedRoute`): `withRouteRecorder` gives a
 * request without a span one that only records attributes, set on the request's own fiber.
 */
import { HttpMiddleware } from "@effect/platform"
import { spansReceived } from "@app/adapters/ops/UnreceivedSpans"
import { Spans } from "@app/domain"
import { Context, Effect, FiberRef, Layer, Option, Tracer } from "effect"

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
