/**
 * A fresh, empty database per layer build, for tests.
 *
 * - `TEST_DATABASE_URL` set (e.g. postgres://postgres@127.0.0.1:5432/test):
 *   creates `t_<random hex>` on that server, connects to it with `pgLayer`,
 *   and drops it (WITH (FORCE)) when the layer is released.
 * - unset: an in-memory PGlite, started from an empty cluster dumped once per machine (a tarball
 *   in the temp directory, keyed by PGlite's version) instead of running initdb each time: initdb
 *   is most of PGlite's two-second start, and the suite starts over a hundred databases.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Config from "effect/Config"
import type { ConfigError } from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { PGlite } from "@electric-sql/pglite"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Os from "node:os"
import * as Path from "node:path"
import { names, pgLayer } from "../sql/Database.js"
import * as PgliteClient from "../sql/PgliteClient.js"

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

/** The installed PGlite's version (its package.json is not exported, so found beside its entry). */
const pgliteVersion = (): string => {
  let dir = Path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"))
  while (!Fs.existsSync(Path.join(dir, "package.json"))) dir = Path.dirname(dir)
  return (JSON.parse(Fs.readFileSync(Path.join(dir, "package.json"), "utf8")) as { readonly version: string }).version
}

/**
 * The empty cluster's tarball: read from the temp directory, or made (initdb once) and written
 * there under a unique name then renamed, so concurrent test processes never read half a file.
 */
const emptyCluster = Effect.tryPromise({
  try: async (): Promise<Blob> => {
    const file = Path.join(Os.tmpdir(), `kobo-plans-pglite-${pgliteVersion()}-empty.tar`)
    if (Fs.existsSync(file)) return new Blob([Fs.readFileSync(file)])
    const db = new PGlite()
    await db.waitReady
    const dump = await db.dumpDataDir("none")
    await db.close()
    const bytes = new Uint8Array(await dump.arrayBuffer())
    const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`
    Fs.writeFileSync(partial, bytes)
    Fs.renameSync(partial, file)
    return new Blob([bytes])
  },
  catch: (cause) => new SqlError({ cause, message: "TestDatabase: cannot prepare the empty PGlite cluster" })
})

const pgliteTestLayer: Layer.Layer<SqlClient.SqlClient, SqlError> = Layer.unwrapEffect(
  Effect.map(emptyCluster, (loadDataDir) => PgliteClient.layer({ loadDataDir, ...names }))
)

export const TestSqlLayer: Layer.Layer<SqlClient.SqlClient, SqlError | ConfigError> = Layer.unwrapEffect(
  Effect.map(
    Config.option(Config.redacted(ENV)),
    (url) =>
      Option.match(Option.filter(url, (u) => Redacted.value(u).length > 0), {
        onNone: () => pgliteTestLayer,
        onSome: postgresLayer
      })
  )
)
