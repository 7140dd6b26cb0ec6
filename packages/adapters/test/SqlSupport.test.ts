import { Account, Customer, Instalment, Plan, Transaction, Transfer } from "@app/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it, layer } from "@effect/vitest"
import { Arbitrary, Effect, Either, Equal, FastCheck, Hash, Schema } from "effect"
import { instanceOf, savepointWhenNested } from "../src/sql/SqlSupport.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"

/** Every class the repositories make with `instanceOf` (decodeInstances, TransferRepo.updateCurrent, AccountRepo). */
const classes: ReadonlyArray<readonly [string, { readonly prototype: object }]> = [
  ["Transfer", Transfer],
  ["Plan", Plan],
  ["Instalment", Instalment],
  ["Transaction", Transaction],
  ["Account", Account],
  ["Customer", Customer]
]

describe("instanceOf", () => {
  for (const [name, Class] of classes) {
    it(`makes the same ${name} its constructor makes without validating`, () => {
      const schema = Class as unknown as Schema.Schema<object>
      FastCheck.assert(
        FastCheck.property(Arbitrary.make(schema), (sample) => {
          const fields = { ...sample }
          const made = instanceOf(Class, fields)
          const constructed = new (Class as unknown as new(f: object, disable: true) => object)({ ...sample }, true)
          expect(made).toBeInstanceOf(Class)
          expect(Object.getPrototypeOf(made)).toBe(Object.getPrototypeOf(constructed))
          expect(Reflect.ownKeys(made)).toEqual(Reflect.ownKeys(constructed))
          // as equal as a second constructed copy is (a NaN field makes neither equal)
          const twin = new (Class as unknown as new(f: object, disable: true) => object)({ ...sample }, true)
          expect(Equal.equals(made, constructed)).toBe(Equal.equals(twin, constructed))
          expect(Hash.hash(made)).toBe(Hash.hash(constructed))
          expect(Schema.encodeSync(schema)(made)).toEqual(Schema.encodeSync(schema)(constructed))
          // a copy: the fields given are not the instance
          expect(made).not.toBe(fields)
        }),
        { numRuns: 50 }
      )
    })
  }

  it("tells a changed field apart, as the constructor's instances do", () => {
    const [sample] = FastCheck.sample(Arbitrary.make(Transfer), 1)
    const made = instanceOf(Transfer, { ...sample!, restored: !sample!.restored })
    expect(Equal.equals(made, new Transfer({ ...sample! }, true))).toBe(false)
  })
})

layer(TestSqlLayer, { timeout: "60 seconds" })(`savepointWhenNested (${describeBackend()})`, (it) => {
  // In a transaction block now() is the block's start, earlier than the statement's own timestamp;
  // a statement that is its own transaction starts both at once.
  const alone = Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql<{ readonly alone: boolean }>`SELECT now() = statement_timestamp() AS alone`, (rows) => rows[0].alone))

  it.effect("runs a statement alone as its own transaction: no BEGIN and COMMIT around it", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      expect(yield* savepointWhenNested(sql, alone)).toBe(true)
    }))

  it.effect("inside a caller's transaction, runs it in a savepoint: a refused statement leaves the caller's transaction usable", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const table = `savepoint_probe_${Date.now()}`
      yield* sql.unsafe(`CREATE TABLE ${table} (id int PRIMARY KEY)`)
      const insert = (id: number) => sql.unsafe(`INSERT INTO ${table} (id) VALUES (${id})`)
      const inside = yield* sql.withTransaction(Effect.gen(function*() {
        const nested = yield* savepointWhenNested(sql, alone)
        yield* insert(1)
        const refused = yield* Effect.either(savepointWhenNested(sql, insert(1)))
        yield* insert(2)
        return { nested, refused: Either.isLeft(refused) }
      }))
      expect(inside).toEqual({ nested: false, refused: true })
      const rows = yield* sql.unsafe<{ readonly id: number }>(`SELECT id FROM ${table} ORDER BY id`)
      expect(rows.map((r) => r.id)).toEqual([1, 2])
      yield* sql.unsafe(`DROP TABLE ${table}`)
    }))
})
