import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Option, type ParseResult, Schema } from "effect"

/**
 * Database failures and rows that do not match their schema are defects: they become a 500 with
 * a correlation id, never a 400 that would echo internals to the client.
 */
export const orDieDb = <A, R>(effect: Effect.Effect<A, SqlError | ParseResult.ParseError, R>): Effect.Effect<A, never, R> =>
  Effect.orDie(effect)

/** Name of the unique constraint a statement violated, if that is why it failed. */
export const uniqueViolation = (error: SqlError): string | undefined => {
  const cause = error.cause as { code?: unknown; constraint?: unknown; message?: unknown } | undefined
  if (cause?.code !== "23505") return undefined
  if (typeof cause.constraint === "string") return cause.constraint
  return typeof cause.message === "string" ? cause.message : ""
}

/**
 * One statement that may be refused (a unique violation) and may run inside a caller's transaction:
 * there, a savepoint, so that the refusal does not abort the caller's transaction; alone, the
 * statement as it is, already atomic on its own: BEGIN and COMMIT around it were two more round
 * trips (a manual transfer's insert: 14 → 12 statements).
 */
export const savepointWhenNested = <A, E, R>(sql: SqlClient.SqlClient, statement: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
  Effect.flatMap(
    Effect.serviceOption(SqlClient.TransactionConnection),
    (outer) => (Option.isSome(outer) ? sql.withTransaction(statement) : statement)
  )

export const decodeRows = <A, I>(schema: Schema.Schema<A, I>) => Schema.decodeUnknown(Schema.Array(schema))

/**
 * An instance of a `Schema.Class` (not a TaggedClass) made from fields already checked, without
 * its constructor: the same object `new Class(fields, true)` makes (the same own keys in the same
 * order, the same prototype, so `instanceof`, Equal, Hash and the class's encode see no difference;
 * SqlSupport.test.ts compares the two for every class decoded here), but the constructor copies
 * the fields three times (a spread, its defaults merged, `Object.assign` onto the instance) and
 * took ~10 µs for a 30-field row against ~1 µs. `fields` must hold every field: a default is not
 * filled in.
 */
export const instanceOf = <C>(Class: { readonly prototype: C }, fields: object): C =>
  Object.setPrototypeOf({ ...fields }, Class.prototype as object) as C

/**
 * Rows decoded with `row`, a schema of the class's own fields (int8 amounts from their decimal
 * strings), then made into instances of `Class` with `instanceOf`: the decode has checked every
 * field with the same schemas, and the constructor's second check cost as much as the decode itself
 * (13 µs per transfer row on top of 8), its copies alone ~10 µs more.
 */
export const decodeInstances = <F extends object, I, C>(row: Schema.Schema<F, I>, Class: { readonly prototype: C }) => {
  const decode = decodeRows(row)
  return (rows: ReadonlyArray<unknown>) => Effect.map(decode(rows), (decoded) => decoded.map((fields) => instanceOf(Class, fields)))
}

/**
 * Leases are compared and written on the DATABASE's clock, not each process's: a lease the domain
 * expresses as `until` (an instant on its own clock, `from` being its "now") is stored as the same
 * length from the database's `now()`, and a lease has expired when `lease_until < now()`. Processes
 * whose clocks drift apart then agree on whose lease is live (and fencing keeps a stale driver
 * harmless whatever the clocks say).
 */
export const leaseFromNow = (sql: SqlClient.SqlClient, from: Date, until: Date) =>
  sql`now() + (${Math.max(0, until.getTime() - from.getTime())}::float8 * interval '1 millisecond')`
