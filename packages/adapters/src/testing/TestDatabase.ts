/**
 * A fresh, empty database per layer build, for tests.
 *
 * - `TEST_DATABASE_URL` set (e.g. postgres://postgres@127.0.0.1:5432/test):
 *   creates `t_<random hex>` on that server, connects to it with `pgLayer`,
 *   and drops it (WITH (FORCE)) when the layer is released.
 * - unset: an in-memory PGlite.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Config from "effect/Config"
import type { ConfigError } from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { randomBytes } from "node:crypto"
import { pgLayer, pgliteLayer } from "../sql/Database.js"

const ENV = "TEST_DATABASE_URL"

/** "postgres" when TEST_DATABASE_URL is set, "pglite" otherwise. */
export const describeBackend = (): string => (process.env[ENV] ? "postgres" : "pglite")

/** Runs `f` with a short-lived single-connection client to the admin database. */
const withAdmin = <A>(
  adminUrl: Redacted.Redacted<string>,
  f: (sql: SqlClient.SqlClient) => Effect.Effect<A, SqlError>
): Effect.Effect<A, SqlError> =>
  PgClient.make({ url: adminUrl, maxConnections: 1, applicationName: "kobo-plans-test-admin" }).pipe(
    Effect.flatMap(f),
    Effect.scoped,
    Effect.provide(Reactivity.layer)
  )

const postgresLayer = (adminUrl: Redacted.Redacted<string>): Layer.Layer<SqlClient.SqlClient, SqlError | ConfigError> =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const name = `t_${randomBytes(8).toString("hex")}`
      // The connection string wins over a separate `database` option in pg, so
      // point the URL itself at the new database.
      const url = new URL(Redacted.value(adminUrl))
      url.pathname = `/${name}`

      yield* Effect.acquireRelease(
        withAdmin(adminUrl, (sql) => sql`CREATE DATABASE ${sql(name)}`),
        () =>
          withAdmin(adminUrl, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`).pipe(
            Effect.catchAll((error) => Effect.logWarning(`TestDatabase: could not drop ${name}`, error))
          )
      )
      // Built in the same scope after the CREATE, so its pool is closed before
      // the DROP finaliser runs (finalisers run in reverse order).
      return yield* Layer.build(pgLayer(Redacted.make(url.toString())))
    })
  )

export const TestSqlLayer: Layer.Layer<SqlClient.SqlClient, SqlError | ConfigError> = Layer.unwrapEffect(
  Effect.map(
    Config.option(Config.redacted(ENV)),
    (url) =>
      Option.match(Option.filter(url, (u) => Redacted.value(u).length > 0), {
        onNone: () => pgliteLayer(undefined),
        onSome: postgresLayer
      })
  )
)
