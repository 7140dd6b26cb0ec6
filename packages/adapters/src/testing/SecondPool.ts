/**
 * A second connection pool on the test database that the SqlClient in context is connected to, for
 * tests of several processes sharing one database (two scheduler instances, say): each pool is its
 * own set of connections, so their transactions really race. PostgreSQL only (TEST_DATABASE_URL):
 * PGlite is one in-process connection, with no second pool to offer.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { ConfigError } from "effect/ConfigError"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { pgLayer } from "../sql/Database.js"

const ENV = "TEST_DATABASE_URL"

/** A SqlClient layer as the tests build them (TestSqlLayer, or a second pool). */
export type SqlClientLayer = Layer.Layer<SqlClient.SqlClient, SqlError | ConfigError>

/** Whether the tests run on PostgreSQL (TEST_DATABASE_URL set), where a second pool is possible. */
export const onPostgres = (): boolean => (process.env[ENV] ?? "").length > 0

/** A layer of a new pool on the current database (found with current_database()); dies on PGlite. */
export const secondPoolLayer: Effect.Effect<SqlClientLayer, never, SqlClient.SqlClient> =
  Effect.gen(function*() {
    const url = process.env[ENV] ?? ""
    if (url.length === 0) return yield* Effect.dieMessage(`a second pool needs PostgreSQL: set ${ENV}`)
    const sql = yield* SqlClient.SqlClient
    const rows = yield* Effect.orDie(sql<{ readonly name: string }>`SELECT current_database() AS name`)
    const target = new URL(url)
    target.pathname = `/${rows[0]!.name}`
    return pgLayer(Redacted.make(target.toString()))
  })

/** The server process of the connection a query runs on (pg_backend_pid): tells two pools apart. */
export const backendPid: Effect.Effect<number, never, SqlClient.SqlClient> = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => Effect.orDie(Effect.map(sql<{ readonly pid: number }>`SELECT pg_backend_pid() AS pid`, (rows) => Number(rows[0]!.pid)))
)
