import { describe, expect, it } from "@effect/vitest"
import { Data, Effect, Metric, MetricLabel, TestClock } from "effect"
import { measureProviderCall, providerCallDuration, providerCallsTotal } from "../src/ops/Metrics.js"

class ProviderRefused extends Data.TaggedError("ProviderRefused")<{}> {}

/** Each test its own operation name: the registry is the process's. */
let n = 0
const operationName = () => `test-op-${++n}-${Math.random().toString(36).slice(2, 8)}`

const calls = (operation: string, outcome: string) =>
  Metric.value(Metric.taggedWithLabels(providerCallsTotal, [MetricLabel.make("operation", operation), MetricLabel.make("outcome", outcome)]))
    .pipe(Effect.map((state) => state.count))
const durations = (operation: string) =>
  Metric.value(Metric.taggedWithLabels(providerCallDuration, [MetricLabel.make("operation", operation)]))

describe("measureProviderCall", () => {
  it.effect("a call that succeeds: counted ok, timed on the fiber's clock, its value passed through", () =>
    Effect.gen(function*() {
      const operation = operationName()
      const value = yield* measureProviderCall(operation)(Effect.as(TestClock.adjust("250 millis"), 42))
      expect(value).toBe(42)
      expect(yield* calls(operation, "ok")).toBe(1)
      const timed = yield* durations(operation)
      expect(timed.count).toBe(1)
      expect(timed.sum).toBeCloseTo(0.25, 9)
    }))

  it.effect("a failure is counted by its class and passed through unchanged; a defect and an interruption too", () =>
    Effect.gen(function*() {
      const operation = operationName()
      const measure = measureProviderCall(operation)
      const refusal = new ProviderRefused()
      expect(yield* Effect.flip(measure(Effect.zipRight(TestClock.adjust("1 second"), Effect.fail(refusal))))).toBe(refusal)
      yield* Effect.exit(measure(Effect.die("boom")))
      const interrupted = yield* Effect.exit(measure(Effect.interrupt))
      expect(interrupted._tag).toBe("Failure")
      expect(yield* calls(operation, "refused")).toBe(1)
      expect(yield* calls(operation, "defect")).toBe(1)
      expect(yield* calls(operation, "interrupted")).toBe(1)
      expect(yield* calls(operation, "ok")).toBe(0)
      const timed = yield* durations(operation)
      expect(timed.count).toBe(3)
      expect(timed.sum).toBeCloseTo(1, 9)
    }))
})
