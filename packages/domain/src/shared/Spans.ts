/**
 * Saves 16 µs of CPU per span while nothing receives spans (Effect.withSpan 16.4 µs, here 0.2 µs).
 * (`npx tsx bench/devices.ts spans`: a span around a small effect, Effect's tracer off; medians.)
 *
 * The service's one way to make a span (never `Effect.withSpan`/`Effect.useSpan` directly). Without a
 * tracer installed the server and the scheduler turn Effect's tracer off (adapters'
 * ops/UnreceivedSpans.ts); `Effect.withSpan` would still build a no-op span, run the effect under
 * `onExit` to end it and provide it as the parent span. `withSpan` and `useSpan` here are Effect's
 * when the tracer is on and step aside when it is off (one read of the flag). With the tracer on the
 * span is the same (name, attributes, kind, parent), without a captured stack trace: the name says
 * where it is made.
 */
import { Context, Effect, FiberRef, Option, type Tracer } from "effect"

/** The span `useSpan` hands its body when tracing is off: keeps nothing, like Effect's no-op span. */
export const spanOff: Tracer.Span = {
  _tag: "Span",
  name: "off",
  spanId: "",
  traceId: "",
  parent: Option.none(),
  context: Context.empty(),
  status: { _tag: "Started", startTime: 0n },
  attributes: new Map(),
  links: [],
  sampled: false,
  kind: "internal",
  end: () => {},
  attribute: () => {},
  event: () => {},
  addLinks: () => {}
}

const withoutStackTrace = (options: Tracer.SpanOptions | undefined): Tracer.SpanOptions =>
  options?.captureStackTrace === false ? options : { ...options, captureStackTrace: false }

/** `Effect.withSpan(name, options)` when the tracer is on; the effect as it is when it is off. */
export const withSpan = (name: string, options?: Tracer.SpanOptions) => {
  const spanOptions = withoutStackTrace(options)
  return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiberRuntime((fiber) => fiber.getFiberRef(FiberRef.currentTracerEnabled) ? Effect.withSpan(self, name, spanOptions) : self)
}

/**
 * `Effect.useSpan(name, options, evaluate)` when the tracer is on; `evaluate(spanOff)` when it is
 * off (its attributes and events go nowhere, as on Effect's no-op span).
 */
export const useSpan = <A, E, R>(
  name: string,
  options: Tracer.SpanOptions,
  evaluate: (span: Tracer.Span) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> => {
  const spanOptions = withoutStackTrace(options)
  return Effect.withFiberRuntime((fiber) =>
    fiber.getFiberRef(FiberRef.currentTracerEnabled) ? Effect.useSpan(name, spanOptions, evaluate) : evaluate(spanOff)
  )
}

/**
 * The span the fiber runs under, when the tracer is on (`Effect.currentSpan`); none when it is off,
 * so nothing is written on an outer span that `withSpan` did not replace.
 */
export const tracedSpan: Effect.Effect<Option.Option<Tracer.Span>> = Effect.flatMap(
  FiberRef.get(FiberRef.currentTracerEnabled),
  (enabled) => (enabled ? Effect.option(Effect.currentSpan) : Effect.succeed(Option.none()))
)
