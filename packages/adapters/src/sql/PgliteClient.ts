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
import { NodeFS } from "@electric-sql/pglite/nodefs"
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
  /**
   * Durable commits (a file-backed `dataDir` only): PostgreSQL runs with fsync on (PGlite starts it
   * with `-F`, fsync off) and `wal_sync_method=fsync`, and the WebAssembly file system's fsync, a
   * no-op in PGlite's NODEFS, reaches the disk (`fs.fsyncSync`). A commit is then on the disk when
   * it returns, and survives a power loss; without it, it is in the page cache (survives a process
   * kill, not a machine's). Measured cost: docs/notes-crash.md.
   */
  readonly durable?: boolean | undefined
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

/**
 * PGlite's Node file system with a real fsync: emscripten's NODEFS has none, so the `fsync(2)` that
 * PostgreSQL issues at every commit (wal_sync_method=fsync; fdatasync is a no-op in emscripten) and
 * at checkpoints returns at once without touching the disk. Each fsync of a file (or directory) of
 * the data directory becomes an `fsyncSync` of its Node descriptor; a failure is an I/O error that
 * PostgreSQL treats as it would on a real disk (it does not pretend the data is safe).
 */
/** fsyncs made for PGlite in this process (a diagnostic: tests check that a commit reaches the disk). */
export const durableSyncs = { count: 0 }

class DurableNodeFS extends NodeFS {
  override async init(pg: PGlite, options: Parameters<NodeFS["init"]>[1]) {
    const initialised = await super.init(pg, options)
    const preRun = initialised.emscriptenOpts.preRun ?? []
    return {
      emscriptenOpts: {
        ...initialised.emscriptenOpts,
        preRun: [...preRun, (mod: any) => {
          mod.NODEFS.stream_ops.fsync = (stream: { readonly nfd?: number }) => {
            if (stream.nfd === undefined) return 0
            try {
              Fs.fsyncSync(stream.nfd)
              durableSyncs.count++
              return 0
            } catch (error) {
              const code = (error as NodeJS.ErrnoException).code
              // a descriptor that cannot be synced (a directory on some file systems): nothing to sync
              if (code === "EINVAL" || code === "EISDIR" || code === "EBADF") return 0
              return 29 // EIO in emscripten's numbering
            }
          }
        }]
      }
    }
  }
}

const openDatabase = (dataDir: string | undefined, loadDataDir: Blob | undefined, durable: boolean) =>
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
        const onDisk = dataDir !== undefined && !dataDir.includes("://")
        const db = new PGlite({
          ...(dataDir !== undefined ? { dataDir } : {}),
          ...(durable && onDisk
            ? { fs: new DurableNodeFS(dataDir), startParams: [...PGlite.defaultStartParams.filter((p) => p !== "-F"), "-c", "wal_sync_method=fsync"] }
            : {}),
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
    const db = yield* openDatabase(options.dataDir, options.loadDataDir, options.durable === true)

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
    const transactionAcquirer = Effect.as(semaphore.takeScoped, raw)

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
