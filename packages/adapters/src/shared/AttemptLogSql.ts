/**
 * Counted attempts of throttled customer actions (`customer_attempts`, migration 0033). `reserve`
 * counts and inserts in one transaction under an advisory lock of the (subject, kind) pair, so
 * concurrent requests of one customer (in any process) are counted one after another and a burst
 * never gets more than the limit through.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Throttle } from "@app/domain"
import { Effect, Layer } from "effect"
import { orDieDb } from "../sql/SqlSupport.js"

export const AttemptLogSql = Layer.effect(
  Throttle.AttemptLog,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return Throttle.AttemptLog.of({
      reserve: ({ at, id, kind, max, since, subject }) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`customer_attempts:${kind}:${subject}`}, 0))`
          const [row] = yield* sql<{ n: string | number; oldest: Date | string | null }>`
            SELECT count(*) AS n, min(at) AS oldest FROM customer_attempts
            WHERE subject = ${subject} AND kind = ${kind} AND at > ${since}`
          if (Number(row?.n ?? 0) >= max) {
            return { _tag: "Full", oldest: new Date(row?.oldest ?? at) } as const
          }
          yield* sql`INSERT INTO customer_attempts ${sql.insert({ id, subject, kind, at })}`
          return { _tag: "Reserved" } as const
        })).pipe(orDieDb),
      release: (id) => sql`DELETE FROM customer_attempts WHERE id = ${id}`.pipe(Effect.asVoid, orDieDb),
      purgeBefore: (before) =>
        sql`DELETE FROM customer_attempts WHERE at <= ${before} RETURNING 1`.pipe(Effect.map((rows) => rows.length), orDieDb)
    })
  })
)
