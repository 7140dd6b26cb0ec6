/**
 * Several processes starting at once on one fresh database (two APIs and a scheduler, say) each run
 * the migrations: one applies them all, the others find nothing left to do, and none fails. On
 * PostgreSQL the runs come from separate pools, so they really race; on PGlite (one connection) a
 * second run after the first applies nothing.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { migrations, runMigrations } from "../src/Migrations.js"
import { onPostgres, secondPoolLayer } from "../src/testing/SecondPool.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"

layer(TestSqlLayer, { timeout: "60 seconds" })(`migrations run by several processes at once (${describeBackend()})`, (it) => {
  it.effect("one run applies every migration, the others none, and none fails", () =>
    Effect.gen(function*() {
      const loaded = yield* migrations
      const known = loaded.length
      // ids may have gaps (each branch uses the numbers it was given): the latest is the highest id
      const highest = Math.max(...loaded.map(([id]) => id))
      const pools = onPostgres() ? yield* Effect.all(Array.from({ length: 4 }, () => secondPoolLayer)) : []
      const runs = yield* Effect.all(
        [runMigrations, ...pools.map((pool) => Effect.provide(runMigrations, pool))],
        { concurrency: "unbounded" }
      )
      expect(runs.map((applied) => applied.length).sort((a, b) => b - a)).toEqual([known, ...pools.map(() => 0)])
      expect(yield* runMigrations).toEqual([])
      const sql = yield* SqlClient.SqlClient
      const [latest] = yield* sql<{ readonly id: number }>`SELECT max(migration_id) AS id FROM effect_sql_migrations`
      expect(Number(latest!.id)).toBe(highest)
    }))
})
