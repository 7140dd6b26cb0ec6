/**
 * Helpers of the account lifecycle tests (close-account, delete-account): the requests, the sweep
 * amount computed independently of the server, and what the service and the bank recorded.
 */
import { AccountId, Alerts, CoreBanking, CustomerId, TransactionId, Transfers } from "@app/domain"
import { conservation } from "@app/sandbox"
import * as SqlClient from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { actionOtp } from "./BankingFixtures.js"
import { post } from "./Fixtures.js"
import { nipFee } from "./PlanFixtures.js"

export const CLOSE = "/api/v1/customers/close-account"
export const DELETE = "/api/v1/customers/delete-account"

export interface Signed {
  readonly accessToken: string
  readonly email: string
}

/** POST /close-account with a fresh OTP (or the given fields). */
export const closeAccount = (c: Signed, patch: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const otp = yield* actionOtp(c.accessToken, c.email)
    return yield* post(CLOSE, { idempotencyKey: randomUUID(), ...otp, ...patch }, c.accessToken)
  })

/** POST /delete-account with a fresh OTP (or the given fields). */
export const deleteAccount = (c: Signed, patch: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const otp = yield* actionOtp(c.accessToken, c.email)
    return yield* post(DELETE, { ...otp, ...patch }, c.accessToken)
  })

/** The largest amount whose amount + NIP fee fits in the balance (scanned down, independently of the server). */
export const sweepOf = (balance: bigint): bigint => {
  let m = balance
  while (m > 0n && m + nipFee(m) > balance) m--
  return m
}

export const customerStatus = (accountId: AccountId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ customerStatus: string }>`SELECT customer_status FROM customers WHERE account_id = ${accountId}`).pipe(
      Effect.map((rows) => rows[0]?.customerStatus),
      Effect.orDie
    )

/** The account at the bank, and how many times it was debited. */
export const atTheBank = (accountNumber: string) =>
  Effect.gen(function*() {
    const bank = yield* CoreBanking
    const account = yield* bank.account(accountNumber)
    const history = yield* bank.history(accountNumber)
    return { account, debits: history.filter((h) => h.channel === "core_debit").length }
  }).pipe(Effect.orDie)

export const booksBalance = Effect.gen(function*() {
  const check = yield* conservation
  expect(check.problems).toEqual([])
  expect(check.ok).toBe(true)
})

export const alertKindsOf = (customerId: CustomerId) =>
  Effect.map(Alerts.listOpen, (alerts) => alerts.filter((a) => a.customerId === customerId).map((a) => a.kind))

/** Lets the movement's lease run out and its requery fall due, as the clock would. */
export const due = (transactionId: TransactionId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      UPDATE transactions SET lease_until = ${new Date(Date.now() - 1000)}, next_attempt_at = ${new Date(Date.now() - 1000)}
      WHERE id = ${transactionId}`).pipe(Effect.orDie)

/** The customer's sweep movement (purpose early_withdrawal, narration "Account closure"). */
export const sweepRow = (customerId: CustomerId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: string; status: string; amountKobo: string; feeKobo: string }>`
      SELECT id, status, amount_kobo, fee_kobo FROM transactions
      WHERE customer_id = ${customerId} AND narration = 'Account closure'`).pipe(Effect.orDie)

/** Reconciliation until the customer's pending sweep settles (at most 8 requeries); its status. */
export const reconcileSweep = (customerId: CustomerId) =>
  Effect.gen(function*() {
    const [row] = yield* sweepRow(customerId)
    for (let pass = 0; pass < 8 && (yield* sweepRow(customerId))[0]!.status === "pending"; pass++) {
      yield* due(TransactionId.make(row!.id))
      yield* Transfers.processDue()
    }
    return (yield* sweepRow(customerId))[0]!.status
  })
