/**
 * The sandbox bank's tables as its operations see them: SQL helpers, rows, and the locks and ledger
 * moves every money operation uses (always in the same order: operation → customer account →
 * ledger row, so concurrent calls are deadlock-free). Works over any `SqlClient` (with or without
 * name transforms: it uses its own).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { AccountData, StatusData, WireTransaction } from "@app/adapters/corebanking/Wire"
import { Effect } from "effect"
import type { DuplicateReferences } from "../Settings.js"

export type Sql = SqlClient.SqlClient

/** The sandbox's configurable rules (see `SandboxOptions`). */
export interface BankRules {
  readonly duplicateReferences: DuplicateReferences
  readonly nameEnquirySessionTtlMs: number
}

export type Op<A> = Effect.Effect<A, SqlError, SqlClient.SqlClient>

/** The client without name transforms: rows come back with their snake_case column names. */
export const rawSql: Effect.Effect<Sql, never, SqlClient.SqlClient> = Effect.map(SqlClient.SqlClient, (sql) => sql.withoutTransforms())

export const withSql = <A, E>(f: (sql: Sql) => Effect.Effect<A, E>): Effect.Effect<A, E, SqlClient.SqlClient> =>
  Effect.flatMap(rawSql, f)

export const transaction = <A, E>(f: (sql: Sql) => Effect.Effect<A, E>): Effect.Effect<A, E | SqlError, SqlClient.SqlClient> =>
  withSql((sql) => sql.withTransaction(f(sql)))

/** int8 arrives as a string (both clients); `sum()` of int8 is numeric, also a string. */
export const big = (value: unknown): bigint => BigInt(String(value ?? "0"))

/** Kobo on the wire is a JSON number; our totals are far below 2^53 in practice, checked anyway. */
export const num = (value: bigint): number => {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new Error(`amount ${value} does not fit a JSON number`)
  }
  return Number(value)
}

// -------------------------------------------------------------------------------------------------
// Rows
// -------------------------------------------------------------------------------------------------

export interface AccountRow {
  readonly account_number: string
  readonly customer_reference: string
  readonly account_name: string
  readonly balance: string
  readonly pnd_active: boolean
  readonly frozen: boolean
  readonly freeze_reference: string | null
}

export interface OperationRow {
  readonly reference: string
  readonly kind: "debit" | "credit" | "transfer" | "deposit"
  readonly account_number: string | null
  readonly amount: string
  readonly destination_account_number: string | null
  readonly destination_bank_code: string | null
  readonly status: typeof StatusData.Type.status
  readonly response_code: string
  readonly response_message: string
  readonly money_out: boolean
  readonly requery_count: number
}

export interface PostingRow {
  readonly reference: string
  readonly type: "C" | "D"
  readonly amount: string
  readonly narration: string
  readonly channel: typeof WireTransaction.Type.channel
  readonly counterparty_name: string | null
  readonly counterparty_account_number: string | null
  readonly counterparty_bank_code: string | null
  readonly posted_at: Date
}

export const accountData = (row: AccountRow): typeof AccountData.Type => ({
  accountNumber: row.account_number,
  accountName: row.account_name,
  customerReference: row.customer_reference
})

export const findAccount = (sql: Sql, accountNumber: string) =>
  Effect.map(
    sql<AccountRow>`SELECT * FROM sandbox_accounts WHERE account_number = ${accountNumber}`,
    (rows) => rows[0]
  )

export const lockAccount = (sql: Sql, accountNumber: string) =>
  Effect.map(
    sql<AccountRow>`SELECT * FROM sandbox_accounts WHERE account_number = ${accountNumber} FOR UPDATE`,
    (rows) => rows[0]
  )

export const activeLiens = (sql: Sql, accountNumber: string) =>
  sql<{ readonly reference: string; readonly amount: string }>`
    SELECT reference, amount FROM sandbox_liens
    WHERE account_number = ${accountNumber} AND removed_at IS NULL
    ORDER BY placed_at, reference`

export const lienTotal = (sql: Sql, accountNumber: string) =>
  Effect.map(
    sql<{ readonly total: string | null }>`
      SELECT sum(amount) AS total FROM sandbox_liens WHERE account_number = ${accountNumber} AND removed_at IS NULL`,
    (rows) => big(rows[0]?.total)
  )

export interface LedgerRow {
  readonly settlement: string
  readonly paid_out: string
  readonly deposits: string
}

export const lockLedger = (sql: Sql) =>
  Effect.map(sql<LedgerRow>`SELECT * FROM sandbox_ledger WHERE id = 1 FOR UPDATE`, (rows) => {
    const row = rows[0]
    if (row === undefined) throw new Error("sandbox_ledger has no row: migrations not applied?")
    return { settlement: big(row.settlement), paidOut: big(row.paid_out), deposits: big(row.deposits) }
  })

export const moveLedger = (sql: Sql, delta: { settlement?: bigint; paidOut?: bigint; deposits?: bigint }) =>
  sql`
    UPDATE sandbox_ledger SET
      settlement = settlement + ${String(delta.settlement ?? 0n)}::int8,
      paid_out = paid_out + ${String(delta.paidOut ?? 0n)}::int8,
      deposits = deposits + ${String(delta.deposits ?? 0n)}::int8
    WHERE id = 1`

export const moveAccount = (sql: Sql, accountNumber: string, delta: bigint) =>
  sql`UPDATE sandbox_accounts SET balance = balance + ${String(delta)}::int8 WHERE account_number = ${accountNumber}`

export const nextSerial = (sql: Sql, sequence: "sandbox_account_serial" | "sandbox_reference_serial") =>
  Effect.map(sql<{ readonly n: string }>`SELECT nextval(${sequence}::regclass)::text AS n`, (rows) => big(rows[0]!.n))
