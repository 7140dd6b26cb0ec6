import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Tracer } from "effect"
import { spanOff, tracedSpan, useSpan, withSpan } from "../src/shared/Spans.js"

/** Runs `self` under a span named "outer" (Effect's native tracer), with the tracer on or off. */
const underOuter = <A, E>(self: Effect.Effect<A, E>, tracerEnabled: boolean) =>
  self.pipe(
    Effect.withTracerEnabled(tracerEnabled),
    Effect.withParentSpan(Tracer.externalSpan({ spanId: "outer-span", traceId: "outer-trace" }))
  )

describe("Spans", () => {
  it.effect("withSpan with the tracer on: Effect's span, named, with its attributes, under the outer span", () =>
    Effect.gen(function*() {
      const span = yield* underOuter(Effect.currentSpan.pipe(withSpan("Use.case", { attributes: { id: "a-1" } })), true)
      expect(span.name).toBe("Use.case")
      expect(span.attributes.get("id")).toBe("a-1")
      expect(span.traceId).toBe("outer-trace")
      expect(Option.map(span.parent, (p) => p.spanId)).toEqual(Option.some("outer-span"))
    }))

  it.effect("withSpan with the tracer off: no span made; the effect runs under the outer one", () =>
    Effect.gen(function*() {
      // Effect.withSpan would have made a no-op span named Use.case, the current span inside
      const parent = yield* underOuter(Effect.currentParentSpan.pipe(withSpan("Use.case")), false)
      expect(parent.spanId).toBe("outer-span")
      expect(yield* underOuter(withSpan("Use.case")(Effect.succeed(42)), false)).toBe(42)
    }))

  it.effect("withSpan passes failures through, traced or not", () =>
    Effect.gen(function*() {
      for (const enabled of [true, false]) {
        const exit = yield* Effect.exit(underOuter(withSpan("Use.case")(Effect.fail("refused")), enabled))
        expect(exit).toStrictEqual(Effect.runSync(Effect.exit(Effect.fail("refused"))))
      }
    }))

  it.effect("useSpan with the tracer on: the body is given Effect's span, a client span when asked", () =>
    Effect.gen(function*() {
      const span = yield* underOuter(useSpan("sql.execute", { kind: "client", attributes: { db: "pg" } }, (span) => Effect.succeed(span)), true)
      expect(span).not.toBe(spanOff)
      expect(span.name).toBe("sql.execute")
      expect(span.kind).toBe("client")
      expect(span.attributes.get("db")).toBe("pg")
      expect(span.status._tag).toBe("Ended")
    }))

  it.effect("useSpan with the tracer off: the body is given spanOff, which keeps nothing", () =>
    Effect.gen(function*() {
      const span = yield* underOuter(useSpan("sql.execute", { kind: "client" }, (span) => Effect.succeed(span)), false)
      expect(span).toBe(spanOff)
      span.attribute("attempt", 1)
      expect(spanOff.attributes.size).toBe(0)
    }))

  it.effect("tracedSpan: the current span with the tracer on, none with it off", () =>
    Effect.gen(function*() {
      const on = yield* underOuter(tracedSpan.pipe(withSpan("Transfers.drive")), true)
      expect(Option.map(on, (s) => s.name)).toEqual(Option.some("Transfers.drive"))
      expect(yield* underOuter(tracedSpan.pipe(withSpan("Transfers.drive")), false)).toEqual(Option.none())
    }))
})
