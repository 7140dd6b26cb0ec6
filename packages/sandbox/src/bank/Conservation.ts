/** The conservation check: customer balances + settlement + paidOut = deposits. */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Ledger } from "@app/adapters/corebanking/Wire"
import { Effect } from "effect"
import { type LedgerRow, type Op, type Sql, big, num, transaction, withSql } from "./Store.js"

// -------------------------------------------------------------------------------------------------
// Conservation
// -------------------------------------------------------------------------------------------------

export type LedgerTotals = typeof Ledger.Type

export const readLedger = (sql: Sql): Effect.Effect<LedgerTotals, SqlError> =>
  Effect.gen(function*() {
    const rows = yield* sql<LedgerRow & { readonly customers: string | null }>`
      SELECT l.settlement, l.paid_out, l.deposits, (SELECT sum(balance) FROM sandbox_accounts) AS customers
      FROM sandbox_ledger l WHERE l.id = 1`
    const row = rows[0]
    if (row === undefined) return yield* Effect.dieMessage("sandbox_ledger has no row: migrations not applied?")
    return {
      customerBalances: num(big(row.customers)),
      settlement: num(big(row.settlement)),
      paidOut: num(big(row.paid_out)),
      deposits: num(big(row.deposits))
    }
  })

/** The totals of `GET /sandbox/ledger`. */
export const ledger: Op<LedgerTotals> = withSql(readLedger)

/**
 * Checks that money was neither created nor lost: customers + settlement + paidOut = deposits, no
 * negative customer balance or settlement, every balance equals its postings, deposits equal the
 * inbound postings and paidOut equals the transfers whose money is out. Read in one transaction
 * (one snapshot on PostgreSQL: REPEATABLE READ).
 */
export const conservation: Effect.Effect<
  { readonly ok: boolean; readonly ledger: LedgerTotals; readonly problems: ReadonlyArray<string> },
  SqlError,
  SqlClient.SqlClient
> = transaction((sql) =>
  Effect.gen(function*() {
    yield* sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`
    const totals = yield* readLedger(sql)
    const problems: Array<string> = []
    if (totals.customerBalances + totals.settlement + totals.paidOut !== totals.deposits) {
      problems.push(
        `customers ${totals.customerBalances} + settlement ${totals.settlement} + paidOut ${totals.paidOut} ≠ deposits ${totals.deposits}`
      )
    }
    if (totals.settlement < 0) problems.push(`settlement is negative: ${totals.settlement}`)
    const negative = yield* sql<{ readonly account_number: string; readonly balance: string }>`
      SELECT account_number, balance FROM sandbox_accounts WHERE balance < 0`
    for (const n of negative) problems.push(`account ${n.account_number} is negative: ${n.balance}`)
    const drift = yield* sql<{ readonly account_number: string; readonly balance: string; readonly posted: string }>`
      SELECT a.account_number, a.balance,
             coalesce(sum(CASE p.type WHEN 'C' THEN p.amount ELSE -p.amount END), 0) AS posted
      FROM sandbox_accounts a LEFT JOIN sandbox_postings p ON p.account_number = a.account_number
      GROUP BY a.account_number, a.balance
      HAVING a.balance <> coalesce(sum(CASE p.type WHEN 'C' THEN p.amount ELSE -p.amount END), 0)`
    for (const d of drift) problems.push(`account ${d.account_number}: balance ${d.balance} but postings sum to ${d.posted}`)
    const sums = yield* sql<{ readonly inbound: string; readonly out: string }>`
      SELECT (SELECT coalesce(sum(amount), 0) FROM sandbox_postings WHERE channel = 'nip_inbound') AS inbound,
             (SELECT coalesce(sum(amount), 0) FROM sandbox_operations WHERE kind = 'transfer' AND money_out) AS out`
    const inbound = big(sums[0]?.inbound)
    const out = big(sums[0]?.out)
    if (inbound !== BigInt(totals.deposits)) problems.push(`deposits ${totals.deposits} but inbound postings sum to ${inbound}`)
    if (out !== BigInt(totals.paidOut)) problems.push(`paidOut ${totals.paidOut} but transfers out sum to ${out}`)
    return { ok: problems.length === 0, ledger: totals, problems }
  })
)
