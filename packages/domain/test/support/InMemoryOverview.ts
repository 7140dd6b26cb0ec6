/**
 * An in-memory OverviewStats over plain rows (customers, transactions, plan states), aggregated the
 * way the SQL adapter does: per UTC day of `createdAt`, inside [from, until), empty groups omitted.
 */
import { Context, Effect, Layer, Ref } from "effect"
import type { CustomerStatus, KycStatus } from "../../src/account/Model.js"
import { type MovementDay, OverviewStats } from "../../src/admin/Overview.js"
import type { PlanState } from "../../src/plans/Model.js"
import type { TransactionPurpose, TransactionStatus } from "../../src/transactions/Model.js"

export interface OverviewRows {
  readonly customers: ReadonlyArray<{ readonly status: CustomerStatus; readonly kyc: KycStatus; readonly createdAt: Date }>
  readonly transactions: ReadonlyArray<{
    readonly purpose: TransactionPurpose
    readonly status: TransactionStatus
    readonly amountKobo: bigint
    readonly feeKobo: bigint
    readonly createdAt: Date
  }>
  readonly plans: ReadonlyArray<PlanState>
}

export class OverviewStore extends Context.Tag("test/OverviewStore")<OverviewStore, Ref.Ref<OverviewRows>>() {
  static readonly add = (rows: Partial<OverviewRows>) =>
    Effect.flatMap(OverviewStore, (ref) =>
      Ref.update(ref, (s) => ({
        customers: [...s.customers, ...(rows.customers ?? [])],
        transactions: [...s.transactions, ...(rows.transactions ?? [])],
        plans: [...s.plans, ...(rows.plans ?? [])]
      })))
}

const day = (at: Date) => at.toISOString().slice(0, 10)
const inWindow = (at: Date, w: { readonly from: Date; readonly until: Date }) =>
  at.getTime() >= w.from.getTime() && at.getTime() < w.until.getTime()

const countBy = <T, K extends string>(rows: ReadonlyArray<T>, key: (row: T) => K) => {
  const counts = new Map<K, number>()
  for (const r of rows) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1)
  return [...counts].map(([k, count]) => ({ key: k, count }))
}

const StatsLive = Layer.effect(
  OverviewStats,
  Effect.map(OverviewStore, (ref) =>
    OverviewStats.of({
      customersByStatus: Effect.map(Ref.get(ref), (s) => countBy(s.customers, (c) => c.status)),
      customersByKyc: Effect.map(Ref.get(ref), (s) => countBy(s.customers, (c) => c.kyc)),
      signUps: (w) =>
        Effect.map(Ref.get(ref), (s) =>
          countBy(s.customers.filter((c) => inWindow(c.createdAt, w)), (c) => day(c.createdAt)).map(({ count, key }) => ({ date: key, count }))),
      movements: (w) =>
        Effect.map(Ref.get(ref), (s) => {
          const groups = new Map<string, MovementDay>()
          for (const t of s.transactions.filter((t) => inWindow(t.createdAt, w))) {
            const k = `${day(t.createdAt)}|${t.purpose}|${t.status}`
            const g = groups.get(k) ?? { date: day(t.createdAt), purpose: t.purpose, status: t.status, count: 0, amountKobo: 0n, feeKobo: 0n }
            groups.set(k, { ...g, count: g.count + 1, amountKobo: g.amountKobo + t.amountKobo, feeKobo: g.feeKobo + t.feeKobo })
          }
          return [...groups.values()]
        }),
      pending: Effect.map(Ref.get(ref), (s) => {
        const pending = s.transactions.filter((t) => t.status === "pending")
        return { count: pending.length, amountKobo: pending.reduce((a, t) => a + t.amountKobo, 0n) }
      }),
      activePlans: Effect.map(Ref.get(ref), (s) => s.plans.filter((p) => p === "active").length)
    }))
)

export const InMemoryOverviewLive = StatsLive.pipe(
  Layer.provideMerge(Layer.effect(OverviewStore, Ref.make<OverviewRows>({ customers: [], transactions: [], plans: [] })))
)
