/**
 * An `@effect/sql` `SqlClient` backed by PGlite (Postgres compiled to WASM).
 *
 * Used for local runs and tests without a Postgres server. It speaks the same
 * SQL dialect (compiler from @effect/sql-pg) and parses result values the way
 * node-postgres does, so code behaves identically on both backends.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import * as PgClient from "@effect/sql-pg/PgClient"
import { PGlite, types } from "@electric-sql/pglite"
import type { ParserOptions, QueryOptions, Results } from "@electric-sql/pglite"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { lockPath } from "../concurrency/ProcessLock.js"
import { makeFairSemaphore } from "../concurrency/FairSemaphore.js"

export interface PgliteClientConfig {
  /** Directory for the database files; `undefined` = in-memory database. */
  readonly dataDir?: string | undefined
  /**
   * A data directory dumped by `dumpDataDir` to start from instead of running initdb (tests use an
   * empty one, which saves most of PGlite's start-up).
   */
  readonly loadDataDir?: Blob | undefined
  readonly transformQueryNames?: ((s: string) => string) | undefined
  readonly transformResultNames?: ((s: string) => string) | undefined
}

type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

const identity = (value: string): string => value

/**
 * Result parsers matching node-postgres (pg-types 2) defaults, which differ
 * from PGlite's own defaults for:
 * - int8: PGlite yields number/bigint, pg yields the decimal string;
 * - date: PGlite yields a Date, we want the plain 'YYYY-MM-DD' string (pg is
 *   configured the same way in Database.pgLayer).
 * numeric stays a string and timestamp(tz) a Date, json(b) parsed, bool,
 * int2/int4/float parsed — PGlite already agrees with pg on those.
 * Array types (int8[], date[]) reuse these element parsers automatically.
 */
export const pgTypeParsers: ParserOptions = {
  [types.INT8]: identity,
  [types.NUMERIC]: identity,
  [types.DATE]: identity
}

// PGlite attaches the bound parameters to its errors; drop them so values
// (tokens, hashes, personal data) do not end up in logs via `SqlError.cause`.
const toSqlError = (cause: unknown, message: string): SqlError => {
  if (typeof cause === "object" && cause !== null && "params" in cause) {
    try {
      delete (cause as { params?: unknown }).params
    } catch {
      // frozen / non-configurable: leave as is
    }
  }
  return new SqlError({ cause, message })
}

const attempt = <A>(f: () => Promise<A>, message = "Failed to execute statement") =>
  Effect.tryPromise({ try: f, catch: (cause) => toSqlError(cause, message) })

/**
 * Runs a statement. Like node-postgres, a statement without parameters goes
 * through the simple query protocol (`exec`), which accepts several
 * `;`-separated statements; with parameters, the extended protocol (`query`).
 * Several result sets come back as an array of row arrays (as pg does).
 */
const run = (
  db: PGlite,
  sql: string,
  params: ReadonlyArray<unknown>,
  options: QueryOptions | undefined,
  transformRows: TransformRows
): Effect.Effect<ReadonlyArray<any>, SqlError> => {
  const rowsOf = (result: Results): ReadonlyArray<any> =>
    transformRows ? transformRows(result.rows as Array<object>) : result.rows
  if (params.length > 0) {
    return Effect.map(attempt(() => db.query<Record<string, unknown>>(sql, params as Array<unknown>, options)), rowsOf)
  }
  return Effect.map(attempt(() => db.exec(sql, options)), (results) =>
    results.length === 1 ? rowsOf(results[0]!) : results.map(rowsOf))
}

/**
 * A connection over the PGlite instance. `lock` wraps each statement: the
 * shared connection takes the semaphore permit for the statement's duration;
 * the transaction connection (whose scope already holds the permit) does not.
 */
const makeConnection = (
  db: PGlite,
  lock: <A>(effect: Effect.Effect<A, SqlError>) => Effect.Effect<A, SqlError>
): Connection => ({
  execute: (sql, params, transformRows) => lock(run(db, sql, params, undefined, transformRows)),
  executeRaw: (sql, params) =>
    lock(
      params.length > 0
        ? attempt<unknown>(() => db.query(sql, params as Array<unknown>))
        : attempt(() => db.exec(sql))
    ),
  executeValues: (sql, params) => lock(run(db, sql, params, { rowMode: "array" }, undefined)),
  executeUnprepared: (sql, params, transformRows) => lock(run(db, sql, params, undefined, transformRows)),
  // No server-side cursor: run the query (holding the permit only for that),
  // then emit its rows. Not holding the permit while the stream is consumed
  // lets the consumer run statements per row without deadlocking.
  executeStream: (sql, params, transformRows) =>
    Stream.flatMap(
      Stream.fromEffect(lock(run(db, sql, params, undefined, transformRows))),
      (rows) => Stream.fromIterable(rows)
    )
})

/**
 * One process per data directory (`<dataDir>.lock`, concurrency/ProcessLock.ts): PGlite is one
 * process's database, and a second process on the same files (an operator's CLI beside `npm start`)
 * would write over the first's pages with neither knowing. Refused at once, naming the holder.
 */
const lockDataDir = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.try({
      try: () =>
        lockPath(dataDir, (holder) =>
          `the embedded database ${Path.resolve(dataDir)} is in use by process ${holder} ` +
          "(one process per data directory: stop it first, or share a PostgreSQL database with DATABASE_URL)"),
      catch: (cause) => new SqlError({ cause, message: cause instanceof Error ? cause.message : String(cause) })
    }),
    (lock) => Effect.sync(() => lock.release())
  )

const openDatabase = (dataDir: string | undefined, loadDataDir: Blob | undefined) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      // Plain paths only: PGlite also accepts "memory://" / "idb://" URLs.
      if (dataDir !== undefined && !dataDir.includes("://")) {
        yield* lockDataDir(dataDir)
        yield* Effect.try({
          try: () => Fs.mkdirSync(dataDir, { recursive: true }),
          catch: (cause) => new SqlError({ cause, message: "PgliteClient: cannot create data directory" })
        })
      }
      return yield* attempt(async () => {
        // Options object only: `new PGlite(undefined, options)` silently
        // ignores `options` (the first argument defaults to `{}` and is then
        // taken as the options).
        const db = new PGlite({
          ...(dataDir !== undefined ? { dataDir } : {}),
          ...(loadDataDir !== undefined ? { loadDataDir } : {}),
          parsers: pgTypeParsers
        })
        await db.waitReady
        return db
      }, "PgliteClient: failed to start PGlite")
    }),
    (db) =>
      Effect.tryPromise(() => db.close()).pipe(
        Effect.catchAll((error) => Effect.logWarning("PgliteClient: failed to close PGlite", error))
      )
  )

export const make = (
  options: PgliteClientConfig
): Effect.Effect<SqlClient.SqlClient, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function*() {
    const db = yield* openDatabase(options.dataDir, options.loadDataDir)

    // PGlite is a single connection (one session): at most one statement or
    // transaction at a time, otherwise another fiber's statement would run
    // between our BEGIN and COMMIT and become part of the transaction.
    // first come, first served, one wake-up per statement (concurrency/FairSemaphore.ts)
    const semaphore = yield* makeFairSemaphore(1)
    const raw = makeConnection(db, (effect) => effect)
    const shared = makeConnection(db, semaphore.withPermit)

    // Holds the permit until the transaction's (or `sql.reserve`'s) scope
    // closes, i.e. after COMMIT/ROLLBACK. Statements inside the transaction
    // use `raw` (via TransactionConnection) and so do not wait on it again.
    // Pattern from @effect/sql-sqlite-node: take interruptibly, then register
    // the release uninterruptibly so the permit cannot leak.
    const transactionAcquirer = Effect.uninterruptibleMask((restore) =>
      Effect.as(
        Effect.zipRight(
          semaphore.take(restore),
          Effect.tap(Effect.scope, (scope) => Scope.addFinalizer(scope, semaphore.release))
        ),
        raw
      )
    )

    return yield* SqlClient.make({
      acquirer: Effect.succeed(shared),
      transactionAcquirer,
      compiler: PgClient.makeCompiler(options.transformQueryNames),
      spanAttributes: [
        ["db.system.name", "postgresql"],
        ["db.namespace", options.dataDir ?? "memory"]
      ],
      transformRows: options.transformResultNames
        ? Statement.defaultTransforms(options.transformResultNames).array
        : undefined
    })
  })

export const layer = (options: PgliteClientConfig): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  Layer.scopedContext(Effect.map(make(options), (client) => Context.make(SqlClient.SqlClient, client))).pipe(
    Layer.provide(Reactivity.layer)
  )
