/**
 * The back office's customer directory on SQL (customers joined with accounts), and the
 * last-known balance written on every provider read of an account (migration 0019).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { BalanceMemo, CustomerDirectory, type StaffAccess } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { orDieDb } from "../sql/SqlSupport.js"

/** A row as the drivers give it: the bigint balance arrives as a string (node-postgres) or a number (PGlite). */
type Row = Omit<StaffAccess.Customers.CustomerSummary, "lastKnownBalanceKobo"> & {
  readonly lastKnownBalanceKobo: string | number | null
}

const summary = (r: Row): StaffAccess.Customers.CustomerSummary => ({
  ...r,
  lastKnownBalanceKobo: r.lastKnownBalanceKobo === null ? null : BigInt(r.lastKnownBalanceKobo)
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** q as a LIKE pattern matching anywhere, its own % _ and \\ taken literally. */
const contains = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export const CustomerDirectorySql = Layer.effect(
  CustomerDirectory,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql`
      SELECT c.id AS customer_id, a.id AS account_id, a.first_name, a.last_name, a.email, a.phone,
             c.core_account_number, c.customer_status, c.kyc_status, c.referral_code, c.officer_id,
             c.last_known_balance_kobo, c.balance_seen_at, c.created_at
      FROM customers c JOIN accounts a ON a.id = c.account_id`
    const order = {
      newest: sql`c.created_at DESC, c.id DESC`,
      oldest: sql`c.created_at ASC, c.id ASC`,
      balance_desc: sql`c.last_known_balance_kobo DESC NULLS LAST, c.id ASC`,
      balance_asc: sql`c.last_known_balance_kobo ASC NULLS LAST, c.id ASC`
    } as const
    return CustomerDirectory.of({
      search: (f, { page, pageSize }) => {
        const q = f.q?.trim()
        const digits = q?.replace(/\D/g, "") ?? ""
        const where = sql.and([
          ...(q === undefined || q === ""
            ? []
            : [sql`(${
              sql.or([
                sql`(coalesce(a.first_name, '') || ' ' || coalesce(a.last_name, '')) ILIKE ${contains(q)}`,
                sql`a.email ILIKE ${contains(q)}`,
                sql`c.core_account_number = ${q}`,
                sql`upper(c.referral_code) = ${q.toUpperCase()}`,
                ...(digits.length >= 4 ? [sql`a.phone LIKE ${contains(digits.replace(/^0/, ""))}`] : []),
                ...(UUID.test(q) ? [sql`c.id = ${q}`, sql`a.id = ${q}`] : [])
              ])
            })`]),
          ...(f.status === undefined ? [] : [sql`c.customer_status = ${f.status}`]),
          ...(f.kyc === undefined ? [] : [sql`c.kyc_status = ${f.kyc}`]),
          ...(f.officerId === undefined ? [] : [sql`c.officer_id = ${f.officerId}`])
        ])
        return Effect.all({
          rows: sql<Row>`${select} WHERE ${where} ORDER BY ${order[f.sort]} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
          total: sql<{ n: string | number }>`SELECT count(*) AS n FROM customers c JOIN accounts a ON a.id = c.account_id WHERE ${where}`
        }).pipe(
          Effect.map(({ rows, total }) => ({ items: rows.map(summary), page, pageSize, total: Number(total[0]?.n ?? 0) })),
          orDieDb
        )
      },
      find: (customerId) =>
        sql<Row>`${select} WHERE c.id = ${customerId}`.pipe(Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), summary)), orDieDb)
    })
  })
)

export const BalanceMemoSql = Layer.effect(
  BalanceMemo,
  Effect.map(SqlClient.SqlClient, (sql) =>
    BalanceMemo.of({
      remember: (accountNumber, balance, at) =>
        sql`
          UPDATE customers SET last_known_balance_kobo = ${balance.toString()}, balance_seen_at = ${at}
          WHERE core_account_number = ${accountNumber} AND (balance_seen_at IS NULL OR balance_seen_at <= ${at})`.pipe(
          Effect.asVoid,
          orDieDb
        )
    }))
)
