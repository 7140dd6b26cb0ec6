/** The movement change feed (`movement_changes`, migration 0022), filled by a trigger on `transactions`. */
import * as SqlClient from "@effect/sql/SqlClient"
import { CustomerId, StaffAccess, TransactionId } from "@app/domain"
import { Effect, Layer, Schema } from "effect"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"

const Row = Schema.Struct({
  id: Schema.Union(Schema.String, Schema.Number).pipe(Schema.transform(Schema.String, { decode: String, encode: (s) => s })),
  transactionId: TransactionId,
  customerId: CustomerId,
  before: Schema.NullOr(Schema.Unknown),
  after: Schema.Unknown,
  changedAt: Schema.DateFromSelf
})

export const MovementChangeFeedSql = Layer.effect(
  StaffAccess.MovementAudit.MovementChangeFeed,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(Row)
    return StaffAccess.MovementAudit.MovementChangeFeed.of({
      take: (limit) =>
        sql`SELECT * FROM movement_changes ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`.pipe(
          Effect.flatMap(decode),
          Effect.map((rows) => rows.map((r) => ({ ...r, before: r.before as StaffAccess.Audit.Json, after: r.after as StaffAccess.Audit.Json }))),
          orDieDb
        ),
      remove: (ids) => sql`DELETE FROM movement_changes WHERE id IN ${sql.in(ids)}`.pipe(Effect.asVoid, orDieDb)
    })
  })
)
