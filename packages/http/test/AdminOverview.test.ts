/**
 * The back office's overview end to end: real sign-ups, deposits, a transfer, plans and payouts (a paid
 * and a failed one) through the API and the saga, then the overview's figures move by exactly those;
 * the window and its zero-filled series; 400 for days out of range, 401 without a staff token, and an
 * officer (the narrowest role) may read it.
 */
import { Plans } from "@app/domain"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminGet, adminServer, member, rootToken, sandboxTransfer } from "./support/AdminFixtures.js"
import { bankCustomer } from "./support/BankingFixtures.js"
import { expectFailure, expectSuccess, expectValidation } from "./support/Fixtures.js"
import { deposit, makeDue, planCustomer } from "./support/PlanFixtures.js"

const overview = (token: string, query = "") =>
  Effect.map(adminGet(`/api/v1/admin/overview${query}`, token), (r) => expectSuccess(r, { apiObject: "Admin" }))

const transfer = sandboxTransfer

const today = (o: any) => o.series[o.series.length - 1]
const kobo = (s: string) => BigInt(s)

layer(adminServer(), { excludeTestServices: true, timeout: "120 seconds" })("admin overview", (it) => {
  describe("GET /admin/overview", () => {
    it.effect("the window: 30 UTC days by default ending today, one entry per day oldest first, amounts as decimal strings", () =>
      Effect.gen(function*() {
        const o = yield* overview(yield* rootToken)
        const now = new Date().toISOString().slice(0, 10)
        expect(o).toMatchObject({ days: 30, to: now })
        expect(o.series).toHaveLength(30)
        expect(o.series[0].date).toBe(o.from)
        const dates = o.series.map((d: any) => d.date)
        expect(dates).toEqual([...dates].sort())
        expect(new Set(dates).size).toBe(30)
        expect(Date.parse(`${o.to}T00:00:00Z`) - Date.parse(`${o.from}T00:00:00Z`)).toBe(29 * 86_400_000)
        expect(typeof o.totals.deposits.amountKobo).toBe("string")
        expect(typeof o.pending.amountKobo).toBe("string")
        expect(Object.keys(o.customers.byStatus).sort()).toEqual(["active", "closed", "closing", "deleted", "suspended", "unverified", "verified"])
        expect(Object.keys(o.customers.byKyc).sort()).toEqual(["bvn_verified", "fully_verified", "pending"])
        const week = yield* overview(yield* rootToken, "?days=7")
        expect(week.series).toHaveLength(7)
        expect((yield* overview(yield* rootToken, "?days=365")).series).toHaveLength(365)
      }))

    it.effect("sign-ups, deposits, a transfer, plans and payouts through the API move the figures by exactly that", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const before = yield* overview(token, "?days=7")

        const ada = yield* bankCustomer("overview-ada")
        yield* deposit(ada.accessToken, 2_000_000)
        yield* deposit(ada.accessToken, 3_000_000)
        const sent = yield* transfer(ada.accessToken, 150_000)
        const mid = yield* overview(token, "?days=7")
        expect(mid.to).toBe(before.to) // the same UTC day throughout
        expect(mid.customers.total - before.customers.total).toBe(1)
        expect(mid.customers.byKyc.bvn_verified - before.customers.byKyc.bvn_verified).toBe(1)
        expect(today(mid).signUps - today(before).signUps).toBe(1)
        expect(mid.totals.signUps - before.totals.signUps).toBe(1)
        expect(today(mid).deposits.count - today(before).deposits.count).toBe(2)
        expect(kobo(today(mid).deposits.amountKobo) - kobo(today(before).deposits.amountKobo)).toBe(5_000_000n)
        expect(kobo(mid.totals.deposits.amountKobo) - kobo(before.totals.deposits.amountKobo)).toBe(5_000_000n)
        const mt = (o: any) => today(o).moneyOut.manualTransfer
        expect(mt(mid).count - mt(before).count).toBe(1)
        expect(kobo(mt(mid).amountKobo) - kobo(mt(before).amountKobo)).toBe(150_000n)
        expect(kobo(mt(mid).feeKobo) - kobo(mt(before).feeKobo)).toBe(kobo(sent.feeKobo))
        expect(kobo(sent.feeKobo)).toBeGreaterThan(0n)
        expect(mid.pending).toEqual(before.pending)

        const paid = yield* planCustomer("overview-paid")
        const failing = yield* planCustomer("overview-failing", { body: { withdrawalAccountNumber: "0123450003" } })
        const planned = yield* overview(token, "?days=7")
        expect(planned.activePlans - mid.activePlans).toBe(2)
        expect(today(planned).signUps - today(mid).signUps).toBe(2)
        expect(today(planned).deposits.count - today(mid).deposits.count).toBe(2)

        yield* makeDue(paid.plan.id)
        yield* makeDue(failing.plan.id)
        yield* Plans.processDuePayouts({ batchSize: 10, concurrency: 2 })
        const after = yield* overview(token, "?days=7")
        expect(today(after).disbursements.paid - today(planned).disbursements.paid).toBe(1)
        expect(today(after).disbursements.failed - today(planned).disbursements.failed).toBe(1)
        expect(after.totals.disbursements.failed - planned.totals.disbursements.failed).toBe(1)
        const db = (o: any) => today(o).moneyOut.disbursement
        expect(db(after).count - db(planned).count).toBe(1)
        expect(kobo(db(after).amountKobo) - kobo(db(planned).amountKobo)).toBeGreaterThan(0n)
        expect(after.pending).toEqual(before.pending)
        // days before today saw none of it
        expect(after.series.slice(0, -1)).toEqual(before.series.slice(0, -1))
      }))

    it.effect("400 for days 6, 366 and abc, naming days; 401 without a staff token; an officer reads it", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        for (const days of ["6", "366", "abc", "7.5", ""]) {
          const error = expectValidation(yield* adminGet(`/api/v1/admin/overview?days=${days}`, token), { fields: ["days"], apiObject: "Admin" })
          expect(error.fieldErrors.days!.length).toBeGreaterThan(0)
        }
        expect(expectValidation(yield* adminGet("/api/v1/admin/overview?days=6", token), { fields: ["days"], apiObject: "Admin" }).fieldErrors.days)
          .toEqual(["days must be at least 7"])
        expect(expectValidation(yield* adminGet("/api/v1/admin/overview?days=366", token), { fields: ["days"], apiObject: "Admin" }).fieldErrors.days)
          .toEqual(["days must be at most 365"])
        expectFailure(yield* adminGet("/api/v1/admin/overview"), 401, "Authentication required", "Admin")
        expectFailure(yield* adminGet("/api/v1/admin/overview", "not-a-token"), 401, "Authentication required", "Admin")
        const officer = yield* member("officer")
        expect((yield* overview(officer.token, "?days=7")).series).toHaveLength(7)
      }))
  })
})
