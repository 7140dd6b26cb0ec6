import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Ref } from "effect"
import { PayoutJobConfig, scheduleJobs } from "../src/Jobs.js"

describe("scheduleJobs", () => {
  it.live("runs on start and on schedule, survives a failing run, and stops with its scope", () =>
    Effect.gen(function*() {
      const good = yield* Ref.make(0)
      const bad = yield* Ref.make(0)
      const jobs = scheduleJobs([
        { name: "good", schedule: "* * * * * *", run: Ref.update(good, (n) => n + 1), runOnStart: true },
        { name: "bad", schedule: "* * * * * *", run: Ref.update(bad, (n) => n + 1).pipe(Effect.zipRight(Effect.fail("boom"))) }
      ])
      yield* Effect.scoped(Layer.build(jobs).pipe(Effect.zipRight(Effect.sleep("2100 millis"))))
      const goodRuns = yield* Ref.get(good)
      const badRuns = yield* Ref.get(bad)
      expect(goodRuns).toBeGreaterThanOrEqual(3) // start + 2 ticks
      expect(badRuns).toBeGreaterThanOrEqual(2) // failed and still ran again
      yield* Effect.sleep("1500 millis")
      expect(yield* Ref.get(good)).toBe(goodRuns) // stopped with the scope
      expect(yield* Ref.get(bad)).toBe(badRuns)
    }), 10_000)

  it.live("a run never overlaps itself", () =>
    Effect.gen(function*() {
      const active = yield* Ref.make(0)
      const maxActive = yield* Ref.make(0)
      const slow = Effect.acquireUseRelease(
        Ref.updateAndGet(active, (n) => n + 1).pipe(Effect.tap((n) => Ref.update(maxActive, (m) => Math.max(m, n)))),
        () => Effect.sleep("2500 millis"),
        () => Ref.update(active, (n) => n - 1)
      )
      const jobs = scheduleJobs([{ name: "slow", schedule: "* * * * * *", run: slow, runOnStart: true }])
      yield* Effect.scoped(Layer.build(jobs).pipe(Effect.zipRight(Effect.sleep("2200 millis"))))
      expect(yield* Ref.get(maxActive)).toBe(1)
      expect(yield* Ref.get(active)).toBe(0) // interrupted and released on stop
    }), 10_000)
})

describe("PayoutJobConfig", () => {
  const load = (env: Record<string, string>) =>
    Effect.withConfigProvider(PayoutJobConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))

  it.effect("every minute, 200 plans a claim, 16 payouts at once by default", () =>
    Effect.gen(function*() {
      expect(yield* load({})).toEqual({ schedule: "* * * * *", batchSize: 200, concurrency: 16 })
      expect(yield* load({ PAYOUT_SCHEDULE: "*/10 * * * * *", PAYOUT_CONCURRENCY: "64" })).toMatchObject({
        schedule: "*/10 * * * * *",
        concurrency: 64
      })
    }))

  it.effect("a pattern croner rejects, or a concurrency of 0, stops start-up with the variable's name", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(load({ PAYOUT_SCHEDULE: "every now", PAYOUT_CONCURRENCY: "0" }))
      expect(String(error)).toContain("PAYOUT_SCHEDULE: must be a croner pattern")
      expect(String(error)).toContain("PAYOUT_CONCURRENCY: must be between 1 and 1000")
    }))
})
