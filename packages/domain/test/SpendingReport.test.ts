/**
 * The spending report: totals, shares by largest remainder (summing to exactly 100.00), the daily
 * series with every day of the window, the window's bounds, month windows in Africa/Lagos, the CSV
 * (formula-safe) and the month's report by email (always sent; NoEmailOnFile without an email).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck as fc, TestClock } from "effect"
import { Spending } from "../src/spending/Model.js"
import * as Spendings from "../src/spending/index.js"
import { registerAda, registerBola } from "./support/Fixtures.js"
import { Sent, Store } from "./support/InMemory.js"
import { withSpendings } from "./support/InMemorySpendings.js"
import { CustomerId, SpendingId } from "../src/shared/Ids.js"

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

let n = 0
const row = (date: string, amountKobo: bigint, category = "food", description: string | null = null) =>
  new Spending({
    id: SpendingId.make(`s-${++n}`),
    customerId: CustomerId.make("c"),
    amountKobo,
    category,
    description,
    date,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
    updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n))
  })

const sumShares = (shares: ReadonlyArray<string>) => shares.reduce((a, s) => a + Math.round(Number(s) * 100), 0)

describe("report arithmetic", () => {
  it("totals, categories by total then name, shares that sum to exactly 100.00, and a daily series with zeros", () => {
    const report = Spendings.buildReport({ from: "2026-10-01", to: "2026-10-05" }, [
      row("2026-10-04", 100n, "transport"),
      row("2026-10-01", 100n, "food"),
      row("2026-10-04", 100n, "airtime"),
      row("2026-10-02", 50n, "food")
    ])
    expect(report.totalKobo).toBe(350n)
    expect(report.count).toBe(4)
    expect(report.categories).toEqual([
      { category: "food", totalKobo: 150n, count: 2, share: "42.86" },
      // 28.5714…% twice: one of them gets the last basis point (the first by name)
      { category: "airtime", totalKobo: 100n, count: 1, share: "28.57" },
      { category: "transport", totalKobo: 100n, count: 1, share: "28.57" }
    ])
    expect(sumShares(report.categories.map((c) => c.share))).toBe(10_000)
    expect(report.daily).toEqual([
      { date: "2026-10-01", totalKobo: 100n, count: 1 },
      { date: "2026-10-02", totalKobo: 50n, count: 1 },
      { date: "2026-10-03", totalKobo: 0n, count: 0 },
      { date: "2026-10-04", totalKobo: 200n, count: 2 },
      { date: "2026-10-05", totalKobo: 0n, count: 0 }
    ])
    expect(report.spendings.map((s) => s.date)).toEqual(["2026-10-01", "2026-10-02", "2026-10-04", "2026-10-04"])
  })

  it("thirds: 33.34 + 33.33 + 33.33; one category: 100.00; an empty window: no shares, zeros every day", () => {
    const thirds = Spendings.buildReport({ from: "2026-10-01", to: "2026-10-01" }, [
      row("2026-10-01", 1n, "b"),
      row("2026-10-01", 1n, "a"),
      row("2026-10-01", 1n, "c")
    ])
    expect(thirds.categories.map((c) => [c.category, c.share])).toEqual([["a", "33.34"], ["b", "33.33"], ["c", "33.33"]])
    const one = Spendings.buildReport({ from: "2026-10-01", to: "2026-10-01" }, [row("2026-10-01", 7n)])
    expect(one.categories.map((c) => c.share)).toEqual(["100.00"])
    const empty = Spendings.buildReport({ from: "2024-02-27", to: "2024-03-01" }, [])
    expect(empty).toEqual({
      from: "2024-02-27",
      to: "2024-03-01",
      totalKobo: 0n,
      count: 0,
      categories: [],
      daily: ["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01"].map((date) => ({ date, totalKobo: 0n, count: 0 })),
      spendings: []
    })
  })

  it("largest remainder: any non-negative parts get shares (all zero when they sum to zero) summing to 10,000 bp, each within 1 bp of its exact share", () => {
    fc.assert(fc.property(fc.array(fc.bigInt({ min: 0n, max: 100_000_000_000n }), { minLength: 1, maxLength: 30 }), (parts) => {
      const total = parts.reduce((a, b) => a + b, 0n)
      const shares = Spendings.largestRemainderShares(parts)
      if (total === 0n) {
        expect(shares.every((s) => s === 0n)).toBe(true)
        return
      }
      expect(shares.reduce((a, b) => a + b, 0n)).toBe(10_000n)
      parts.forEach((p, i) => {
        const floor = (p * 10_000n) / total
        expect(shares[i]! - floor === 0n || shares[i]! - floor === 1n).toBe(true)
      })
    }), { examples: [[[0n]], [[0n, 0n, 5n]]] })
    expect(Spendings.formatShare(5n)).toBe("0.05")
    expect(Spendings.formatShare(10_000n)).toBe("100.00")
  })

  it("the CSV: header, spendings, categories, days, total; no cell can start a formula", () => {
    const report = Spendings.buildReport({ from: "2026-10-01", to: "2026-10-02" }, [
      row("2026-10-02", 300n, "=cmd|' /c calc'!a1", "+1, \"quoted\""),
      row("2026-10-01", 100n, "@sum", "-2")
    ])
    expect(Spendings.reportCsv(report).split("\r\n")).toEqual([
      "section,date,category,description,amountKobo,count,share",
      "spending,2026-10-01,'@sum,'-2,100,1,",
      "spending,2026-10-02,'=cmd|' /c calc'!a1,\"'+1, \"\"quoted\"\"\",300,1,",
      "category,,'=cmd|' /c calc'!a1,,300,1,75.00",
      "category,,'@sum,,100,1,25.00",
      "day,2026-10-01,,,100,1,",
      "day,2026-10-02,,,300,1,",
      "total,,,,400,2,100.00",
      ""
    ])
  })
})

describe("windows", () => {
  it.effect("a report covers at most 366 days (both ends counted) with from ≤ to and real dates", () =>
    withSpendings(Effect.gen(function*() {
      yield* at("2026-11-20T10:00:00Z")
      const { account } = yield* registerAda()
      expect((yield* Spendings.spendingReport(account.id, { from: "2024-01-01", to: "2024-12-31" })).daily.length).toBe(366)
      const tooLong = yield* Effect.flip(Spendings.spendingReport(account.id, { from: "2024-01-01", to: "2025-01-01" }))
      expect(tooLong).toMatchObject({ _tag: "InvalidSpendingWindow", field: "to", reason: "A report covers at most 366 days" })
      expect(yield* Effect.flip(Spendings.spendingReport(account.id, { from: "2024-02-30", to: "2024-03-01" }))).toMatchObject({ field: "from" })
      expect(yield* Effect.flip(Spendings.spendingReport(account.id, { from: "2024-03-02", to: "2024-03-01" }))).toMatchObject({
        field: "to",
        reason: "to must be on or after from"
      })
    })))

  it.effect("month windows: the whole month; the current one to today (in Lagos); a later one or a malformed one refused", () =>
    Effect.gen(function*() {
      expect(yield* Spendings.monthWindow("2024-02", "2026-11-20")).toEqual({ from: "2024-02-01", to: "2024-02-29" })
      expect(yield* Spendings.monthWindow("2026-11", "2026-11-20")).toEqual({ from: "2026-11-01", to: "2026-11-20" })
      expect(yield* Effect.flip(Spendings.monthWindow("2026-12", "2026-11-30"))).toMatchObject({
        _tag: "InvalidReportMonth",
        reason: "month must not be in the future (this month is 2026-11)"
      })
      for (const bad of ["2026-13", "2026-00", "2026-1", "26-11", "2026/11", "1899-12", ""]) {
        expect(yield* Effect.flip(Spendings.monthWindow(bad, "2026-11-20"))).toMatchObject({ reason: "Use a month in the format YYYY-MM" })
      }
    }))

  it("last month in Lagos: on the 1st at 00:30 Lagos (still 23:30 UTC the day before) it is already the previous month", () => {
    expect(Spendings.lastMonthAt(new Date("2026-11-30T23:30:00Z"))).toBe("2026-11")
    expect(Spendings.lastMonthAt(new Date("2026-11-30T22:59:59Z"))).toBe("2026-10")
    expect(Spendings.lastMonthAt(new Date("2027-01-01T05:00:00Z"))).toBe("2026-12")
    expect(Spendings.lastMonthAt(new Date("2024-03-01T05:00:00Z"))).toBe("2024-02")
  })
})

describe("the month's report by email", () => {
  it.effect("month boundaries: the last day of the month is in it, the 1st of the next is not; text, HTML and the CSV attached", () =>
    withSpendings(Effect.gen(function*() {
      yield* at("2026-11-20T10:00:00Z")
      const { account } = yield* registerAda()
      const log = (date: string, amountKobo: bigint, category: string) =>
        Spendings.logSpending(account.id, { amountKobo, category, date, description: "<b>bold</b>" })
      yield* log("2026-09-30", 1_000n, "rent")
      yield* log("2026-10-01", 2_500n, "food")
      yield* log("2026-10-31", 7_500n, "<script>")
      yield* log("2026-11-01", 9_000n, "food")
      const result = yield* Spendings.emailMonthReport(account.id, "2026-10")
      expect(result).toEqual({ month: "2026-10", from: "2026-10-01", to: "2026-10-31", email: "ada@example.com", totalKobo: 10_000n, count: 2 })
      const mail = (yield* Sent.all).filter((m) => m.kind === "spending_report")
      expect(mail.length).toBe(1)
      expect(mail[0]).toMatchObject({ channel: "email", to: "ada@example.com", subject: "Your spending report for October 2026" })
      expect(mail[0]!.text).toContain("Total: ₦100.00 in 2 spendings.")
      expect(mail[0]!.text).toContain("- <script>: ₦75.00 (75.00%, 1)")
      expect(mail[0]!.html).toContain("<td>&lt;script&gt;</td>")
      expect(mail[0]!.html).not.toContain("<script>")
      expect(mail[0]!.attachments).toEqual([{
        filename: "spendings-2026-10.csv",
        contentType: "text/csv; charset=utf-8",
        content: expect.stringContaining("total,,,,10000,2,100.00")
      }])
      expect(mail[0]!.attachments![0]!.content.split("\r\n").filter((l) => l.startsWith("day,")).length).toBe(31)
    })))

  it.effect("sent on request even with email notifications off; the current month to date; a future month refused", () =>
    withSpendings(Effect.gen(function*() {
      yield* at("2026-11-20T10:00:00Z")
      const { account } = yield* registerAda()
      yield* Store.patchCustomer(account.id, { emailEnabled: false })
      expect(yield* Spendings.emailMonthReport(account.id, "2026-11")).toMatchObject({ from: "2026-11-01", to: "2026-11-20", count: 0 })
      expect((yield* Sent.all).filter((m) => m.kind === "spending_report").length).toBe(1)
      expect(yield* Effect.flip(Spendings.emailMonthReport(account.id, "2026-12"))).toMatchObject({ _tag: "InvalidReportMonth" })
      expect((yield* Sent.all).filter((m) => m.kind === "spending_report").length).toBe(1)
    })))

  it.effect("NoEmailOnFile for an account without an email, and nothing is sent", () =>
    withSpendings(Effect.gen(function*() {
      yield* at("2026-11-20T10:00:00Z")
      const bola = yield* registerBola
      yield* Store.patchAccount(bola.account.id, { email: "" })
      expect((yield* Effect.flip(Spendings.emailMonthReport(bola.account.id, "2026-10")))._tag).toBe("NoEmailOnFile")
      expect((yield* Sent.all).filter((m) => m.kind === "spending_report")).toEqual([])
    })))
})
