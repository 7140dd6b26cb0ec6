/** Staff search over every customer's transactions (the `transactions` table). */
import * as SqlClient from "@effect/sql/SqlClient"
import { LedgerSearch, Transaction } from "@app/domain"
import { Effect, Layer } from "effect"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"
import { TransactionRow } from "../transactions/TransactionRepoSql.js"

export const LedgerSearchSql = Layer.effect(
  LedgerSearch,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(TransactionRow)
    return LedgerSearch.of({
      search: (f, { page, pageSize }) => {
        const where = sql.and([
          ...(f.id === undefined ? [] : [sql`id = ${f.id}`]),
          ...(f.reference === undefined
            ? []
            : [sql`(retrieval_reference = ${f.reference} OR transfer_reference = ${f.reference} OR provider_reference = ${f.reference})`]),
          ...(f.customerId === undefined ? [] : [sql`customer_id = ${f.customerId}`]),
          ...(f.status === undefined ? [] : [sql`status = ${f.status}`]),
          ...(f.purpose === undefined ? [] : [sql`purpose = ${f.purpose}`]),
          ...(f.from === undefined ? [] : [sql`created_at >= ${f.from}`]),
          ...(f.until === undefined ? [] : [sql`created_at < ${f.until}`]),
          ...(f.minAmountKobo === undefined ? [] : [sql`amount_kobo >= ${f.minAmountKobo.toString()}`]),
          ...(f.maxAmountKobo === undefined ? [] : [sql`amount_kobo <= ${f.maxAmountKobo.toString()}`])
        ])
        return Effect.all({
          rows: sql`
            SELECT * FROM transactions WHERE ${where}
            ORDER BY created_at DESC, id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`.pipe(Effect.flatMap(decode)),
          total: sql<{ n: string | number }>`SELECT count(*) AS n FROM transactions WHERE ${where}`
        }).pipe(
          Effect.map(({ rows, total }) => ({
            items: rows.map((r) => new Transaction(r)),
            page,
            pageSize,
            total: Number(total[0]?.n ?? 0)
          })),
          orDieDb
        )
      }
    })
  })
)
