import * as Reactivity from "@effect/experimental/Reactivity"
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Ref from "effect/Ref"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { names, pgliteLayer } from "../src/sql/Database.js"
import * as PgliteClient from "../src/sql/PgliteClient.js"

class Boom {
  readonly _tag = "Boom"
}

const setup = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`CREATE TABLE events (id serial PRIMARY KEY, label text NOT NULL)`
)

const labels = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{ label: string }>`SELECT label FROM events ORDER BY id`,
    (rows) => rows.map((row) => row.label)
  ))

const count = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(sql<{ n: number }>`SELECT count(*)::int4 AS n FROM events`, (rows) => rows[0]!.n))

describe("PgliteClient", () => {
  it.live("a non-transactional statement from another fiber never runs inside a transaction", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* setup
      const log = yield* Ref.make<ReadonlyArray<string>>([])
      const record = (entry: string) => Ref.update(log, (entries) => [...entries, entry])

      // A: insert, sleep (B issues its insert now), count, then fail -> ROLLBACK
      const fiberA = Effect.gen(function*() {
        yield* sql`INSERT INTO events (label) VALUES ('a')`
        yield* Effect.sleep("50 millis")
        yield* record(`a:count=${yield* count}`)
        return yield* Effect.fail(new Boom())
      }).pipe(sql.withTransaction, Effect.either)

      // B: plain insert issued while A sleeps inside its transaction
      const fiberB = Effect.sleep("10 millis").pipe(
        Effect.zipRight(sql`INSERT INTO events (label) VALUES ('b')`),
        Effect.zipRight(record("b:inserted"))
      )

      const [resultA] = yield* Effect.all([fiberA, fiberB], { concurrency: "unbounded" })
      expect(Either.isLeft(resultA)).toBe(true)
      // B waited for A's ROLLBACK: A only ever saw its own row, and B's row survived
      expect(yield* Ref.get(log)).toEqual(["a:count=1", "b:inserted"])
      expect(yield* labels).toEqual(["b"])
    }).pipe(Effect.provide(pgliteLayer(undefined))))

  it.live("concurrent transactions are serialised; one failing does not affect the other", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* setup
      const transaction = (label: string, fail: boolean) =>
        Effect.gen(function*() {
          yield* sql`INSERT INTO events ${sql.insert({ label })}`
          yield* Effect.sleep("20 millis")
          yield* sql`INSERT INTO events ${sql.insert({ label })}`
          const seen = yield* count
          if (fail) return yield* Effect.fail(new Boom())
          return seen
        }).pipe(sql.withTransaction, Effect.either)

      const results = yield* Effect.all(
        [transaction("x", true), transaction("y", false), transaction("z", false)],
        { concurrency: "unbounded" }
      )
      expect(Either.isLeft(results[0])).toBe(true)
      // each transaction saw only committed rows plus its own two
      expect(results[1]).toEqual(Either.right(2))
      expect(results[2]).toEqual(Either.right(4))
      expect(yield* labels).toEqual(["y", "y", "z", "z"])
    }).pipe(Effect.provide(pgliteLayer(undefined))))

  it.live("a file-backed database keeps its data after close and reopen", () =>
    Effect.gen(function*() {
      const root = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pglite-test-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(root, { recursive: true, force: true })))
      // a nested, not yet existing folder: created recursively
      const dataDir = Path.join(root, "nested", "db")

      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* setup
        yield* sql.withTransaction(sql`INSERT INTO events (label) VALUES ('persisted')`)
        yield* sql`INSERT INTO events (label) VALUES ('also persisted')`
      }).pipe(Effect.provide(pgliteLayer(dataDir)))
      expect(Fs.existsSync(Path.join(dataDir, "PG_VERSION"))).toBe(true)

      const reopened = yield* labels.pipe(Effect.provide(pgliteLayer(dataDir)))
      expect(reopened).toEqual(["persisted", "also persisted"])
    }).pipe(Effect.scoped))

  it.live("one process per data directory: a second opener is refused at once, naming the holder (issue 36)", () =>
    Effect.gen(function*() {
      const root = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pglite-lock-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(root, { recursive: true, force: true })))
      const dataDir = Path.join(root, "pglite")
      const refusal = (holder: number) =>
        `the embedded database ${dataDir} is in use by process ${holder} ` +
        "(one process per data directory: stop it first, or share a PostgreSQL database with DATABASE_URL)"

      // another live process holds it (the test runner's parent stands in for `npm start`)
      Fs.writeFileSync(`${dataDir}.lock`, `${process.ppid}\n`)
      const started = Date.now()
      const other = yield* Effect.either(Effect.provide(count, pgliteLayer(dataDir)))
      expect(Either.isLeft(other) && other.left.message).toBe(refusal(process.ppid))
      expect(Date.now() - started).toBeLessThan(2_000)
      expect(Fs.existsSync(Path.join(dataDir, "PG_VERSION"))).toBe(false) // not touched

      // a lock left by a process that died (a SIGKILL) is taken over
      Fs.writeFileSync(`${dataDir}.lock`, "2147483646\n")
      yield* Effect.gen(function*() {
        yield* setup
        expect(Fs.readFileSync(`${dataDir}.lock`, "utf8").trim()).toBe(String(process.pid))
        // a second opener while this one has it open: refused too, naming this process
        const second = yield* Effect.either(Effect.provide(count, pgliteLayer(dataDir)))
        expect(Either.isLeft(second) && second.left.message).toBe(refusal(process.pid))
        expect(yield* count).toBe(0)
      }).pipe(Effect.provide(pgliteLayer(dataDir)))
      // closed: the lock is gone, and the next opener gets it
      expect(Fs.existsSync(`${dataDir}.lock`)).toBe(false)
      expect(yield* Effect.provide(count, pgliteLayer(dataDir))).toBe(0)
    }).pipe(Effect.scoped), 120_000)

  it.live("durable: fsync on, each commit synced to the disk, the data kept across a reopen (issue 41)", () =>
    Effect.gen(function*() {
      const root = Fs.mkdtempSync(Path.join(Os.tmpdir(), "pglite-durable-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(root, { recursive: true, force: true })))
      const dataDir = Path.join(root, "pglite")
      const setting = (name: string) =>
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<Record<string, string>>(`SHOW ${name}`)).pipe(Effect.map((rows) => Object.values(rows[0]!)[0]))
      const synced = yield* Effect.gen(function*() {
        yield* setup
        const sql = yield* SqlClient.SqlClient
        const before = PgliteClient.durableSyncs.count
        yield* sql`INSERT INTO events (label) VALUES ('on the disk')`
        return { fsync: yield* setting("fsync"), method: yield* setting("wal_sync_method"), count: PgliteClient.durableSyncs.count - before }
      }).pipe(Effect.provide(pgliteLayer(dataDir, { durable: true })))
      expect(synced.fsync).toBe("on")
      expect(synced.method).toBe("fsync")
      expect(synced.count).toBeGreaterThanOrEqual(1) // the commit's WAL reached fsync(2)
      expect(yield* labels.pipe(Effect.provide(pgliteLayer(dataDir)))).toEqual(["on the disk"])
      // the default, as PGlite ships: fsync off
      expect(yield* setting("fsync").pipe(Effect.provide(pgliteLayer(dataDir)))).toBe("off")
    }).pipe(Effect.scoped), 120_000)

  it.scoped("supports multi-statement scripts, values, streams and unprepared queries", () =>
    Effect.gen(function*() {
      const sql = yield* PgliteClient.make({ ...names })
      // no parameters -> simple protocol, several statements allowed (as with node-postgres)
      yield* sql`CREATE TABLE items (item_name text); INSERT INTO items VALUES ('one'), ('two')`
      expect(yield* sql`SELECT item_name FROM items ORDER BY 1`).toEqual([{ itemName: "one" }, { itemName: "two" }])
      expect(yield* sql`SELECT item_name, 1 AS n FROM items ORDER BY 1`.values).toEqual([["one", 1], ["two", 1]])
      expect(yield* sql`SELECT item_name FROM items WHERE item_name = ${"two"}`.unprepared).toEqual([
        { itemName: "two" }
      ])
      const streamed = yield* Stream.runCollect(sql`SELECT item_name FROM items ORDER BY 1`.stream)
      expect(Chunk.toReadonlyArray(streamed)).toEqual([{ itemName: "one" }, { itemName: "two" }])
      // a statement per streamed row must not deadlock on the single connection
      yield* sql`SELECT item_name FROM items`.stream.pipe(
        Stream.mapEffect((row) => sql`INSERT INTO items ${sql.insert({ itemName: `${row.itemName}-copy` })}`),
        Stream.runDrain
      )
      expect(yield* sql`SELECT count(*) AS n FROM items`).toEqual([{ n: "4" }])
    }).pipe(Effect.provide(Reactivity.layer)))

  it.scoped("maps errors to SqlError without leaking parameters", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const error = yield* Effect.flip(sql`SELECT * FROM missing_table WHERE secret = ${"s3cr3t"}`)
      expect(error).toBeInstanceOf(SqlError)
      expect(error.message).toBe("Failed to execute statement")
      expect(String((error.cause as Error).message)).toContain("missing_table")
      expect(JSON.stringify(error.cause)).not.toContain("s3cr3t")
    }).pipe(Effect.provide(pgliteLayer(undefined))))
})
