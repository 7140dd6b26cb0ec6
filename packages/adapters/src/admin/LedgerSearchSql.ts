/**
 * Staff search over every customer's transactions (the `transactions` table), each row with its
 * customer's name (`customers` → `accounts`) in the same query (a join: one statement per page, whatever its
 * size).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { LedgerSearch, StaffAccess } from "@app/domain"
import { Effect, Layer, Schema } from "effect"
import { decodeInstances, orDieDb } from "../sql/SqlSupport.js"
import { TransactionRow } from "../transactions/TransactionRepoSql.js"

const EntryRow = Schema.Struct({
  ...TransactionRow.fields,
  customerName: Schema.NullOr(Schema.String),
  awaitsOperator: Schema.Boolean
})

export const LedgerSearchSql = Layer.effect(
  LedgerSearch,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeInstances(EntryRow, StaffAccess.Ledger.LedgerEntry)
    const entries = (rows: ReadonlyArray<StaffAccess.Ledger.LedgerEntry>) => rows
    // the saga's AwaitOperator (Saga.decide), as SQL: transfer failed, reversal refused, account put back
    const awaitsOperator = sql`(t.type = 'transfer' AND t.status = 'pending' AND t.transfer_state = 'failed'
      AND t.reversal_state = 'refused' AND t.restored)`
    const select = sql`
      SELECT t.*, COALESCE(NULLIF(trim(concat_ws(' ', a.first_name, a.last_name)), ''), a.email) AS customer_name,
        ${awaitsOperator} AS awaits_operator
      FROM transactions t LEFT JOIN customers c ON c.id = t.customer_id LEFT JOIN accounts a ON a.id = c.account_id`
    return LedgerSearch.of({
      search: (f, { page, pageSize }) => {
        const where = sql.and([
          ...(f.id === undefined ? [] : [sql`t.id = ${f.id}`]),
          ...(f.reference === undefined
            ? []
            : [sql`(t.retrieval_reference = ${f.reference} OR t.transfer_reference = ${f.reference} OR t.provider_reference = ${f.reference})`]),
          ...(f.customerId === undefined ? [] : [sql`t.customer_id = ${f.customerId}`]),
          ...(f.status === undefined ? [] : [sql`t.status = ${f.status}`]),
          ...(f.purpose === undefined ? [] : [sql`t.purpose = ${f.purpose}`]),
          ...(f.from === undefined ? [] : [sql`t.created_at >= ${f.from}`]),
          ...(f.until === undefined ? [] : [sql`t.created_at < ${f.until}`]),
          ...(f.minAmountKobo === undefined ? [] : [sql`t.amount_kobo >= ${f.minAmountKobo.toString()}`]),
          ...(f.maxAmountKobo === undefined ? [] : [sql`t.amount_kobo <= ${f.maxAmountKobo.toString()}`])
        ])
        return Effect.all({
          rows: sql`${select} WHERE ${where}
            ORDER BY t.created_at DESC, t.id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`.pipe(Effect.flatMap(decode)),
          total: sql<{ n: string | number }>`SELECT count(*) AS n FROM transactions t WHERE ${where}`
        }).pipe(
          Effect.map(({ rows, total }) => ({ items: entries(rows), page, pageSize, total: Number(total[0]?.n ?? 0) })),
          orDieDb
        )
      },
      needingOperator: (stuckBefore, limit) => {
        const where = sql`t.status = 'pending' AND (${awaitsOperator} OR t.created_at < ${stuckBefore})`
        return Effect.all({
          rows: sql`${select} WHERE ${where}
            ORDER BY awaits_operator DESC, t.created_at ASC, t.id ASC LIMIT ${limit}`.pipe(Effect.flatMap(decode)),
          total: sql<{ n: string | number }>`SELECT count(*) AS n FROM transactions t WHERE ${where}`
        }).pipe(
          Effect.map(({ rows, total }) => ({ items: entries(rows), total: Number(total[0]?.n ?? 0) })),
          orDieDb
        )
      }
    })
  })
)
