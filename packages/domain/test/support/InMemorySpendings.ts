/**
 * An in-memory SpendingRepo (Refs), with its monthly-report claims. Provide `InMemorySpendingsLive`
 * inside `inMemory(…)`; `SpendingStore` exposes the rows and claims to tests.
 */
import { Context, Effect, Layer, Option, Ref } from "effect"
import { Spending } from "../../src/spending/Model.js"
import { SpendingRepo } from "../../src/spending/Ports.js"
import { inMemory } from "./Fixtures.js"
import type { InMemory } from "./InMemory.js"

export class SpendingStore extends Context.Tag("test/SpendingStore")<SpendingStore, {
  readonly rows: Ref.Ref<ReadonlyArray<Spending>>
  /** "customerId|month" claimed */
  readonly claims: Ref.Ref<ReadonlySet<string>>
}>() {
  static readonly rows = Effect.flatMap(SpendingStore, (s) => Ref.get(s.rows))
  static readonly claims = Effect.flatMap(SpendingStore, (s) => Ref.get(s.claims))
}

const newestFirst = (a: Spending, b: Spending) =>
  b.date.localeCompare(a.date) || b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id)

const repo = ({ claims, rows }: SpendingStore["Type"]): SpendingRepo["Type"] => ({
  add: (s) => Effect.as(Ref.update(rows, (all) => [...all, s]), s),
  list: (customerId, filter, { page, pageSize }) =>
    Effect.map(Ref.get(rows), (all) => {
      const matching = all
        .filter((s) =>
          s.customerId === customerId &&
          (filter.category === undefined || s.category === filter.category) &&
          (filter.from === undefined || s.date >= filter.from) &&
          (filter.to === undefined || s.date <= filter.to)
        )
        .sort(newestFirst)
      return { items: matching.slice((page - 1) * pageSize, page * pageSize), page, pageSize, total: matching.length }
    }),
  between: (customerId, from, to) =>
    Effect.map(Ref.get(rows), (all) =>
      all.filter((s) => s.customerId === customerId && s.date >= from && s.date <= to).sort((a, b) => -newestFirst(a, b))),
  update: (customerId, id, changes, at) =>
    Ref.modify(rows, (all): [Option.Option<Spending>, ReadonlyArray<Spending>] => {
      const found = all.find((s) => s.id === id && s.customerId === customerId)
      if (found === undefined) return [Option.none(), all]
      const updated = new Spending({
        ...found,
        ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
        updatedAt: at
      })
      return [Option.some(updated), all.map((s) => (s.id === id ? updated : s))]
    }),
  remove: (customerId, id) =>
    Ref.modify(rows, (all): [Option.Option<Spending>, ReadonlyArray<Spending>] => {
      const found = all.find((s) => s.id === id && s.customerId === customerId)
      return found === undefined ? [Option.none(), all] : [Option.some(found), all.filter((s) => s !== found)]
    }),
  customersToReport: (month, from, to, after, limit) =>
    Effect.gen(function*() {
      const claimed = yield* Ref.get(claims)
      const ids = new Set(
        (yield* Ref.get(rows))
          .filter((s) => s.date >= from && s.date <= to && (after === null || s.customerId > after))
          .map((s) => s.customerId)
          .filter((id) => !claimed.has(`${id}|${month}`))
      )
      return [...ids].sort().slice(0, limit)
    }),
  // Ref.modify is atomic: of concurrent claims, one sees the key missing
  claimMonthlyReport: (customerId, month) =>
    Ref.modify(claims, (set): [boolean, ReadonlySet<string>] => {
      const key = `${customerId}|${month}`
      return set.has(key) ? [false, set] : [true, new Set([...set, key])]
    })
})

export const InMemorySpendingsLive = Layer.effectContext(
  Effect.gen(function*() {
    const store = { rows: yield* Ref.make<ReadonlyArray<Spending>>([]), claims: yield* Ref.make<ReadonlySet<string>>(new Set()) }
    return Context.make(SpendingStore, store).pipe(Context.add(SpendingRepo, repo(store)))
  })
)

/** Runs a test body against fresh in-memory ports and spendings (the TestClock still applies). */
export const withSpendings = <A, E>(self: Effect.Effect<A, E, InMemory | SpendingRepo | SpendingStore>): Effect.Effect<A, E> =>
  inMemory(Effect.provide(self, InMemorySpendingsLive))
