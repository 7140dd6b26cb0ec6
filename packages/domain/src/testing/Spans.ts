/**
 * For tests of every package: the spans an effect makes, recorded while Effect's own tracer still
 * makes them (parents, attributes, events and ends as in production).
 *
 *   const tracing = yield* captureSpans
 *   yield* tracing.run(effect)
 *   tracing.spans.filter((s) => s.name === "…")
 */
import { Effect, Tracer } from "effect"

export const captureSpans = Effect.gen(function*() {
  const native = yield* Effect.tracer
  const spans: Array<Tracer.Span> = []
  const tracer = Tracer.make({
    span: (name, parent, context, links, startTime, kind, options) => {
      const span = native.span(name, parent, context, links, startTime, kind, options)
      spans.push(span)
      return span
    },
    context: (f, fiber) => native.context(f, fiber)
  })
  return { spans, run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.withTracer(effect, tracer) }
})
