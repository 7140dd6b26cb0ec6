/**
 * The monthly-spending-reports job as the scheduler runs it, against a real database (PGlite, or
 * PostgreSQL when TEST_DATABASE_URL is set) and the outbox notifier: its schedule (hourly on the 1st
 * to the 3rd, so a scheduler down on the 1st catches up), two runs at once on one layer, and a later
 * run sending nothing again. On PGlite the two runs share its one connection and are serialised, so
 * on PostgreSQL a further test runs them as two processes would: two pools (two SqlClient layers) on
 * one database, racing for the same customers' claims. Exactly one email per customer and month.
 */
import { AppConfigTest, adaptersLayer } from "@app/adapters"
import { TestSqlLayer } from "@app/adapters/testing/TestDatabase"
import { Auth, CustomerId, Spending, SpendingId, SpendingRepo } from "@app/domain"
import { expect, it, layer } from "@effect/vitest"
import { Cron } from "croner"
import { backendPid, onPostgres, secondPoolLayer, type SqlClientLayer } from "@app/adapters/testing/SecondPool"
import { Effect, Layer, Option, Redacted, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { monthlySpendingReportsJob } from "../src/Jobs.js"

const newOutbox = () => path.join(os.tmpdir(), `outbox-spending-job-${randomUUID()}.jsonl`)
/** The adapters on `sql`, with the notifier writing to `outbox`. */
const adaptersOn = (sql: SqlClientLayer, outbox: string) =>
  adaptersLayer(sql).pipe(Layer.provideMerge(AppConfigTest({ notifyOutboxFile: Option.some(outbox) })))

const outboxFile = newOutbox()
const Adapters = adaptersOn(TestSqlLayer, outboxFile)

const reportsSent = (file = outboxFile): ReadonlyArray<{ to: string; subject: string; attachments?: ReadonlyArray<{ filename: string }> }> =>
  fs.existsSync(file)
    ? fs.readFileSync(file, "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l))
      .filter((m: { kind: string }) => m.kind === "spending_report")
    : []

const customer = (email: string) =>
  Effect.map(Auth.register({ email, password: Redacted.make("a long enough password") }), (r) => r.customer.id)

const spend = (customerId: CustomerId, date: string) =>
  Effect.flatMap(SpendingRepo, (repo) => {
    const at = new Date("2026-11-15T10:00:00Z")
    return repo.add(new Spending({ id: SpendingId.make(randomUUID()), customerId, amountKobo: 12_345n, category: "food", description: null, date, createdAt: at, updatedAt: at }))
  })

layer(Adapters, { timeout: "60 seconds" })("monthly-spending-reports job", (it) => {
  it("fires hourly from 06:00 to 23:00 Africa/Lagos (05:00–22:00 UTC) on the 1st to the 3rd, and on no other day", () => {
    const cron = new Cron(monthlySpendingReportsJob.schedule, { timezone: "UTC", paused: true })
    expect(monthlySpendingReportsJob.schedule).toBe("0 5-22 1-3 * *")
    expect(cron.nextRun(new Date("2026-11-30T12:00:00Z"))?.toISOString()).toBe("2026-12-01T05:00:00.000Z")
    expect(cron.nextRun(new Date("2026-12-01T05:00:00Z"))?.toISOString()).toBe("2026-12-01T06:00:00.000Z")
    // a scheduler down all day on the 1st still has the 2nd and the 3rd
    expect(cron.nextRun(new Date("2026-12-01T22:00:00Z"))?.toISOString()).toBe("2026-12-02T05:00:00.000Z")
    expect(cron.nextRun(new Date("2026-12-02T22:30:00Z"))?.toISOString()).toBe("2026-12-03T05:00:00.000Z")
    expect(cron.nextRun(new Date("2026-12-03T22:00:00Z"))?.toISOString()).toBe("2027-01-01T05:00:00.000Z")
    // every run of a month: 18 an hour-slot a day, on days 1 to 3 only
    const runs = cron.nextRuns(100, new Date("2026-11-30T23:59:00Z")).filter((d) => d < new Date("2027-01-01T00:00:00Z"))
    expect(runs).toHaveLength(3 * 18)
    expect(new Set(runs.map((d) => d.getUTCDate()))).toEqual(new Set([1, 2, 3]))
    expect(new Set(runs.map((d) => d.getUTCHours()))).toEqual(new Set(Array.from({ length: 18 }, (_, i) => 5 + i)))
    cron.stop()
  })

  it.effect("two runs at once: one email per customer and month; runs after that send nothing", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-11-15T10:00:00Z"))
      const tag = randomUUID().slice(0, 8)
      const emails = Array.from({ length: 5 }, (_, i) => `job-${tag}-${i}@example.com`)
      for (const [i, email] of emails.entries()) {
        const id = yield* customer(email)
        yield* spend(id, i % 2 === 0 ? "2026-11-01" : "2026-11-30")
        yield* spend(id, "2026-11-15")
      }
      const october = yield* customer(`job-${tag}-october@example.com`)
      yield* spend(october, "2026-10-31")
      // 05:00 UTC on 1 December: two scheduler processes fire at once
      yield* TestClock.setTime(Date.parse("2026-12-01T05:00:00Z"))
      const [a, b] = yield* Effect.all([monthlySpendingReportsJob.run, monthlySpendingReportsJob.run], { concurrency: 2 })
      expect(a.month).toBe("2026-11")
      expect(a.sent + b.sent).toBe(5)
      const sent = reportsSent()
      expect(sent.map((m) => m.to).sort()).toEqual([...emails].sort())
      for (const m of sent) {
        expect(m.subject).toBe("Your spending report for November 2026")
        expect(m.attachments?.map((f) => f.filename)).toEqual(["spendings-2026-11.csv"])
      }
      // the next hourly run
      yield* TestClock.setTime(Date.parse("2026-12-01T06:00:00Z"))
      expect(yield* monthlySpendingReportsJob.run).toEqual({ month: "2026-11", sent: 0, skipped: 0, failed: 0 })
      expect(reportsSent().length).toBe(5)
    }))
})

/**
 * Two scheduler processes: each its own adapters on its own pool, both on one PostgreSQL database.
 * Only with TEST_DATABASE_URL (skipped on PGlite, which has one connection and no second pool).
 */
it.effect.runIf(onPostgres())(
  "on PostgreSQL, two processes with two pools on one database, running at once: exactly one email per customer-month",
  () =>
    Effect.gen(function*() {
      const outbox = newOutbox()
      const first = yield* Layer.build(adaptersOn(TestSqlLayer, outbox))
      const second = yield* Layer.build(adaptersOn(yield* Effect.provide(secondPoolLayer, first), outbox))
      // two pools: two different server connections
      expect(yield* Effect.provide(backendPid, first)).not.toBe(yield* Effect.provide(backendPid, second))

      yield* TestClock.setTime(Date.parse("2026-11-15T10:00:00Z"))
      const emails = Array.from({ length: 40 }, (_, i) => `pools-${i}@example.com`)
      yield* Effect.forEach(emails, (email, i) =>
        Effect.flatMap(customer(email), (id) => spend(id, `2026-11-${String(1 + (i % 30)).padStart(2, "0")}`)), { concurrency: 4 }).pipe(
          Effect.provide(first)
        )
      yield* TestClock.setTime(Date.parse("2026-12-01T05:00:00Z"))
      const [a, b] = yield* Effect.all([
        Effect.provide(monthlySpendingReportsJob.run, first),
        Effect.provide(monthlySpendingReportsJob.run, second)
      ], { concurrency: 2 })
      expect([a.month, b.month]).toEqual(["2026-11", "2026-11"])
      expect(a.failed + b.failed).toBe(0)
      expect(a.sent + b.sent).toBe(emails.length)
      const sent = reportsSent(outbox)
      expect(sent.map((m) => m.to).sort()).toEqual([...emails].sort())
      // a catch-up run on the 2nd, from either process, sends nothing again
      yield* TestClock.setTime(Date.parse("2026-12-02T05:00:00Z"))
      expect(yield* Effect.provide(monthlySpendingReportsJob.run, second)).toEqual({ month: "2026-11", sent: 0, skipped: 0, failed: 0 })
      expect(reportsSent(outbox)).toHaveLength(emails.length)
    }).pipe(Effect.scoped),
  60_000
)
