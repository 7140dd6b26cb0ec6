import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Deferred, Effect, FiberRef, HashMap, Layer, Logger, LogLevel, Option, Ref, Tracer } from "effect"
import { isIdle, PayoutJobConfig, scheduleJobs } from "../src/Jobs.js"

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

describe("scheduleJobs: quiet when idle", () => {
  it("a run that did nothing is idle: zeros, empty, nothing returned", () => {
    for (const idle of [undefined, null, 0, 0n, [], {}, { plans: 0, paid: 0, failed: 0 }, { sent: 0, nested: { n: 0 } }, { claimed: 0, at: "x" }]) {
      expect(isIdle(idle), JSON.stringify(idle, (_, v) => (typeof v === "bigint" ? `${v}n` : v))).toBe(true)
    }
    for (const busy of [1, 2n, [1], { plans: 3, paid: 0 }, { nested: { n: 1 } }, { claimed: 0, frozen: 1 }]) {
      expect(isIdle(busy), JSON.stringify(busy, (_, v) => (typeof v === "bigint" ? `${v}n` : v))).toBe(false)
    }
  })

  it.live("an idle job and its schedule log at debug; a run that did something, or failed, at info or error", () =>
    Effect.gen(function*() {
      const lines: Array<{ level: string; message: string; job: unknown }> = []
      const capture = Logger.make(({ annotations, logLevel, message }) => {
        lines.push({
          level: logLevel.label,
          message: String(Array.isArray(message) ? message[0] : message),
          job: Option.getOrUndefined(HashMap.get(annotations, "job"))
        })
      })
      const done = yield* Deferred.make<void>()
      const jobs = scheduleJobs([
        { name: "idle", schedule: "0 0 1 1 *", run: Effect.succeed({ plans: 0, paid: 0 }), runOnStart: true },
        { name: "busy", schedule: "0 0 1 1 *", run: Effect.succeed({ plans: 2, paid: 2 }), runOnStart: true },
        {
          name: "broken",
          schedule: "0 0 1 1 *",
          run: Effect.fail("boom").pipe(Effect.ensuring(Deferred.succeed(done, undefined))),
          runOnStart: true
        }
      ])
      yield* Effect.scoped(Layer.build(jobs).pipe(Effect.zipRight(Deferred.await(done)), Effect.zipRight(Effect.sleep("200 millis")))).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, capture)),
        Logger.withMinimumLogLevel(LogLevel.All)
      )
      const of = (job: string) => lines.filter((l) => l.job === job).map((l) => `${l.level} ${l.message}`)
      expect(of("idle").sort()).toEqual(["DEBUG job finished", "DEBUG job scheduled"])
      expect(of("busy")).toEqual(expect.arrayContaining(["DEBUG job scheduled", "INFO job finished"]))
      expect(of("broken")).toEqual(expect.arrayContaining(["ERROR job failed"]))
    }), 10_000)
})

describe("scheduleJobs: spans", () => {
  /** What a run sees: whether the tracer is on, and the name of the span it runs under. */
  const seenByOneRun = Effect.gen(function*() {
    const seen = yield* Deferred.make<{ readonly tracerEnabled: boolean; readonly span: Option.Option<string> }>()
    const run = Effect.gen(function*() {
      const tracerEnabled = yield* FiberRef.get(FiberRef.currentTracerEnabled)
      const span = yield* Effect.option(Effect.map(Effect.currentSpan, (s) => s.name))
      yield* Deferred.succeed(seen, { tracerEnabled, span })
    })
    const jobs = scheduleJobs([{ name: "probe", schedule: "0 0 1 1 *", run, runOnStart: true }])
    return yield* Effect.scoped(Layer.build(jobs).pipe(Effect.zipRight(Deferred.await(seen))))
  })

  it.live("without a tracer that receives spans, a run has the tracer off and no job span", () =>
    Effect.gen(function*() {
      expect(yield* seenByOneRun).toEqual({ tracerEnabled: false, span: Option.none() })
    }))

  it.live("with a tracer installed, a run has it on, under its job span", () =>
    Effect.gen(function*() {
      const names: Array<string> = []
      const recording = Tracer.make({
        span: (name, parent, context, links, startTime, kind) => {
          names.push(name)
          return Effect.runSync(Effect.tracer).span(name, parent, context, links, startTime, kind)
        },
        context: (f) => f()
      })
      expect(yield* Effect.withTracer(seenByOneRun, recording)).toEqual({ tracerEnabled: true, span: Option.some("job.probe") })
      expect(names).toContain("job.probe")
    }))
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
