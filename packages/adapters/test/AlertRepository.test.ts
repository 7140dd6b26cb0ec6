/**
 * AlertRepoSql against a real database: PGlite, or PostgreSQL when TEST_DATABASE_URL is set (a fresh
 * database for this file). The concurrency test matters most on PostgreSQL, where the raises really
 * run in parallel on several connections.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { AlertId, Alerts, CustomerId, StaffId, TransactionId } from "@app/domain"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"

const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const at = new Date("2026-01-01T10:00:00.000Z")
const later = (ms: number) => new Date(at.getTime() + ms)

/** A new alert as raiseAlert builds it; a unique dedup key unless one is given. */
const newAlert = (n: Partial<{ dedupKey: string; kind: Alerts.AlertKind; raisedAt: Date; customerId: CustomerId | null }> = {}) => {
  const kind = n.kind ?? "reversal_refused"
  const transactionId = TransactionId.make(randomUUID())
  return new Alerts.StaffAlert({
    id: AlertId.make(randomUUID()),
    kind,
    severity: Alerts.severityOf[kind],
    dedupKey: n.dedupKey ?? `${kind}:${transactionId}`,
    customerId: n.customerId === undefined ? CustomerId.make(randomUUID()) : n.customerId,
    transactionId,
    message: `The bank refused the reversal of movement ${transactionId}: credit it back by hand.`,
    occurrences: 1,
    firstRaisedAt: n.raisedAt ?? at,
    lastRaisedAt: n.raisedAt ?? at,
    acknowledgedAt: null,
    acknowledgedBy: null
  })
}

/** The open alerts among `ids` (other tests of this file share the database). */
const openAmong = (ids: ReadonlyArray<string>) =>
  Effect.map(Effect.flatMap(Alerts.AlertRepo, (repo) => repo.listOpen()), (open) => open.filter((a) => ids.includes(a.id)))

layer(Repos, { timeout: "60 seconds" })(`AlertRepoSql (${describeBackend()})`, (it) => {
  it.effect("raise inserts a new alert and returns it as stored", () =>
    Effect.gen(function*() {
      const repo = yield* Alerts.AlertRepo
      const alert = newAlert({ kind: "provider_unreachable", customerId: null })
      const stored = yield* repo.raise(alert)
      expect(stored).toBeInstanceOf(Alerts.StaffAlert)
      expect(stored).toEqual(alert)
      expect(stored.severity).toBe("warning")
      expect(yield* openAmong([alert.id])).toEqual([alert])
    }))

  it.effect("the same key raised again while open: one alert, occurrences 2, lastRaisedAt moves", () =>
    Effect.gen(function*() {
      const repo = yield* Alerts.AlertRepo
      const first = newAlert()
      yield* repo.raise(first)
      const second = yield* repo.raise(
        new Alerts.StaffAlert({ ...newAlert({ dedupKey: first.dedupKey, raisedAt: later(60_000) }), message: "another text" })
      )
      const expected = new Alerts.StaffAlert({ ...first, occurrences: 2, lastRaisedAt: later(60_000) })
      expect(second).toEqual(expected) // id, message, ids and firstRaisedAt of the first raise
      // a raise stamped earlier (another process's clock) counts but does not move lastRaisedAt back
      const third = yield* repo.raise(newAlert({ dedupKey: first.dedupKey, raisedAt: later(1_000) }))
      expect(third).toEqual(new Alerts.StaffAlert({ ...expected, occurrences: 3 }))
      expect((yield* repo.listOpen()).filter((a) => a.dedupKey === first.dedupKey)).toEqual([third])
    }))

  it.effect("concurrent raises of one key make one open alert counting every raise", () =>
    Effect.gen(function*() {
      const repo = yield* Alerts.AlertRepo
      const dedupKey = `reversal_refused:${randomUUID()}`
      const n = 12
      const results = yield* Effect.all(
        Array.from({ length: n }, (_, i) => repo.raise(newAlert({ dedupKey, raisedAt: later(i) }))),
        { concurrency: "unbounded" }
      )
      const open = (yield* repo.listOpen()).filter((a) => a.dedupKey === dedupKey)
      expect(open).toHaveLength(1)
      expect(open[0]!.occurrences).toBe(n)
      expect(open[0]!.lastRaisedAt).toEqual(later(n - 1))
      expect(new Set(results.map((r) => r.id))).toEqual(new Set([open[0]!.id]))
      expect(results.map((r) => r.occurrences).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1))
    }))

  it.effect("acknowledge once; a raise after it opens a second alert, the first kept as acknowledged", () =>
    Effect.gen(function*() {
      const repo = yield* Alerts.AlertRepo
      const first = newAlert()
      yield* repo.raise(first)
      yield* repo.raise(newAlert({ dedupKey: first.dedupKey, raisedAt: later(1_000) }))

      expect(yield* repo.acknowledge(first.id, StaffId.make("staff-1"), later(2_000))).toBe(true)
      expect(yield* repo.acknowledge(first.id, StaffId.make("staff-2"), later(3_000))).toBe(false)
      expect(yield* repo.acknowledge(AlertId.make(randomUUID()), StaffId.make("staff-1"), later(3_000))).toBe(false)
      expect(yield* openAmong([first.id])).toEqual([])

      const again = newAlert({ dedupKey: first.dedupKey, raisedAt: later(4_000) })
      const stored = yield* repo.raise(again)
      expect(stored).toEqual(again)
      expect(stored.occurrences).toBe(1)
      expect((yield* repo.listOpen()).filter((a) => a.dedupKey === first.dedupKey)).toEqual([again])

      // the acknowledged one is kept, with who and when, and a third raise counts on the new one
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ id: string; occurrences: number; acknowledgedAt: Date | null; acknowledgedBy: string | null }>`
        SELECT id, occurrences, acknowledged_at, acknowledged_by FROM staff_alerts
        WHERE dedup_key = ${first.dedupKey} ORDER BY first_raised_at`
      expect(rows).toEqual([
        { id: first.id, occurrences: 2, acknowledgedAt: later(2_000), acknowledgedBy: "staff-1" },
        { id: again.id, occurrences: 1, acknowledgedAt: null, acknowledgedBy: null }
      ])
      expect((yield* repo.raise(newAlert({ dedupKey: first.dedupKey, raisedAt: later(5_000) }))).id).toBe(again.id)
    }))

  it.effect("listOpen: most recently raised first, then by id; acknowledged ones left out", () =>
    Effect.gen(function*() {
      const repo = yield* Alerts.AlertRepo
      const base = 86_400_000 // a day after the other tests' alerts, so these are the newest
      const a = newAlert({ raisedAt: later(base + 1_000) })
      const b = newAlert({ raisedAt: later(base + 2_000), kind: "lien_removal_refused" })
      const c = newAlert({ raisedAt: later(base + 3_000), kind: "transfer_retries_exhausted" })
      const d = newAlert({ raisedAt: later(base + 3_000) }) // same instant as c: by id, descending
      for (const alert of [a, b, c, d]) yield* repo.raise(alert)
      const ids = [a.id, b.id, c.id, d.id]
      const sameInstant = [c.id, d.id].sort().reverse()
      expect((yield* openAmong(ids)).map((x) => x.id)).toEqual([...sameInstant, b.id, a.id])

      // a new occurrence of the oldest brings it to the top
      yield* repo.raise(newAlert({ dedupKey: a.dedupKey, raisedAt: later(base + 4_000) }))
      expect((yield* openAmong(ids)).map((x) => x.id)).toEqual([a.id, ...sameInstant, b.id])
      // the newest of all open alerts lead the whole list
      expect((yield* repo.listOpen()).slice(0, 4).map((x) => x.id)).toEqual([a.id, ...sameInstant, b.id])

      expect(yield* repo.acknowledge(b.id, StaffId.make("staff-1"), later(base + 5_000))).toBe(true)
      expect((yield* openAmong(ids)).map((x) => x.id)).toEqual([a.id, ...sameInstant])
    }))
})
