/**
 * The one throttle store (ThrottleStoreSql, table `throttles`, migration 0040) on a real database
 * (PGlite, or PostgreSQL when TEST_DATABASE_URL is set): the per-customer budgets (BVN failures,
 * name enquiries) live in the same table as the sign-in and one-time-code throttles, a concurrent
 * burst on one budget runs exactly its limit, a refund gives a try back and lifts the block it
 * started; 0040 carried the attempts counted in 0033's `customer_attempts` over as counts.
 */
import { expect, layer } from "@effect/vitest"
import { Throttle } from "@app/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { carryAttempts } from "../src/migrations/0040_one_throttle_table.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"

const Store = () => adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const rowOf = (key: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ tries: number; blockedUntil: Date | string | null }>`SELECT tries, blocked_until FROM throttles WHERE key = ${key}`).pipe(Effect.orDie)

layer(Store(), { timeout: "60 seconds" })(`the one throttle store (${describeBackend()})`, (it) => {
  it.effect("per-customer budgets are rows of `throttles`; 0033's table is gone", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const tables = yield* sql<{ name: string }>`
        SELECT table_name AS name FROM information_schema.tables
        WHERE table_name IN ('throttles', 'auth_throttles', 'customer_attempts')`
      expect(tables.map((t) => t.name)).toEqual(["throttles"])
      const customer = randomUUID()
      yield* Throttle.reserveAttempt(customer, "name_enquiry")
      yield* Throttle.reserveAttempt(customer, "bvn_verification_failure")
      expect((yield* rowOf(`ne:${customer}`))[0]?.tries).toBe(1)
      expect((yield* rowOf(`bvn:${customer}`))[0]?.tries).toBe(1)
    }))

  it.effect("a burst of 40 name enquiries of one customer runs exactly 30; the rest are TooManyAttempts for about an hour", () =>
    Effect.gen(function*() {
      const customer = randomUUID()
      const outcomes = yield* Effect.all(
        Array.from({ length: 40 }, () => Effect.either(Throttle.reserveAttempt(customer, "name_enquiry"))),
        { concurrency: "unbounded" }
      )
      expect(outcomes.filter((o) => o._tag === "Right").length).toBe(30)
      const refused = outcomes.flatMap((o) => (o._tag === "Left" ? [o.left] : []))
      expect(refused.length).toBe(10)
      for (const e of refused) {
        expect(e).toMatchObject({ _tag: "TooManyAttempts", kind: "name_enquiry", max: 30 })
        expect(e.retryAfterSeconds).toBeGreaterThan(3500)
        expect(e.retryAfterSeconds).toBeLessThanOrEqual(3600)
      }
    }))

  it.effect("BVN: a released try gives its count back and lifts the block it started", () =>
    Effect.gen(function*() {
      const customer = randomUUID()
      yield* Throttle.reserveAttempt(customer, "bvn_verification_failure")
      yield* Throttle.reserveAttempt(customer, "bvn_verification_failure")
      const third = yield* Throttle.reserveAttempt(customer, "bvn_verification_failure")
      expect(third.started).not.toBeNull()
      yield* Throttle.releaseAttempt(third)
      expect((yield* rowOf(`bvn:${customer}`))[0]).toMatchObject({ tries: 2, blockedUntil: null })
      // the third failure this time: blocked
      yield* Throttle.reserveAttempt(customer, "bvn_verification_failure")
      expect((yield* Effect.flip(Throttle.reserveAttempt(customer, "bvn_verification_failure")))._tag).toBe("TooManyAttempts")
    }))

  it.effect("0040 carries 0033's attempts in their windows over as counts, 3 BVN failures as a block", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const now = new Date("2026-11-28T12:00:00.000Z")
      const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000)
      const [a, b] = [randomUUID(), randomUUID()]
      yield* sql`CREATE TEMPORARY TABLE customer_attempts (id uuid PRIMARY KEY, subject text NOT NULL, kind text NOT NULL, at timestamptz NOT NULL)`
      const attempts = [
        [a, "bvn_verification_failure", 600],
        [a, "bvn_verification_failure", 300],
        [a, "bvn_verification_failure", 60],
        [a, "name_enquiry", 90], // out of its hour
        [a, "name_enquiry", 30],
        [b, "bvn_verification_failure", 25 * 60], // out of its day
        [b, "bvn_verification_failure", 10]
      ] as const
      for (const [subject, kind, ago] of attempts) {
        yield* sql`INSERT INTO customer_attempts ${sql.insert({ id: randomUUID(), subject, kind, at: minutesAgo(ago) })}`
      }
      yield* carryAttempts(now)
      yield* sql`DROP TABLE customer_attempts`
      const rows = yield* sql<{ key: string; tries: number; windowStartedAt: Date | string; blockedUntil: Date | string | null }>`
        SELECT key, tries, window_started_at, blocked_until FROM throttles WHERE key IN ${sql.in([`bvn:${a}`, `ne:${a}`, `bvn:${b}`, `ne:${b}`])}
        ORDER BY key`
      const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())
      expect(rows.map((r) => [r.key, r.tries, iso(r.windowStartedAt), iso(r.blockedUntil)])).toEqual([
        [`bvn:${a}`, 3, minutesAgo(600).toISOString(), new Date(minutesAgo(60).getTime() + 24 * 3600_000).toISOString()],
        [`bvn:${b}`, 1, minutesAgo(10).toISOString(), null],
        [`ne:${a}`, 1, minutesAgo(30).toISOString(), null]
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))))
    }))
})
