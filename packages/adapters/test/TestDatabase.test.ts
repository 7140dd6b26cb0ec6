import { describe, expect, it, layer } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"

class Boom {
  readonly _tag = "Boom"
}

const labels = (table: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ label: string }>`SELECT label FROM ${sql(table)} ORDER BY label`,
      (rows) => rows.map((row) => row.label)
    ))

layer(TestSqlLayer)(`TestSqlLayer (${describeBackend()})`, (it) => {
  it.effect("parses column types like node-postgres and camelCases row names", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE type_probe (
        big_value int8, amount numeric(12,2), due_on date, created_at timestamptz,
        payload jsonb, is_active bool, small_count int4, ref_id uuid
      )`
      const createdAt = new Date("2024-03-01T10:20:30.123Z")
      // camelCase keys are written as snake_case columns by the compiler
      yield* sql`INSERT INTO type_probe ${
        sql.insert({
          bigValue: "9007199254740993",
          amount: "12.5",
          dueOn: "2024-02-29",
          createdAt,
          payload: JSON.stringify({ nested: { list: [1, 2] } }),
          isActive: true,
          smallCount: 7,
          refId: "8e4c2f8c-1d0a-4a5e-9a59-8d7ad1a7c1b3"
        })
      }`
      const rows = yield* sql`SELECT * FROM type_probe`
      expect(rows).toHaveLength(1)
      const row = rows[0]!
      expect(Object.keys(row).sort()).toEqual(
        ["amount", "bigValue", "createdAt", "dueOn", "isActive", "payload", "refId", "smallCount"]
      )
      expect(row.bigValue).toBe("9007199254740993")
      expect(row.amount).toBe("12.50")
      expect(row.dueOn).toBe("2024-02-29")
      expect(row.createdAt).toBeInstanceOf(Date)
      expect((row.createdAt as Date).getTime()).toBe(createdAt.getTime())
      expect(row.payload).toEqual({ nested: { list: [1, 2] } })
      expect(row.isActive).toBe(true)
      expect(row.smallCount).toBe(7)
      expect(row.refId).toBe("8e4c2f8c-1d0a-4a5e-9a59-8d7ad1a7c1b3")

      // the same through a parameterised query and computed values
      const [computed] = yield* sql`SELECT ${"9007199254740993"}::int8 + 0 AS big_sum,
        count(*) AS row_count, ${"2024-01-31"}::date AS some_day FROM type_probe`
      expect(computed).toEqual({ bigSum: "9007199254740993", rowCount: "1", someDay: "2024-01-31" })
    }))

  it.effect("a failed withTransaction rolls back", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE tx_rollback (label text NOT NULL)`
      const result = yield* sql`INSERT INTO tx_rollback (label) VALUES ('inside')`.pipe(
        Effect.zipRight(Effect.fail(new Boom())),
        sql.withTransaction,
        Effect.either
      )
      expect(Either.isLeft(result) && result.left).toBeInstanceOf(Boom)
      expect(yield* labels("tx_rollback")).toEqual([])

      yield* sql.withTransaction(sql`INSERT INTO tx_rollback (label) VALUES ('committed')`)
      expect(yield* labels("tx_rollback")).toEqual(["committed"])
    }))

  it.effect("nested withTransaction rolls back to its savepoint and keeps outer writes", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE tx_nested (label text NOT NULL)`
      yield* Effect.gen(function*() {
        yield* sql`INSERT INTO tx_nested (label) VALUES ('outer-before')`
        const inner = yield* sql`INSERT INTO tx_nested (label) VALUES ('inner')`.pipe(
          Effect.zipRight(Effect.fail(new Boom())),
          sql.withTransaction,
          Effect.either
        )
        expect(Either.isLeft(inner)).toBe(true)
        // a committed (released) savepoint keeps its rows
        yield* sql.withTransaction(sql`INSERT INTO tx_nested (label) VALUES ('inner-ok')`)
        yield* sql`INSERT INTO tx_nested (label) VALUES ('outer-after')`
      }).pipe(sql.withTransaction)
      expect(yield* labels("tx_nested")).toEqual(["inner-ok", "outer-after", "outer-before"])
    }))
})

describe(`TestSqlLayer isolation (${describeBackend()})`, () => {
  it.scoped("two builds get two separate, empty databases", () =>
    Effect.gen(function*() {
      const a = Context.get(yield* Layer.build(TestSqlLayer), SqlClient.SqlClient)
      const b = Context.get(yield* Layer.build(TestSqlLayer), SqlClient.SqlClient)
      const exists = (sql: SqlClient.SqlClient) =>
        Effect.map(
          sql<{ found: boolean }>`SELECT to_regclass('isolation_probe') IS NOT NULL AS found`,
          (rows) => rows[0]!.found
        )
      yield* a`CREATE TABLE isolation_probe (label text)`
      yield* a`INSERT INTO isolation_probe VALUES ('from-a')`
      expect(yield* exists(a)).toBe(true)
      expect(yield* exists(b)).toBe(false)
      // b can create its own table of the same name, and it is empty
      yield* b`CREATE TABLE isolation_probe (label text)`
      expect(yield* b`SELECT * FROM isolation_probe`).toEqual([])
      expect(yield* a`SELECT * FROM isolation_probe`).toEqual([{ label: "from-a" }])
    }))
})
