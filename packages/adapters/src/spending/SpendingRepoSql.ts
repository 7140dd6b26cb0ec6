import * as SqlClient from "@effect/sql/SqlClient"
import { CustomerId, Spending, SpendingRepo } from "@app/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"

/** A spendings row: int8 arrives as a decimal string, `spent_on` (a date) as YYYY-MM-DD. */
const SpendingRow = Schema.Struct({
  ...Spending.fields,
  amountKobo: Schema.BigInt
})

/** Every column, `spent_on` as the domain's `date`. */
const COLUMNS = "id, customer_id, amount_kobo, category, description, spent_on::text AS date, created_at, updated_at"

export const SpendingRepoSql = Layer.effect(
  SpendingRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(SpendingRow)
    const columns = sql.literal(COLUMNS)
    const rows = (query: Effect.Effect<ReadonlyArray<unknown>, any>) =>
      query.pipe(Effect.flatMap(decode), Effect.map((rs) => rs.map((r) => new Spending(r))), orDieDb)
    const first = (query: Effect.Effect<ReadonlyArray<unknown>, any>) => Effect.map(rows(query), (rs) => Option.fromNullable(rs[0]))

    return SpendingRepo.of({
      add: (s) =>
        Effect.map(
          first(sql`
            INSERT INTO spendings (id, customer_id, amount_kobo, category, description, spent_on, created_at, updated_at)
            VALUES (${s.id}, ${s.customerId}, ${s.amountKobo.toString()}, ${s.category}, ${s.description}, ${s.date}::date,
                    ${s.createdAt}, ${s.updatedAt})
            RETURNING ${columns}`),
          Option.getOrThrow
        ),
      list: (customerId, filter, { page, pageSize }) =>
        Effect.gen(function*() {
          const where = sql.and([
            sql`customer_id = ${customerId}`,
            ...(filter.category === undefined ? [] : [sql`category = ${filter.category}`]),
            ...(filter.from === undefined ? [] : [sql`spent_on >= ${filter.from}::date`]),
            ...(filter.to === undefined ? [] : [sql`spent_on <= ${filter.to}::date`])
          ])
          const items = yield* rows(sql`
            SELECT ${columns} FROM spendings WHERE ${where}
            ORDER BY spent_on DESC, created_at DESC, id DESC
            LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`)
          const counted = yield* orDieDb(sql<{ total: string | number }>`SELECT count(*) AS total FROM spendings WHERE ${where}`)
          return { items, page, pageSize, total: Number(counted[0]?.total ?? 0) }
        }),
      between: (customerId, from, to) =>
        rows(sql`
          SELECT ${columns} FROM spendings
          WHERE customer_id = ${customerId} AND spent_on >= ${from}::date AND spent_on <= ${to}::date
          ORDER BY spent_on, created_at, id`),
      update: (customerId, id, changes, at) => {
        const set: Record<string, unknown> = { updatedAt: at }
        if (changes.amountKobo !== undefined) set.amountKobo = changes.amountKobo.toString()
        if (changes.category !== undefined) set.category = changes.category
        if (changes.description !== undefined) set.description = changes.description
        if (changes.date !== undefined) set.spentOn = changes.date
        return first(sql`
          UPDATE spendings SET ${sql.update(set)}
          WHERE id = ${id} AND customer_id = ${customerId}
          RETURNING ${columns}`)
      },
      remove: (customerId, id) =>
        first(sql`DELETE FROM spendings WHERE id = ${id} AND customer_id = ${customerId} RETURNING ${columns}`),
      customersToReport: (month, from, to, afterCustomerId, limit) =>
        orDieDb(
          sql<{ customerId: CustomerId }>`
            SELECT DISTINCT s.customer_id FROM spendings s
            WHERE s.spent_on >= ${from}::date AND s.spent_on <= ${to}::date
              ${afterCustomerId === null ? sql`` : sql`AND s.customer_id > ${afterCustomerId}`}
              AND NOT EXISTS (
                SELECT 1 FROM spending_report_claims c WHERE c.customer_id = s.customer_id AND c.month = ${month}
              )
            ORDER BY s.customer_id
            LIMIT ${limit}`
        ).pipe(Effect.map((rs) => rs.map((r) => r.customerId))),
      claimMonthlyReport: (customerId, month, at) =>
        orDieDb(sql`
          INSERT INTO spending_report_claims (customer_id, month, claimed_at)
          VALUES (${customerId}, ${month}, ${at})
          ON CONFLICT (customer_id, month) DO NOTHING
          RETURNING customer_id`).pipe(Effect.map((inserted) => inserted.length === 1))
    })
  })
)
