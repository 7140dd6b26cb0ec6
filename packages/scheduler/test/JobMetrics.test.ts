/** `job_runs_total{job,result}` and `job_duration_seconds{job}` from scheduled runs (Jobs.ts). */
import { renderMetrics } from "@app/adapters/ops/Prometheus"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { scheduleJobs } from "../src/Jobs.js"

const valueOf = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe("job metrics", () => {
  it.live("each run counted by result and timed, a failing run as failed", () =>
    Effect.gen(function*() {
      const jobs = scheduleJobs([
        // yearly: only the start-up run happens within the test
        { name: "metrics-ok", schedule: "0 0 1 1 *", run: Effect.sleep("30 millis"), runOnStart: true },
        { name: "metrics-bad", schedule: "0 0 1 1 *", run: Effect.fail("boom"), runOnStart: true }
      ])
      yield* Effect.scoped(Layer.build(jobs).pipe(Effect.zipRight(Effect.sleep("300 millis"))))
      const text = renderMetrics()
      expect(valueOf(text, `job_runs_total{job="metrics-ok",result="ok"}`)).toBe(1)
      expect(valueOf(text, `job_runs_total{job="metrics-bad",result="failed"}`)).toBe(1)
      expect(valueOf(text, `job_runs_total{job="metrics-ok",result="failed"}`)).toBeUndefined()
      expect(valueOf(text, `job_duration_seconds_count{job="metrics-ok"}`)).toBe(1)
      // the 30 ms sleep, in seconds; a timer may fire up to a millisecond early by a high-resolution
      // clock (libuv schedules on its loop time, read once per iteration): 0.02986 was seen in CI
      expect(valueOf(text, `job_duration_seconds_sum{job="metrics-ok"}`)).toBeGreaterThanOrEqual(0.028)
      expect(valueOf(text, `job_duration_seconds_sum{job="metrics-ok"}`)).toBeLessThan(1)
      expect(valueOf(text, `job_duration_seconds_bucket{job="metrics-ok",le="0.005"}`)).toBe(0)
      expect(valueOf(text, `job_duration_seconds_bucket{job="metrics-ok",le="+Inf"}`)).toBe(1)
      expect(valueOf(text, `job_duration_seconds_count{job="metrics-bad"}`)).toBe(1)
    }), 10_000)
})
