/**
 * Spans only where something receives them (adapters' ops/UnreceivedSpans.ts): without a tracer of its own
 * a served layer runs with the platform's request span and Effect's tracer off; with one, as it
 * is. The route recorder stands in for a missing request span, and only then.
 */
import { HttpMiddleware, HttpServerRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, FiberRef, Layer, Option, Ref, Tracer } from "effect"
import { withoutUnreceivedSpans, withRouteRecorder } from "@app/adapters/ops/UnreceivedSpans"

const request = HttpServerRequest.fromWeb(new Request("http://localhost/api/v1/customers/me"))

/** What a layer built inside `withoutUnreceivedSpans` sees: tracer enabled, request span disabled. */
const seenInside = (outer: Layer.Layer<never>) =>
  Effect.gen(function*() {
    const seen = yield* Ref.make({ tracerEnabled: true, requestSpanDisabled: true })
    const inner = Layer.effectDiscard(
      Effect.gen(function*() {
        const tracerEnabled = yield* FiberRef.get(FiberRef.currentTracerEnabled)
        const disabledWhen = yield* FiberRef.get(HttpMiddleware.currentTracerDisabledWhen)
        yield* Ref.set(seen, { tracerEnabled, requestSpanDisabled: disabledWhen(request) })
      })
    )
    yield* Layer.build(withoutUnreceivedSpans(inner).pipe(Layer.provide(outer))).pipe(Effect.scoped)
    return yield* Ref.get(seen)
  })

describe("withoutUnreceivedSpans", () => {
  it.effect("no tracer but Effect's own: the request span and Effect's tracer are off", () =>
    Effect.gen(function*() {
      expect(yield* seenInside(Layer.empty)).toEqual({ tracerEnabled: false, requestSpanDisabled: true })
    }))

  it.effect("a tracer installed: spans as before", () =>
    Effect.gen(function*() {
      const tracer = Tracer.make({ span: () => { throw new Error("not called") }, context: (f) => f() })
      expect(yield* seenInside(Layer.setTracer(tracer))).toEqual({ tracerEnabled: true, requestSpanDisabled: false })
    }))
})

describe("withRouteRecorder", () => {
  it.effect("a request without a span gets one that records the router's attributes", () =>
    Effect.gen(function*() {
      expect(Option.isNone(yield* Effect.option(Effect.currentParentSpan))).toBe(true)
      yield* withRouteRecorder
      const span = yield* Effect.currentParentSpan
      expect(span._tag).toBe("Span")
      if (span._tag === "Span") {
        span.attribute("http.route", "/api/v1/customers/me")
        expect((yield* Effect.currentSpan).attributes.get("http.route")).toBe("/api/v1/customers/me")
      }
    }))

  it.effect("a request with a span keeps it", () =>
    Effect.gen(function*() {
      const before = yield* Effect.currentSpan
      yield* withRouteRecorder
      expect(yield* Effect.currentSpan).toBe(before)
    }).pipe(Effect.withSpan("http.server")))
})
