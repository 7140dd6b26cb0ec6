import * as SqlClient from "@effect/sql/SqlClient"
import { Notice, NoticeRepo } from "@app/domain"
import { Effect, Layer } from "effect"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"

/** Notices are `notices` rows, kept for the customer and for admins. */
export const NoticeRepoSql = Layer.effect(
  NoticeRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(Notice)

    return NoticeRepo.of({
      record: (notice) =>
        orDieDb(sql`
          INSERT INTO notices ${
          sql.insert({
            id: notice.id,
            customerId: notice.customerId,
            planId: notice.planId,
            transactionId: notice.transactionId,
            kind: notice.kind,
            message: notice.message,
            createdAt: notice.createdAt
          })
        }`).pipe(Effect.asVoid),
      listForCustomer: (customerId) =>
        sql`
          SELECT * FROM notices WHERE customer_id = ${customerId}
          ORDER BY created_at DESC, id DESC`.pipe(
          Effect.flatMap(decode),
          Effect.map((rows) => rows.map((r) => new Notice(r))),
          orDieDb
        )
    })
  })
)
