/**
 * Helpers of the disbursement plan end-to-end tests: plan bodies, funded customers with an active
 * plan, the NIP fees of the default schedule, and database tweaks for what the live clock cannot
 * reach (a due payout, Extra Cash taken on an earlier day).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { bankCustomer, get } from "./BankingFixtures.js"
import { api, expectSuccess, post } from "./Fixtures.js"
import { PlanId } from "@app/domain"

export const PLAN = "/api/v1/disbursements/plan"
export const HISTORY = "/api/v1/disbursements/history"
export const BORROW = `${PLAN}/borrow`
export const BORROW_QUOTE = `${PLAN}/borrow/quote`
export const EXTRA_CASH = `${PLAN}/extra-cash`
export const EXTRA_CASH_QUOTE = `${PLAN}/extra-cash/quote`
export const DISBURSEMENT = "Disbursement"

/**
 * A payout time six hours from now (UTC, HH:MM): a plan activated now has its first payout well
 * ahead, whatever the time of day the suite runs, so nothing is due unless a test makes it so.
 */
export const aheadTime = () => new Date(Date.now() + 6 * 3600_000).toISOString().slice(11, 16)

/** ₦7,000 over 7 days, daily: 7 × ₦1,000 to GTBank 0123450001. */
export const planBody = (patch: Record<string, unknown> = {}) => ({
  totalAmountKobo: 700_000,
  durationDays: 7,
  frequency: "daily",
  withdrawalAccountNumber: "0123450001",
  withdrawalBankCode: "000013",
  scheduledTime: aheadTime(),
  ...patch
})

/** NIP fee + 7.5% VAT of the default schedule: ₦10/₦25/₦50 by tier. */
export const nipFee = (amount: bigint): bigint => amount <= 500_000n ? 1_075n : amount <= 5_000_000n ? 2_688n : 5_375n

/** Extra Cash fees: 4% (half-up to the kobo) + the NIP fee. */
export const extraCashFees = (amount: bigint): bigint => (amount * 400n * 2n + 10_000n) / 20_000n + nipFee(amount)

/** The largest amount whose debit (amount + fees) fits in `free` (scanned down from the top, independently of the server). */
export const expectedMax = (free: bigint): bigint => {
  if (free <= 0n) return 0n
  // amount + fees ≥ 1.04 × amount: start just above free / 1.04 and walk down
  let m = (free * 100n) / 104n + 1n
  while (m > 0n && m + extraCashFees(m) > free) m--
  return m
}

export const deposit = (token: string, kobo: number) =>
  Effect.map(post("/api/v1/transactions/deposit/test", { amountKobo: kobo }, token), (r) =>
    expectSuccess(r, { apiObject: "Transaction" }))

export const balanceOf = (token: string) =>
  Effect.map(get("/api/v1/customers/balance", token), (r) => BigInt(expectSuccess(r, { apiObject: "Customer" }).balanceKobo))

export const savePlan = (token: string | undefined, body: unknown) => post(PLAN, body, token)
export const patchPlan = (token: string | undefined, body: unknown) => api("PATCH", PLAN, body, token)

/** POST /plan expecting 200; the plan. */
export const upsert = (token: string, body: unknown) =>
  Effect.map(savePlan(token, body), (r) => expectSuccess(r, { apiObject: DISBURSEMENT }))

export const getPlan = (token: string) =>
  Effect.map(get(PLAN, token), (r) => expectSuccess(r, { apiObject: DISBURSEMENT }))

/**
 * A customer with a bank account, `fundKobo` deposited (in test deposits of at most ₦100,000) and
 * an active plan of `body` (the second POST activates it once the wallet covers the pot).
 */
export const planCustomer = (tag: string, options: { readonly body?: Record<string, unknown>; readonly fundKobo?: number } = {}) =>
  Effect.gen(function*() {
    const customer = yield* bankCustomer(tag)
    let left = options.fundKobo ?? 2_000_000
    while (left > 0) {
      const part = Math.min(left, 10_000_000)
      yield* deposit(customer.accessToken, part)
      left -= part
    }
    const body = planBody(options.body)
    const plan = yield* upsert(customer.accessToken, body)
    expect(plan.active, "the funded plan is active").toBe(true)
    return { ...customer, plan, body }
  })

/** Makes the plan's next payout due a minute ago (as if its time had come). */
export const makeDue = (planId: PlanId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE disbursement_plans SET next_due_at = ${new Date(Date.now() - 60_000)} WHERE id = ${planId}`).pipe(
      Effect.orDie
    )

/** Moves the plan's Extra Cash movements to yesterday (their daily cap no longer counts them). */
export const extraCashYesterday = (planId: PlanId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE transactions SET created_at = created_at - interval '1 day'
        WHERE plan_id = ${planId} AND purpose = 'early_withdrawal'`).pipe(Effect.orDie)
