import { describe, expect, it } from "@effect/vitest"
import { Clock, Data, Duration, Effect, Metric, MetricLabel } from "effect"
import { measureProviderCall, providerCallDuration, providerCallsTotal } from "../src/ops/Metrics.js"

class ProviderRefused extends Data.TaggedError("ProviderRefused")<{}> {}

/**
 * A clock of the test's own that moves only when told (not the TestClock: in this project's shared
 * worker processes, a top-level `it.effect` may find none; see vitest.config.ts).
 */
const manualClock = () => {
  let nanos = 0n
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeNanos: () => nanos,
    unsafeCurrentTimeMillis: () => Number(nanos / 1_000_000n),
    currentTimeNanos: Effect.sync(() => nanos),
    currentTimeMillis: Effect.sync(() => Number(nanos / 1_000_000n)),
    sleep: () => Effect.void
  }
  const adjust = (by: Duration.DurationInput) => Effect.sync(() => (nanos += Duration.unsafeToNanos(by)))
  return { clock, adjust }
}

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
      const { adjust, clock } = manualClock()
      const value = yield* measureProviderCall(operation)(Effect.as(adjust("250 millis"), 42)).pipe(Effect.withClock(clock))
      expect(value).toBe(42)
      expect(yield* calls(operation, "ok")).toBe(1)
      const timed = yield* durations(operation)
      expect(timed.count).toBe(1)
      expect(timed.sum).toBeCloseTo(0.25, 9)
    }))

  it.effect("a failure is counted by its class and passed through unchanged; a defect and an interruption too", () =>
    Effect.gen(function*() {
      const operation = operationName()
      const { adjust, clock } = manualClock()
      const measure = <A, E extends { readonly _tag: string }>(effect: Effect.Effect<A, E>) =>
        measureProviderCall(operation)(effect).pipe(Effect.withClock(clock))
      const refusal = new ProviderRefused()
      expect(yield* Effect.flip(measure(Effect.zipRight(adjust("1 second"), Effect.fail(refusal))))).toBe(refusal)
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
