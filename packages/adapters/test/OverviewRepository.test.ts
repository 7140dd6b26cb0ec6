/**
 * OverviewStatsSql against a real database (PGlite and PostgreSQL): rows inserted with SQL at chosen
 * instants around the window's UTC bounds, then every metric of the overview and its zero-filled
 * series, read through the use case; sums past 2^53 stay exact.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { CustomerId, OverviewStats, StaffAccess, StaffId, StaffMember } from "@app/domain"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"
import { newCustomer } from "../src/testing/Customers.js"

const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const officer = new StaffMember({
  id: StaffId.make(randomUUID()),
  email: "officer@example.com",
  firstName: null,
  lastName: null,
  role: "officer",
  status: "active",
  passwordHash: null,
  createdAt: new Date(0),
  updatedAt: new Date(0)
})

const customer = (createdAt: string, status: string, kyc: string) =>
  Effect.gen(function*() {
    const c = yield* newCustomer("overview", "41", new Date(createdAt))
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE customers SET customer_status = ${status}, kyc_status = ${kyc} WHERE id = ${c.id}`
    return c.id
  })

const movement = (customerId: CustomerId, purpose: string, status: string, amountKobo: bigint, feeKobo: bigint, createdAt: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      INSERT INTO transactions (id, customer_id, type, purpose, amount_kobo, fee_kobo, status, created_at, updated_at)
      VALUES (${randomUUID()}, ${customerId}, ${purpose === "deposit" ? "credit" : "debit"}, ${purpose},
        ${amountKobo.toString()}, ${feeKobo.toString()}, ${status}, ${new Date(createdAt)}, ${new Date(createdAt)})`)

const plan = (customerId: CustomerId, state: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      INSERT INTO disbursement_plans (id, customer_id, total_amount_kobo, duration_days, frequency, scheduled_time, time_zone,
        withdrawal_account_number, withdrawal_bank_code, withdrawal_bank_name, withdrawal_account_name,
        name_enquiry_session_id, state, cycle_count, created_at, updated_at)
      VALUES (${randomUUID()}, ${customerId}, 1000000, 30, 'daily', '09:00', 'Africa/Lagos', '0123456789', '000013', 'GTBank',
        'ADA OBI', 'session', ${state}, 30, now(), now())`)

const outflow = (count: number, amountKobo: bigint, feeKobo: bigint) => ({ count, amountKobo, feeKobo })
const quiet = {
  signUps: 0,
  deposits: { count: 0, amountKobo: 0n },
  moneyOut: { manualTransfer: outflow(0, 0n, 0n), disbursement: outflow(0, 0n, 0n), earlyWithdrawal: outflow(0, 0n, 0n) },
  disbursements: { paid: 0, failed: 0 }
}
const BIG = 4_503_599_627_370_497n // twice this is past 2^53

layer(Repos, { timeout: "60 seconds" })(`OverviewStatsSql (${describeBackend()})`, (it) => {
  it.effect("an empty database: zeros everywhere, every day of the window listed", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2025-01-07T08:00:00Z"))
      const o = yield* StaffAccess.Overview.overview(officer, 7)
      const dates = ["2025-01-01", "2025-01-02", "2025-01-03", "2025-01-04", "2025-01-05", "2025-01-06", "2025-01-07"]
      expect(o.series).toEqual(dates.map((date) => ({ ...quiet, date })))
      expect(o.totals).toEqual(quiet)
      expect(o.customers.total).toBe(0)
      expect(o.pending).toEqual({ count: 0, amountKobo: 0n })
      expect(o.activePlans).toBe(0)
    }))

  it.effect("every metric over a 7-day window: UTC day bounds, statuses, purposes, fees, pending and plans", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-03-10T23:30:00Z"))
      const a = yield* customer("2026-03-04T00:00:00Z", "active", "fully_verified")
      const b = yield* customer("2026-03-03T23:59:59.999Z", "verified", "bvn_verified")
      const c = yield* customer("2026-03-10T23:00:00Z", "deleted", "pending")
      const d = yield* customer("2026-03-10T01:00:00Z", "suspended", "bvn_verified")
      yield* movement(a, "deposit", "confirmed", 9_999n, 0n, "2026-03-03T23:59:59.999Z")
      yield* movement(a, "deposit", "pending", 11n, 0n, "2026-03-01T10:00:00Z")
      yield* movement(a, "deposit", "confirmed", BIG, 0n, "2026-03-05T00:00:00Z")
      yield* movement(b, "deposit", "confirmed", BIG, 0n, "2026-03-05T23:59:59.999Z")
      yield* movement(a, "deposit", "failed", 999n, 0n, "2026-03-05T21:00:00Z")
      yield* movement(b, "deposit", "pending", 700n, 0n, "2026-03-06T09:00:00Z")
      yield* movement(a, "manual_transfer", "confirmed", 200_000n, 2_500n, "2026-03-07T08:00:00Z")
      yield* movement(b, "manual_transfer", "confirmed", 300_000n, 2_500n, "2026-03-07T09:00:00Z")
      yield* movement(a, "manual_transfer", "failed", 300_000n, 2_500n, "2026-03-07T10:00:00Z")
      yield* movement(a, "disbursement", "confirmed", 100_000n, 1_000n, "2026-03-08T07:00:00Z")
      yield* movement(b, "disbursement", "failed", 100_000n, 1_000n, "2026-03-08T07:05:00Z")
      yield* movement(b, "disbursement", "failed", 100_000n, 1_000n, "2026-03-08T08:05:00Z")
      yield* movement(c, "disbursement", "pending", 50_000n, 1_000n, "2026-03-09T07:00:00Z")
      yield* movement(d, "early_withdrawal", "confirmed", 400_000n, 16_000n, "2026-03-10T23:29:59.999Z")
      yield* movement(d, "early_withdrawal", "confirmed", 1n, 1n, "2026-03-11T00:00:00Z")
      yield* plan(a, "active")
      yield* plan(b, "active")
      yield* plan(c, "paused")
      yield* plan(d, "completed")
      yield* plan(d, "completed")

      const o = yield* StaffAccess.Overview.overview(officer, 7)
      expect(o).toMatchObject({ days: 7, from: "2026-03-04", to: "2026-03-10", activePlans: 2 })
      expect(o.customers).toEqual({
        total: 4,
        byStatus: { unverified: 0, verified: 1, active: 1, suspended: 1, closing: 0, closed: 0, deleted: 1 },
        byKyc: { pending: 1, bvn_verified: 2, fully_verified: 1 }
      })
      expect(o.pending).toEqual({ count: 3, amountKobo: 50_711n })
      expect(o.series).toEqual([
        { ...quiet, date: "2026-03-04", signUps: 1 },
        { ...quiet, date: "2026-03-05", deposits: { count: 2, amountKobo: 2n * BIG } },
        { ...quiet, date: "2026-03-06" },
        { ...quiet, date: "2026-03-07", moneyOut: { ...quiet.moneyOut, manualTransfer: outflow(2, 500_000n, 5_000n) } },
        { ...quiet, date: "2026-03-08", moneyOut: { ...quiet.moneyOut, disbursement: outflow(1, 100_000n, 1_000n) }, disbursements: { paid: 1, failed: 2 } },
        { ...quiet, date: "2026-03-09" },
        { ...quiet, date: "2026-03-10", signUps: 2, moneyOut: { ...quiet.moneyOut, earlyWithdrawal: outflow(1, 400_000n, 16_000n) } }
      ])
      expect(o.totals).toEqual({
        signUps: 3,
        deposits: { count: 2, amountKobo: 9_007_199_254_740_994n },
        moneyOut: {
          manualTransfer: outflow(2, 500_000n, 5_000n),
          disbursement: outflow(1, 100_000n, 1_000n),
          earlyWithdrawal: outflow(1, 400_000n, 16_000n)
        },
        disbursements: { paid: 1, failed: 2 }
      })

      // the port itself: sparse groups per day, purpose and status, inside [from, until) only
      const stats = yield* OverviewStats
      const groups = yield* stats.movements({ from: new Date("2026-03-08T00:00:00Z"), until: new Date("2026-03-09T00:00:00Z") })
      expect([...groups].sort((x, y) => x.status.localeCompare(y.status))).toEqual([
        { date: "2026-03-08", purpose: "disbursement", status: "confirmed", count: 1, amountKobo: 100_000n, feeKobo: 1_000n },
        { date: "2026-03-08", purpose: "disbursement", status: "failed", count: 2, amountKobo: 200_000n, feeKobo: 2_000n }
      ])
      const days = yield* stats.signUps({ from: new Date("2026-03-03T00:00:00Z"), until: new Date("2026-03-11T00:00:00Z") })
      expect([...days].sort((x, y) => x.date.localeCompare(y.date))).toEqual([
        { date: "2026-03-03", count: 1 },
        { date: "2026-03-04", count: 1 },
        { date: "2026-03-10", count: 2 }
      ])
    }))
})
