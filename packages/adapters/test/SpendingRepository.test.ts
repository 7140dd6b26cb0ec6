/**
 * SpendingRepoSql against a real database (PGlite, or PostgreSQL when TEST_DATABASE_URL is set):
 * dates and kobo round-trip, newest-date-first paging with filters, only the customer's own rows,
 * and the monthly report's claim (one winner however many claim at once).
 */
import { CustomerId, Spending, SpendingId, SpendingRepo } from "@app/domain"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"
import { newCustomer } from "../src/testing/Customers.js"

const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const at = new Date("2026-10-15T08:00:00.000Z")
const minutes = (m: number) => new Date(at.getTime() + m * 60_000)

let n = 0
const spending = (customerId: CustomerId, date: string, amountKobo: bigint, category = "food", description: string | null = null) => {
  const created = minutes(++n)
  return new Spending({ id: SpendingId.make(randomUUID()), customerId, amountKobo, category, description, date, createdAt: created, updatedAt: created })
}

layer(Repos, { timeout: "60 seconds" })(`SpendingRepoSql (${describeBackend()})`, (it) => {
  it.effect("add returns the row as stored: bigint kobo (beyond 2^53 too), the date as YYYY-MM-DD, null description", () =>
    Effect.gen(function*() {
      const repo = yield* SpendingRepo
      const c = yield* newCustomer("spend", "81", at)
      const small = spending(c.id, "2026-02-28", 1n)
      const large = spending(c.id, "2026-10-01", 100_000_000_000n, "rent", "October's rent")
      expect(yield* repo.add(small)).toEqual(small)
      expect(yield* repo.add(large)).toEqual(large)
      expect(yield* repo.between(c.id, "2026-01-01", "2026-12-31")).toEqual([small, large])
    }))

  it.effect("list: newest date first, then newest logged; category and from/to (inclusive) filters; paging with total", () =>
    Effect.gen(function*() {
      const repo = yield* SpendingRepo
      const c = yield* newCustomer("spend", "82", at)
      const other = yield* newCustomer("spend", "82", at)
      const a = yield* repo.add(spending(c.id, "2026-09-30", 100n, "food"))
      const b = yield* repo.add(spending(c.id, "2026-10-01", 200n, "transport"))
      const d = yield* repo.add(spending(c.id, "2026-10-01", 300n, "food"))
      const e = yield* repo.add(spending(c.id, "2026-10-31", 400n, "food"))
      yield* repo.add(spending(other.id, "2026-10-01", 999n, "food"))
      const all = yield* repo.list(c.id, {}, { page: 1, pageSize: 20 })
      expect(all.items.map((s) => s.id)).toEqual([e.id, d.id, b.id, a.id])
      expect(all.total).toBe(4)
      const food = yield* repo.list(c.id, { category: "food" }, { page: 1, pageSize: 20 })
      expect(food.items.map((s) => s.id)).toEqual([e.id, d.id, a.id])
      const october = yield* repo.list(c.id, { from: "2026-10-01", to: "2026-10-31" }, { page: 1, pageSize: 20 })
      expect(october.items.map((s) => s.id)).toEqual([e.id, d.id, b.id])
      const page2 = yield* repo.list(c.id, { from: "2026-10-01" }, { page: 2, pageSize: 2 })
      expect(page2).toMatchObject({ page: 2, pageSize: 2, total: 3 })
      expect(page2.items.map((s) => s.id)).toEqual([b.id])
      expect((yield* repo.list(c.id, { to: "2026-09-30" }, { page: 1, pageSize: 20 })).items.map((s) => s.id)).toEqual([a.id])
      expect((yield* repo.list(c.id, { category: "rent" }, { page: 1, pageSize: 20 })).total).toBe(0)
    }))

  it.effect("update changes only the given fields (description to null too) of the customer's own row", () =>
    Effect.gen(function*() {
      const repo = yield* SpendingRepo
      const c = yield* newCustomer("spend", "83", at)
      const other = yield* newCustomer("spend", "83", at)
      const s = yield* repo.add(spending(c.id, "2026-10-02", 500n, "food", "suya"))
      expect(yield* repo.update(other.id, s.id, { amountKobo: 1n }, minutes(100))).toEqual(Option.none())
      expect(yield* repo.update(c.id, SpendingId.make(randomUUID()), { amountKobo: 1n }, minutes(100))).toEqual(Option.none())
      const changed = Option.getOrThrow(yield* repo.update(c.id, s.id, { amountKobo: 750n, date: "2026-10-03" }, minutes(101)))
      expect(changed).toEqual(new Spending({ ...s, amountKobo: 750n, date: "2026-10-03", updatedAt: minutes(101) }))
      const cleared = Option.getOrThrow(yield* repo.update(c.id, s.id, { description: null, category: "snacks" }, minutes(102)))
      expect(cleared).toMatchObject({ description: null, category: "snacks", amountKobo: 750n, date: "2026-10-03" })
    }))

  it.effect("remove deletes the customer's own row once; another customer's stays", () =>
    Effect.gen(function*() {
      const repo = yield* SpendingRepo
      const c = yield* newCustomer("spend", "84", at)
      const other = yield* newCustomer("spend", "84", at)
      const s = yield* repo.add(spending(c.id, "2026-10-02", 500n))
      expect(yield* repo.remove(other.id, s.id)).toEqual(Option.none())
      expect(yield* repo.remove(c.id, s.id)).toEqual(Option.some(s))
      expect(yield* repo.remove(c.id, s.id)).toEqual(Option.none())
      expect(yield* repo.between(c.id, "2026-01-01", "2026-12-31")).toEqual([])
    }))

  it.effect("customersToReport: who spent in the window, by id in keyset batches, without the claimed", () =>
    Effect.gen(function*() {
      const repo = yield* SpendingRepo
      const month = "1999-03"
      const ids: Array<CustomerId> = []
      for (let i = 0; i < 5; i++) {
        const c = yield* newCustomer("spend", "85", at)
        yield* repo.add(spending(c.id, i % 2 === 0 ? "1999-03-01" : "1999-03-31", 100n))
        yield* repo.add(spending(c.id, "1999-03-15", 100n)) // twice in the month: listed once
        ids.push(c.id)
      }
      const outside = yield* newCustomer("spend", "85", at)
      yield* repo.add(spending(outside.id, "1999-04-01", 100n))
      yield* repo.add(spending(outside.id, "1999-02-28", 100n))
      const sorted = [...ids].sort()
      const first = yield* repo.customersToReport(month, "1999-03-01", "1999-03-31", null, 3)
      expect(first).toEqual(sorted.slice(0, 3))
      expect(yield* repo.customersToReport(month, "1999-03-01", "1999-03-31", first[2]!, 3)).toEqual(sorted.slice(3))
      expect(yield* repo.claimMonthlyReport(sorted[1]!, month, at)).toBe(true)
      expect(yield* repo.customersToReport(month, "1999-03-01", "1999-03-31", null, 10)).toEqual(sorted.filter((_, i) => i !== 1))
      // a claim of another month does not hide this one
      expect(yield* repo.claimMonthlyReport(sorted[0]!, "1999-02", at)).toBe(true)
      expect(yield* repo.customersToReport(month, "1999-03-01", "1999-03-31", null, 10)).toContain(sorted[0])
    }))

  it.effect("claimMonthlyReport: of many concurrent claims of one (customer, month), exactly one wins", () =>
    Effect.gen(function*() {
      const repo = yield* SpendingRepo
      const c = yield* newCustomer("spend", "86", at)
      const claims = yield* Effect.all(Array.from({ length: 8 }, () => repo.claimMonthlyReport(c.id, "2026-09", at)), {
        concurrency: "unbounded"
      })
      expect(claims.filter((won) => won).length).toBe(1)
      expect(yield* repo.claimMonthlyReport(c.id, "2026-09", minutes(60))).toBe(false)
      expect(yield* repo.claimMonthlyReport(c.id, "2026-10", minutes(60))).toBe(true)
    }))
})
