/**
 * The back office's overview in the domain: every role may read it, the window is whole UTC days
 * from the Clock (today included), the series has one entry per day with zeros, each metric counts
 * only what its definition says, and the days bounds.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, TestClock } from "effect"
import { assembleSeries, overview, windowOf } from "../src/admin/Overview.js"
import type { StaffRole } from "../src/admin/StaffModel.js"
import { activeStaff } from "./support/StaffFixtures.js"
import { InMemoryOverviewLive, OverviewStore } from "./support/InMemoryOverview.js"
import { StaffId } from "../src/shared/Ids.js"

const staff = (role: StaffRole) => activeStaff(role, 1, { id: StaffId.make(`staff-${role}`), email: `${role}@example.com` })

const at = (iso: string) => new Date(iso)
const tx = (purpose: "deposit" | "manual_transfer" | "disbursement" | "early_withdrawal", status: "pending" | "confirmed" | "failed", amountKobo: bigint, feeKobo: bigint, createdAt: string) => ({
  purpose,
  status,
  amountKobo,
  feeKobo,
  createdAt: at(createdAt)
})

const outflow = (count: number, amountKobo: bigint, feeKobo: bigint) => ({ count, amountKobo, feeKobo })
const quiet = {
  signUps: 0,
  deposits: { count: 0, amountKobo: 0n },
  moneyOut: { manualTransfer: outflow(0, 0n, 0n), disbursement: outflow(0, 0n, 0n), earlyWithdrawal: outflow(0, 0n, 0n) },
  disbursements: { paid: 0, failed: 0 }
}

describe("Overview", () => {
  it.effect("every role holds overview:read", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-03-10T12:00:00Z"))
      for (const role of ["superadmin", "admin", "support", "officer"] as const) {
        expect((yield* overview(staff(role), 7)).days).toBe(7)
      }
    }).pipe(Effect.provide(InMemoryOverviewLive)))

  it.effect("a 7-day window ending today (UTC): bounds exclusive of the day before, every metric by its definition, zeros filled", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-03-10T23:30:00Z"))
      yield* OverviewStore.add({
        customers: [
          { status: "active", kyc: "fully_verified", createdAt: at("2026-03-04T00:00:00Z") },
          { status: "verified", kyc: "bvn_verified", createdAt: at("2026-03-03T23:59:59.999Z") },
          { status: "deleted", kyc: "pending", createdAt: at("2026-03-10T23:00:00Z") },
          { status: "active", kyc: "bvn_verified", createdAt: at("2026-03-10T01:00:00Z") }
        ],
        transactions: [
          tx("deposit", "confirmed", 9_999n, 0n, "2026-03-03T23:59:59.999Z"),
          tx("deposit", "pending", 11n, 0n, "2026-03-01T10:00:00Z"),
          tx("deposit", "confirmed", 1_000_000n, 0n, "2026-03-05T10:00:00Z"),
          tx("deposit", "confirmed", 500_000n, 0n, "2026-03-05T20:00:00Z"),
          tx("deposit", "failed", 999n, 0n, "2026-03-05T21:00:00Z"),
          tx("deposit", "pending", 700n, 0n, "2026-03-06T09:00:00Z"),
          tx("manual_transfer", "confirmed", 200_000n, 2_500n, "2026-03-07T08:00:00Z"),
          tx("manual_transfer", "failed", 300_000n, 2_500n, "2026-03-07T09:00:00Z"),
          tx("disbursement", "confirmed", 100_000n, 1_000n, "2026-03-08T07:00:00Z"),
          tx("disbursement", "failed", 100_000n, 1_000n, "2026-03-08T07:05:00Z"),
          tx("disbursement", "failed", 100_000n, 1_000n, "2026-03-08T08:05:00Z"),
          tx("disbursement", "pending", 50_000n, 1_000n, "2026-03-09T07:00:00Z"),
          tx("early_withdrawal", "confirmed", 400_000n, 16_000n, "2026-03-10T23:29:59.999Z")
        ],
        plans: ["active", "active", "paused", "completed", "awaiting_funds", "depleted"]
      })
      const o = yield* overview(staff("officer"), 7)
      expect(o).toMatchObject({ days: 7, from: "2026-03-04", to: "2026-03-10", asOf: at("2026-03-10T23:30:00Z"), activePlans: 2 })
      expect(o.customers).toEqual({
        total: 4,
        byStatus: { unverified: 0, verified: 1, active: 2, suspended: 0, closing: 0, closed: 0, deleted: 1 },
        byKyc: { pending: 1, bvn_verified: 2, fully_verified: 1 }
      })
      expect(o.pending).toEqual({ count: 3, amountKobo: 50_711n })
      expect(o.series.map((d) => d.date)).toEqual(["2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"])
      expect(o.series).toEqual([
        { ...quiet, date: "2026-03-04", signUps: 1 },
        { ...quiet, date: "2026-03-05", deposits: { count: 2, amountKobo: 1_500_000n } },
        { ...quiet, date: "2026-03-06" },
        { ...quiet, date: "2026-03-07", moneyOut: { ...quiet.moneyOut, manualTransfer: outflow(1, 200_000n, 2_500n) } },
        { ...quiet, date: "2026-03-08", moneyOut: { ...quiet.moneyOut, disbursement: outflow(1, 100_000n, 1_000n) }, disbursements: { paid: 1, failed: 2 } },
        { ...quiet, date: "2026-03-09" },
        { ...quiet, date: "2026-03-10", signUps: 2, moneyOut: { ...quiet.moneyOut, earlyWithdrawal: outflow(1, 400_000n, 16_000n) } }
      ])
      expect(o.totals).toEqual({
        signUps: 3,
        deposits: { count: 2, amountKobo: 1_500_000n },
        moneyOut: { manualTransfer: outflow(1, 200_000n, 2_500n), disbursement: outflow(1, 100_000n, 1_000n), earlyWithdrawal: outflow(1, 400_000n, 16_000n) },
        disbursements: { paid: 1, failed: 2 }
      })
    }).pipe(Effect.provide(InMemoryOverviewLive)))

  it.effect("no data: every day present with zeros, totals zero, every status listed at 0", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-01-02T00:00:00Z"))
      const o = yield* overview(staff("support"), 30)
      expect(o.series).toHaveLength(30)
      expect(o.series[0]).toEqual({ ...quiet, date: "2025-12-04" })
      expect(o.series[29]).toEqual({ ...quiet, date: "2026-01-02" })
      expect(o.totals).toEqual(quiet)
      expect(o.customers.total).toBe(0)
      expect(Object.values(o.customers.byStatus)).toEqual([0, 0, 0, 0, 0, 0, 0])
      expect(o.pending).toEqual({ count: 0, amountKobo: 0n })
    }).pipe(Effect.provide(InMemoryOverviewLive)))

  it("windowOf: whole UTC days, the instant's own day last, until exclusive at the next midnight", () => {
    const w = windowOf(at("2026-02-28T00:00:00.000Z"), 7)
    expect(w.from).toEqual(at("2026-02-22T00:00:00Z"))
    expect(w.until).toEqual(at("2026-03-01T00:00:00Z"))
    expect(w.dates).toEqual(["2026-02-22", "2026-02-23", "2026-02-24", "2026-02-25", "2026-02-26", "2026-02-27", "2026-02-28"])
    const leap = windowOf(at("2028-03-01T23:59:59.999Z"), 365)
    expect(leap.dates).toHaveLength(365)
    expect(leap.dates[0]).toBe("2027-03-03")
    expect(leap.dates).toContain("2028-02-29")
  })

  it("assembleSeries ignores rows dated outside the window", () => {
    const { series, totals } = assembleSeries(["2026-01-01"], [{ date: "2025-12-31", count: 4 }], [
      { date: "2026-01-02", purpose: "deposit", status: "confirmed", count: 1, amountKobo: 5n, feeKobo: 0n }
    ])
    expect(series).toEqual([{ ...quiet, date: "2026-01-01" }])
    expect(totals).toEqual(quiet)
  })

  it.effect("days bounds: 7 and 365 answer; 6, 366 and fractions are defects (the HTTP layer refuses them first)", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-03-10T12:00:00Z"))
      expect((yield* overview(staff("admin"), 365)).series).toHaveLength(365)
      expect((yield* overview(staff("admin"), 7)).series).toHaveLength(7)
      for (const days of [6, 366, 7.5]) {
        const exit = yield* Effect.exit(overview(staff("admin"), days))
        expect(Exit.isFailure(exit) && !Exit.isInterrupted(exit) && exit.cause._tag === "Die").toBe(true)
      }
    }).pipe(Effect.provide(InMemoryOverviewLive)))
})
