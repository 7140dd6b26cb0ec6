/**
 * The spending log's rules and use cases: validation (every bad field at once), category
 * normalisation, "not in the future" judged in Africa/Lagos, the newest-first list with filters,
 * changes and removal of the customer's own spendings only (another customer's id is not found).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as Spendings from "../src/spending/index.js"
import { Rules } from "../src/spending/index.js"
import type { InvalidSpending } from "../src/spending/Errors.js"
import { SpendingId } from "../src/shared/Ids.js"
import { registerAda, registerBola } from "./support/Fixtures.js"
import { SpendingStore, withSpendings } from "./support/InMemorySpendings.js"

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

/** The fieldErrors of the InvalidSpending the effect fails with. */
const fieldErrorsOf = <A, E extends { readonly _tag: string }, R>(self: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(self), (e) => {
    expect(e._tag).toBe("InvalidSpending")
    return (e as unknown as InvalidSpending).fieldErrors
  })

describe("logging a spending", () => {
  it.effect("normalises the category and description and stores the customer's spending", () =>
    withSpendings(Effect.gen(function*() {
      yield* at("2026-11-20T10:00:00Z")
      const { account, customer } = yield* registerAda()
      const s = yield* Spendings.logSpending(account.id, { amountKobo: 150_000n, category: "  Eating   OUT ", date: "2026-11-19", description: "  suya  " })
      expect(s).toMatchObject({
        customerId: customer.id,
        amountKobo: 150_000n,
        category: "eating out",
        description: "suya",
        date: "2026-11-19",
        createdAt: new Date("2026-11-20T10:00:00Z"),
        updatedAt: new Date("2026-11-20T10:00:00Z")
      })
      expect(yield* SpendingStore.rows).toEqual([s])
      const blank = yield* Spendings.logSpending(account.id, { amountKobo: 1n, category: "x", date: "2026-11-19", description: "   " })
      expect(blank.description).toBeNull()
      const none = yield* Spendings.logSpending(account.id, { amountKobo: 1n, category: "x", date: "2026-11-19" })
      expect(none.description).toBeNull()
    })))

  it.effect("bounds: amount 1..100,000,000,000 kobo, category 1..40, description ≤ 280; every bad field reported at once", () =>
    withSpendings(Effect.gen(function*() {
      yield* at("2026-11-20T10:00:00Z")
      const { account } = yield* registerAda()
      const log = (amountKobo: bigint, category: string, date: string, description?: string) =>
        Spendings.logSpending(account.id, { amountKobo, category, date, description })
      expect(yield* fieldErrorsOf(log(0n, "   ", "2026-02-30", "d".repeat(281)))).toEqual({
        amountKobo: ["amountKobo must be greater than 0"],
        category: ["category must not be empty"],
        date: ["Use a real date in the format YYYY-MM-DD"],
        description: ["description must be at most 280 characters"]
      })
      expect(yield* fieldErrorsOf(log(-5n, "food", "2026-11-20"))).toEqual({ amountKobo: ["amountKobo must be greater than 0"] })
      expect(yield* fieldErrorsOf(log(Rules.MAX_AMOUNT_KOBO + 1n, "c".repeat(41), "1899-12-31"))).toEqual({
        amountKobo: ["amountKobo must be at most 100000000000"],
        category: ["category must be at most 40 characters"],
        date: ["date must be 1900-01-01 or later"]
      })
      // the limits themselves are fine (40 characters after normalisation; 280 after trimming)
      const edge = yield* log(Rules.MAX_AMOUNT_KOBO, ` ${"C".repeat(40)} `, "1900-01-01", ` ${"d".repeat(280)} `)
      expect(edge.category).toBe("c".repeat(40))
      expect(edge.description).toBe("d".repeat(280))
      expect((yield* SpendingStore.rows).length).toBe(1)
    })))

  it.effect("not in the future, today being the day in Africa/Lagos (UTC+1)", () =>
    withSpendings(Effect.gen(function*() {
      const { account } = yield* registerAda()
      const log = (date: string) => Spendings.logSpending(account.id, { amountKobo: 100n, category: "food", date })
      // 22:59 UTC on the 22nd is 23:59 in Lagos: the 23rd is tomorrow
      yield* at("2026-11-22T22:59:00Z")
      expect(yield* fieldErrorsOf(log("2026-11-23"))).toEqual({ date: ["date must not be in the future (today is 2026-11-22 in Africa/Lagos)"] })
      yield* log("2026-11-22")
      // 23:30 UTC on the 22nd is 00:30 on the 23rd in Lagos: now it is today
      yield* at("2026-11-22T23:30:00Z")
      expect((yield* log("2026-11-23")).date).toBe("2026-11-23")
      expect(yield* fieldErrorsOf(log("2026-11-24"))).toHaveProperty("date")
    })))
})

describe("listing, changing and removing", () => {
  it.effect("list: newest date first; category filter normalised the same way; from/to inclusive; to before from refused", () =>
    withSpendings(Effect.gen(function*() {
      yield* at("2026-11-20T10:00:00Z")
      const { account } = yield* registerAda()
      const bola = yield* registerBola
      const log = (date: string, category: string) => Spendings.logSpending(account.id, { amountKobo: 100n, category, date })
      const a = yield* log("2026-11-01", "Food")
      const b = yield* log("2026-11-10", "transport")
      const c = yield* log("2026-11-05", "FOOD")
      yield* Spendings.logSpending(bola.account.id, { amountKobo: 100n, category: "food", date: "2026-11-06" })
      const page = { page: 1, pageSize: 20 }
      expect((yield* Spendings.listSpendings(account.id, {}, page)).items.map((s) => s.id)).toEqual([b.id, c.id, a.id])
      expect((yield* Spendings.listSpendings(account.id, { category: "  food " }, page)).items.map((s) => s.id)).toEqual([c.id, a.id])
      expect((yield* Spendings.listSpendings(account.id, { from: "2026-11-05", to: "2026-11-10" }, page)).items.map((s) => s.id))
        .toEqual([b.id, c.id])
      expect(yield* Effect.flip(Spendings.listSpendings(account.id, { from: "2026-11-10", to: "2026-11-09" }, page))).toMatchObject({
        _tag: "InvalidSpendingWindow",
        field: "to"
      })
      expect(yield* fieldErrorsOf(Spendings.listSpendings(account.id, { category: " " }, page))).toHaveProperty("category")
    })))

  it.effect("update: the given fields under the same rules; none given is NoSpendingChange; another customer's is not found", () =>
    withSpendings(Effect.gen(function*() {
      yield* at("2026-11-20T10:00:00Z")
      const { account } = yield* registerAda()
      const bola = yield* registerBola
      const s = yield* Spendings.logSpending(account.id, { amountKobo: 100n, category: "food", date: "2026-11-01", description: "rice" })
      yield* at("2026-11-20T11:00:00Z")
      const changed = yield* Spendings.updateSpending(account.id, s.id, { amountKobo: 250n, category: " Groceries " })
      expect(changed).toMatchObject({ amountKobo: 250n, category: "groceries", description: "rice", date: "2026-11-01" })
      expect(changed.updatedAt).toEqual(new Date("2026-11-20T11:00:00Z"))
      expect((yield* Spendings.updateSpending(account.id, s.id, { description: null })).description).toBeNull()
      expect((yield* Spendings.updateSpending(account.id, s.id, { description: " beans " })).description).toBe("beans")
      expect((yield* Effect.flip(Spendings.updateSpending(account.id, s.id, {})))._tag).toBe("NoSpendingChange")
      expect(yield* fieldErrorsOf(Spendings.updateSpending(account.id, s.id, { amountKobo: 0n, date: "2026-11-21" }))).toEqual({
        amountKobo: ["amountKobo must be greater than 0"],
        date: ["date must not be in the future (today is 2026-11-20 in Africa/Lagos)"]
      })
      expect((yield* Effect.flip(Spendings.updateSpending(bola.account.id, s.id, { amountKobo: 1n })))._tag).toBe("SpendingNotFound")
      expect((yield* Effect.flip(Spendings.updateSpending(account.id, SpendingId.make("00000000-0000-4000-8000-000000000999"), { amountKobo: 1n })))._tag)
        .toBe("SpendingNotFound")
      expect((yield* SpendingStore.rows)[0]).toMatchObject({ amountKobo: 250n, category: "groceries" })
    })))

  it.effect("remove: the customer's own, once; another customer's id is not found and stays", () =>
    withSpendings(Effect.gen(function*() {
      yield* at("2026-11-20T10:00:00Z")
      const { account } = yield* registerAda()
      const bola = yield* registerBola
      const s = yield* Spendings.logSpending(account.id, { amountKobo: 100n, category: "food", date: "2026-11-01" })
      expect((yield* Effect.flip(Spendings.removeSpending(bola.account.id, s.id)))._tag).toBe("SpendingNotFound")
      expect((yield* SpendingStore.rows).length).toBe(1)
      expect(yield* Spendings.removeSpending(account.id, s.id)).toEqual(s)
      expect((yield* Effect.flip(Spendings.removeSpending(account.id, s.id)))._tag).toBe("SpendingNotFound")
      expect(yield* SpendingStore.rows).toEqual([])
    })))
})
