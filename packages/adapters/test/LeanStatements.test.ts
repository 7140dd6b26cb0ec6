/**
 * `lean(statement)` against the statement's own execution, on the test database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL): the same rows, the transaction's connection inside
 * `withTransaction` (a rollback takes its writes back), the same errors, the same span.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Statement from "@effect/sql/Statement"
import { describe, expect, layer } from "@effect/vitest"
import { captureSpans } from "@app/domain/testing/Spans"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { makeLean } from "../src/sql/LeanStatements.js"
import { uniqueViolation } from "../src/sql/SqlSupport.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"


/** A table of its own for each test, dropped after it. */
const withTable = <A, E>(f: (table: string) => Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const table = `lean_${randomUUID().replaceAll("-", "").slice(0, 12)}`
    yield* sql.unsafe(`CREATE TABLE ${table} (id text PRIMARY KEY, some_value int NOT NULL)`)
    return yield* Effect.ensuring(f(table), Effect.orDie(sql.unsafe(`DROP TABLE ${table}`)))
  })

layer(TestSqlLayer, { timeout: 60_000 })(`lean statements (${describeBackend()})`, (it) => {
  describe("makeLean", () => {
    it.effect("gives the rows the statement's own execution gives, names transformed", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const lean = yield* makeLean
        const statement = () => sql`SELECT ${7}::int AS some_value, ${"x"} AS other_name UNION ALL SELECT 8, 'y'`
        const own = yield* statement()
        expect(own).toEqual([{ someValue: 7, otherName: "x" }, { someValue: 8, otherName: "y" }])
        expect(yield* lean(statement())).toEqual(own)
      }))

    it.effect("inside withTransaction runs on the transaction's connection: a rollback takes its write back", () =>
      withTable((table) =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const lean = yield* makeLean
          const count = (id: string) =>
            Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table)} WHERE id = ${id}`, (rows) => rows[0]!.n)
          const failed = yield* sql.withTransaction(Effect.gen(function*() {
            yield* lean(sql`INSERT INTO ${sql(table)} ${sql.insert({ id: "a", someValue: 1 })}`)
            // seen by the transaction's own next statement, lean or not
            expect(yield* Effect.map(lean(sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table)} WHERE id = 'a'`), (r) => r[0]!.n))
              .toBe(1)
            expect(yield* count("a")).toBe(1)
            return yield* Effect.fail("undo" as const)
          })).pipe(Effect.flip)
          expect(failed).toBe("undo")
          expect(yield* count("a")).toBe(0)

          yield* sql.withTransaction(lean(sql`INSERT INTO ${sql(table)} ${sql.insert({ id: "b", someValue: 2 })}`))
          expect(yield* count("b")).toBe(1)
          // and outside a transaction, on the client's own connection
          yield* lean(sql`INSERT INTO ${sql(table)} ${sql.insert({ id: "c", someValue: 3 })}`)
          expect(yield* count("c")).toBe(1)
        })
      ))

    it.effect("fails with the driver's SqlError, as the statement does (a unique violation is still told apart)", () =>
      withTable((table) =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const lean = yield* makeLean
          const insert = () => sql`INSERT INTO ${sql(table)} ${sql.insert({ id: "a", someValue: 1 })}`
          yield* lean(insert())
          const own = yield* Effect.flip(insert())
          const mine = yield* Effect.flip(lean(insert()))
          expect(mine._tag).toBe("SqlError")
          expect(uniqueViolation(mine)).toBe(uniqueViolation(own))
          expect(uniqueViolation(mine)).toBeDefined()
        })
      ))

    it.effect("makes the same sql.execute span, a child of the caller's, with the query text and no values", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const lean = yield* makeLean
        const tracing = yield* captureSpans
        const statement = () => sql`SELECT ${"secret-value"} AS v`
        yield* tracing.run(Effect.withSpan(statement(), "caller.own"))
        yield* tracing.run(Effect.withSpan(lean(statement()), "caller.lean"))
        const byName = (name: string) => tracing.spans.filter((s) => s.name === name)
        const [own, mine] = byName("sql.execute")
        const [ownCaller] = byName("caller.own")
        const [leanCaller] = byName("caller.lean")
        expect(byName("sql.execute")).toHaveLength(2)
        expect(own!.parent._tag === "Some" && own!.parent.value.spanId).toBe(ownCaller!.spanId)
        expect(mine!.parent._tag === "Some" && mine!.parent.value.spanId).toBe(leanCaller!.spanId)
        expect(mine!.kind).toBe("client")
        expect(Object.fromEntries(mine!.attributes)).toEqual(Object.fromEntries(own!.attributes))
        expect(String(mine!.attributes.get("db.query.text"))).not.toContain("secret-value")
        expect(mine!.status._tag).toBe("Ended")
      }))

    it.effect("steps aside for a statement transformer, which then applies as it does to the statement", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const lean = yield* makeLean
        const rewritten = lean(sql`SELECT 1 AS v`).pipe(
          Statement.withTransformer((_self, sql) => Effect.succeed(sql`SELECT 2 AS v` as Statement.Statement<unknown>))
        )
        expect(yield* rewritten).toEqual([{ v: 2 }])
        expect(yield* lean(sql`SELECT 1 AS v`)).toEqual([{ v: 1 }])
      }))
  })
})
