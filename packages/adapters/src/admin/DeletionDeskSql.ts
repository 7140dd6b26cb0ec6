/** Deletion records for staff review (`deletion_records`, migrations 0015 and 0020). */
import * as SqlClient from "@effect/sql/SqlClient"
import { DeletionDesk, DeletionRecord, type StaffAccess, StaffId } from "@app/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { DeletionRow } from "../lifecycle/AccountErasureSql.js"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"

const ReviewRow = Schema.Struct({
  ...DeletionRow.fields,
  reviewedBy: Schema.NullOr(StaffId),
  reviewedAt: Schema.NullOr(Schema.DateFromSelf),
  reviewNote: Schema.NullOr(Schema.String)
})

const review = ({ reviewNote, reviewedAt, reviewedBy, ...record }: typeof ReviewRow.Type): StaffAccess.Deletions.DeletionReview => ({
  record: new DeletionRecord(record),
  reviewedBy,
  reviewedAt,
  reviewNote
})

export const DeletionDeskSql = Layer.effect(
  DeletionDesk,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(ReviewRow)
    const reviews = (rows: ReadonlyArray<unknown>) => Effect.map(decode(rows), (rs) => rs.map(review))
    return DeletionDesk.of({
      list: (status, { page, pageSize }) =>
        Effect.all({
          rows: sql`
            SELECT * FROM deletion_records WHERE status = ${status}
            ORDER BY created_at DESC, id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`.pipe(Effect.flatMap(reviews)),
          total: sql<{ n: string | number }>`SELECT count(*) AS n FROM deletion_records WHERE status = ${status}`
        }).pipe(
          Effect.map(({ rows, total }) => ({ items: rows, page, pageSize, total: Number(total[0]?.n ?? 0) })),
          orDieDb
        ),
      find: (id) =>
        sql`SELECT * FROM deletion_records WHERE id = ${id}`.pipe(
          Effect.flatMap(reviews),
          Effect.map((rs) => Option.fromNullable(rs[0])),
          orDieDb
        ),
      markReviewed: (id, staffId, note, at) =>
        sql`
          UPDATE deletion_records SET status = 'reviewed', reviewed_by = ${staffId}, reviewed_at = ${at}, review_note = ${note}
          WHERE id = ${id} AND status = 'pending_review'
          RETURNING *`.pipe(Effect.flatMap(reviews), Effect.map((rs) => Option.fromNullable(rs[0])), orDieDb)
    })
  })
)
