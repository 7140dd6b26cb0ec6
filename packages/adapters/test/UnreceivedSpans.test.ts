import { describe, expect, it } from "@effect/vitest"
import { Effect, FiberRef, Tracer } from "effect"
import { spansReceived, withUnreceivedSpansOff } from "../src/ops/UnreceivedSpans.js"

/** A tracer of a test: it receives spans (and hands them to Effect's own). */
const installed = Tracer.make({
  span: (...args) => Effect.runSync(Effect.tracer).span(...args),
  context: (f) => f()
})

const tracerEnabled = FiberRef.get(FiberRef.currentTracerEnabled)

describe("UnreceivedSpans", () => {
  it.effect("Effect's own tracer receives nothing: the effect runs with the tracer off", () =>
    Effect.gen(function*() {
      expect(yield* spansReceived).toBe(false)
      expect(yield* withUnreceivedSpansOff(tracerEnabled)).toBe(false)
      expect(yield* tracerEnabled).toBe(true) // only inside
    }))

  it.effect("with a tracer installed, nothing changes", () =>
    Effect.gen(function*() {
      expect(yield* Effect.withTracer(spansReceived, installed)).toBe(true)
      expect(yield* Effect.withTracer(withUnreceivedSpansOff(tracerEnabled), installed)).toBe(true)
    }))
})
