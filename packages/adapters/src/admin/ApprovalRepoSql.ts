/** Four-eyes approvals (`staff_approvals`, migration 0021); the action is kept as JSON. */
import * as SqlClient from "@effect/sql/SqlClient"
import { StaffAccess } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"

const { Approval, ApprovalRepo } = StaffAccess.Approvals


export const ApprovalRepoSql = Layer.effect(
  ApprovalRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(Approval)
    return ApprovalRepo.of({
      insert: (a) =>
        sql`INSERT INTO staff_approvals ${
          sql.insert({
            id: a.id,
            kind: a.action._tag,
            action: JSON.stringify(a.action),
            status: a.status,
            requestedBy: a.requestedBy,
            requestedAt: a.requestedAt,
            decidedBy: a.decidedBy,
            decidedAt: a.decidedAt,
            note: a.note
          })
        }`.pipe(Effect.asVoid, orDieDb),
      find: (id) =>
        sql`SELECT * FROM staff_approvals WHERE id = ${id}`.pipe(
          Effect.flatMap(decode),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          orDieDb
        ),
      transition: (id, from, to, by, at, note) =>
        sql`
          UPDATE staff_approvals SET status = ${to}, decided_by = ${by}, decided_at = ${at}, note = ${note}
          WHERE id = ${id} AND status = ${from}
          RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), orDieDb),
      list: ({ kinds, status }, { page, pageSize }) => {
        const where = sql`kind IN ${sql.in(kinds)} ${status === undefined ? sql`` : sql`AND status = ${status}`}`
        return Effect.all({
          items: sql`
            SELECT * FROM staff_approvals WHERE ${where}
            ORDER BY requested_at DESC, id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`.pipe(Effect.flatMap(decode)),
          total: sql<{ n: string | number }>`SELECT count(*) AS n FROM staff_approvals WHERE ${where}`
        }).pipe(
          Effect.map(({ items, total }) => ({ items, page, pageSize, total: Number(total[0]?.n ?? 0) })),
          orDieDb
        )
      }
    })
  })
)
