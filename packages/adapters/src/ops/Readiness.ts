/**
 * What GET /ready asks of the database: can it answer now, and does it have every migration this
 * build knows (a process started against a database another build has not migrated yet, or whose
 * migration failed half-way, must not take traffic). Each check answers "ok" or a short reason
 * (never a connection string or a password).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Duration, Effect } from "effect"
import { migrations } from "../Migrations.js"

export type CheckResult = "ok" | string

const MIGRATIONS_TABLE = "effect_sql_migrations"

/** `SELECT 1` within the time limit. */
export const checkDatabase = (timeout: Duration.DurationInput): Effect.Effect<CheckResult, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`SELECT 1 AS ok`
    return "ok" as const
  }).pipe(
    Effect.timeoutFail({ duration: timeout, onTimeout: () => "timeout" }),
    Effect.catchAll((e) => Effect.succeed(typeof e === "string" ? `unreachable (${e})` : `unreachable (${e._tag})`))
  )

/** "ok" when every known migration id is recorded as applied; else which are missing. */
export const checkMigrations = (timeout: Duration.DurationInput): Effect.Effect<CheckResult, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const known = yield* migrations
    // aliased: the clients may rename snake_case columns
    const rows = yield* sql<{ id: number | string }>`SELECT migration_id AS id FROM ${sql(MIGRATIONS_TABLE)}`
    const applied = new Set(rows.map((r) => Number(r.id)))
    const missing = known.filter(([id]) => !applied.has(id)).map(([id, name]) => `${String(id).padStart(4, "0")}_${name}`)
    return missing.length === 0 ? "ok" : `missing ${missing.join(", ")}`
  }).pipe(
    Effect.timeoutFail({ duration: timeout, onTimeout: () => "timeout" }),
    Effect.catchAll((e) => Effect.succeed(typeof e === "string" ? `unknown (${e})` : `unknown (${e._tag})`))
  )
