/**
 * Statements run as @effect/sql runs them, in fewer of Effect's steps, for the statements every
 * payout and movement makes (the repositories of transfers, plans and accounts).
 *
 * A statement's own execution (`Statement.commit`) opens a span, looks for a statement transformer,
 * opens a `Scope`, acquires the connection in it (the transaction's inside `withTransaction`, the
 * client's otherwise), runs the query and closes the scope: ~68 steps of Effect's runtime. Both of
 * our clients (PgClient and PgliteClient) hand out their connection with `Effect.succeed`, so the
 * scope has nothing to close. `lean(statement)` does the same work without it: the connection taken
 * from the fiber's context directly (the transaction's, else the client's one shared connection
 * object, learnt once when the layer is built), the same rows through the client's name transforms,
 * and the same `sql.execute` client span with the same attributes (the client's, the operation and
 * the query text with placeholders; no stack trace, as the library's), made only when Effect's
 * tracer is on (the domain's `Spans.useSpan`). Measured on PostgreSQL,
 * statement after statement on one connection: ~145 µs of CPU per statement against ~120.
 *
 * It falls back to the statement's own execution where it cannot be sure of doing the same: a
 * statement transformer in effect (`Statement.currentTransformer`), or a library whose statements
 * no longer carry their acquirer and attributes where this module reads them (the pinned
 * @effect/sql 0.52 keeps them as fields of its StatementPrimitive; LeanStatements.test.ts checks it
 * on both databases, transactions and rollbacks included).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import { Spans } from "@app/domain"
import { Context, Effect, Option, type Scope } from "effect"

/** What @effect/sql 0.52's statements carry, read here (not part of its typed interface). */
interface StatementFields {
  readonly acquirer: Effect.Effect<Connection, SqlError, Scope.Scope>
  readonly spanAttributes: ReadonlyArray<readonly [string, unknown]>
  readonly transformRows: (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
}

const fieldsOf = (statement: unknown): StatementFields | undefined => {
  const s = statement as Partial<StatementFields> & { readonly compile?: unknown }
  return typeof s.compile === "function" && Effect.isEffect(s.acquirer) && Array.isArray(s.spanAttributes) &&
      (s.transformRows === undefined || typeof s.transformRows === "function")
    ? s as StatementFields
    : undefined
}

/** Runs a statement leanly; any other effect (a statement already piped into more) runs as it is. */
export type Lean = <A>(statement: Effect.Effect<ReadonlyArray<A>, SqlError>) => Effect.Effect<ReadonlyArray<A>, SqlError>

/** The identity: every statement runs its own execution. */
const own: Lean = (statement) => statement

/**
 * Learns the client's shared connection and span attributes from one statement (built, never
 * run), outside any transaction: call it when a repository's layer is built.
 */
export const makeLean: Effect.Effect<Lean, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const probe = fieldsOf(sql`SELECT 1`)
  if (probe === undefined) return own
  // outside a transaction the acquirer gives the client's connection: the same object every time
  // for both of our clients (else this module is not for that client, and steps aside)
  const acquire = Effect.scoped(probe.acquirer)
  const shared = yield* acquire
  if (shared !== (yield* acquire)) return own
  const attributes: Record<string, unknown> = Object.fromEntries(probe.spanAttributes)
  attributes["db.operation.name"] = "execute"
  const spanOptions = { kind: "client", captureStackTrace: false, attributes } as const

  return <A>(query: Effect.Effect<ReadonlyArray<A>, SqlError>) => {
    const fields = fieldsOf(query)
    if (fields === undefined) return query
    const statement = query as Statement.Statement<A>
    return Effect.withFiberRuntime<ReadonlyArray<A>, SqlError>((fiber) => {
      if (Option.isSome(fiber.getFiberRef(Statement.currentTransformer))) return statement
      const transaction = Context.getOption(fiber.currentContext, SqlClient.TransactionConnection)
      const connection = Option.isSome(transaction) ? transaction.value[0] : shared
      const [text, params] = statement.compile()
      return Spans.useSpan("sql.execute", spanOptions, (span) => {
        span.attribute("db.query.text", text)
        return connection.execute(text, params, fields.transformRows) as Effect.Effect<ReadonlyArray<A>, SqlError>
      })
    })
  }
})
