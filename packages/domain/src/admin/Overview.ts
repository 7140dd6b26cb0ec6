/**
 * The back office's dashboard: point-in-time counts (customers by status and by KYC, pending
 * movements, active plans) and, over a window of whole UTC days ending today, daily figures (sign-ups,
 * deposits, money out by purpose, payouts paid and failed) with their totals.
 *
 * The port answers sparse aggregates (only days that had rows); the use case lays them on the
 * window's days, zeros included, oldest first, so every day of the window is one entry.
 * A movement counts on the UTC day it was created (`created_at`) with its current status.
 */
import { Context, Effect } from "effect"
import { CustomerStatus, KycStatus } from "../account/Model.js"
import type { Kobo } from "../shared/Money.js"
import { now } from "../shared/UseCase.js"
import type { TransactionPurpose, TransactionStatus } from "../transactions/Model.js"
import { requirePermission } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"
import { withSpan } from "../shared/Spans.js"

export const OverviewPolicy = { minDays: 7, maxDays: 365, defaultDays: 30 } as const

/** [from, until): the window's instants; `days` UTC dates, from the first to the last. */
export interface OverviewWindow {
  readonly from: Date
  readonly until: Date
}

/** Transactions created on one UTC day (YYYY-MM-DD) with one purpose and (current) status. */
export interface MovementDay {
  readonly date: string
  readonly purpose: TransactionPurpose
  readonly status: TransactionStatus
  readonly count: number
  readonly amountKobo: Kobo
  readonly feeKobo: Kobo
}

export interface CountBy<K extends string> {
  readonly key: K
  readonly count: number
}

export class OverviewStats extends Context.Tag("domain/OverviewStats")<OverviewStats, {
  readonly customersByStatus: Effect.Effect<ReadonlyArray<CountBy<CustomerStatus>>>
  readonly customersByKyc: Effect.Effect<ReadonlyArray<CountBy<KycStatus>>>
  /** customers created per UTC day in the window (days without any omitted) */
  readonly signUps: (window: OverviewWindow) => Effect.Effect<ReadonlyArray<{ readonly date: string; readonly count: number }>>
  /** transactions created in the window, per UTC day, purpose and status (empty groups omitted) */
  readonly movements: (window: OverviewWindow) => Effect.Effect<ReadonlyArray<MovementDay>>
  /** every transaction whose status is pending now, whenever it was created */
  readonly pending: Effect.Effect<{ readonly count: number; readonly amountKobo: Kobo }>
  /** plans whose state is active now */
  readonly activePlans: Effect.Effect<number>
}>() {}

export interface Flow {
  readonly count: number
  readonly amountKobo: Kobo
}

export interface Outflow extends Flow {
  readonly feeKobo: Kobo
}

/** The figures of one day, or of the whole window (totals). */
export interface Figures {
  readonly signUps: number
  /** confirmed deposits */
  readonly deposits: Flow
  /** confirmed outbound movements, by purpose */
  readonly moneyOut: {
    readonly manualTransfer: Outflow
    readonly disbursement: Outflow
    readonly earlyWithdrawal: Outflow
  }
  /** plan payouts (purpose disbursement): confirmed and failed */
  readonly disbursements: { readonly paid: number; readonly failed: number }
}

export interface Overview {
  readonly days: number
  /** first UTC day of the window (YYYY-MM-DD) */
  readonly from: string
  /** last UTC day of the window: today */
  readonly to: string
  readonly asOf: Date
  readonly customers: {
    readonly total: number
    readonly byStatus: Readonly<Record<CustomerStatus, number>>
    readonly byKyc: Readonly<Record<KycStatus, number>>
  }
  readonly pending: Flow
  readonly activePlans: number
  readonly totals: Figures
  /** one entry per UTC day of the window, oldest first */
  readonly series: ReadonlyArray<Figures & { readonly date: string }>
}

const DAY_MS = 86_400_000

const utcDate = (at: Date) => at.toISOString().slice(0, 10)

/** The `days` whole UTC days ending with the day of `at`. */
export const windowOf = (at: Date, days: number): OverviewWindow & { readonly dates: ReadonlyArray<string> } => {
  const until = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) + DAY_MS
  const from = until - days * DAY_MS
  return {
    from: new Date(from),
    until: new Date(until),
    dates: Array.from({ length: days }, (_, i) => utcDate(new Date(from + i * DAY_MS)))
  }
}

const outflow = (): Outflow => ({ count: 0, amountKobo: 0n, feeKobo: 0n })
const zero = (): Figures => ({
  signUps: 0,
  deposits: { count: 0, amountKobo: 0n },
  moneyOut: { manualTransfer: outflow(), disbursement: outflow(), earlyWithdrawal: outflow() },
  disbursements: { paid: 0, failed: 0 }
})

const OUTBOUND = {
  manual_transfer: "manualTransfer",
  disbursement: "disbursement",
  early_withdrawal: "earlyWithdrawal"
} as const satisfies Partial<Record<TransactionPurpose, keyof Figures["moneyOut"]>>

const addOut = (o: Outflow, m: Outflow): Outflow => ({
  count: o.count + m.count,
  amountKobo: o.amountKobo + m.amountKobo,
  feeKobo: o.feeKobo + m.feeKobo
})

/** One movement group added to a day's figures (groups that no metric counts change nothing). */
const addMovement = (f: Figures, m: MovementDay): Figures => {
  let next = f
  if (m.status === "confirmed" && m.purpose === "deposit") {
    next = { ...next, deposits: { count: next.deposits.count + m.count, amountKobo: next.deposits.amountKobo + m.amountKobo } }
  }
  if (m.status === "confirmed" && m.purpose !== "deposit") {
    const key = OUTBOUND[m.purpose]
    next = { ...next, moneyOut: { ...next.moneyOut, [key]: addOut(next.moneyOut[key], m) } }
  }
  if (m.purpose === "disbursement" && m.status !== "pending") {
    const paid = m.status === "confirmed" ? m.count : 0
    const failed = m.status === "failed" ? m.count : 0
    next = { ...next, disbursements: { paid: next.disbursements.paid + paid, failed: next.disbursements.failed + failed } }
  }
  return next
}

const sumFigures = (a: Figures, b: Figures): Figures => ({
  signUps: a.signUps + b.signUps,
  deposits: { count: a.deposits.count + b.deposits.count, amountKobo: a.deposits.amountKobo + b.deposits.amountKobo },
  moneyOut: {
    manualTransfer: addOut(a.moneyOut.manualTransfer, b.moneyOut.manualTransfer),
    disbursement: addOut(a.moneyOut.disbursement, b.moneyOut.disbursement),
    earlyWithdrawal: addOut(a.moneyOut.earlyWithdrawal, b.moneyOut.earlyWithdrawal)
  },
  disbursements: {
    paid: a.disbursements.paid + b.disbursements.paid,
    failed: a.disbursements.failed + b.disbursements.failed
  }
})

/** Every key of `keys` with its count (0 when absent). */
const countsOf = <K extends string>(keys: ReadonlyArray<K>, rows: ReadonlyArray<CountBy<K>>) =>
  Object.fromEntries(keys.map((k) => [k, rows.filter((r) => r.key === k).reduce((n, r) => n + r.count, 0)])) as Record<K, number>

/**
 * The daily figures on every date of `dates` (zeros where nothing happened), oldest first, and
 * their totals. Rows dated outside `dates` are ignored.
 */
export const assembleSeries = (
  dates: ReadonlyArray<string>,
  signUps: ReadonlyArray<{ readonly date: string; readonly count: number }>,
  movements: ReadonlyArray<MovementDay>
) => {
  const byDate = new Map(dates.map((d) => [d, zero()]))
  for (const s of signUps) {
    const f = byDate.get(s.date)
    if (f !== undefined) byDate.set(s.date, { ...f, signUps: f.signUps + s.count })
  }
  for (const m of movements) {
    const f = byDate.get(m.date)
    if (f !== undefined) byDate.set(m.date, addMovement(f, m))
  }
  const series = dates.map((date) => ({ date, ...byDate.get(date)! }))
  return { series, totals: series.map(({ date: _, ...f }) => f).reduce(sumFigures, zero()) }
}

/** GET /admin/overview: the dashboard over the last `days` UTC days, today included (overview:read). */
export const overview = (actor: StaffMember, days: number) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "overview:read")
    if (!Number.isInteger(days) || days < OverviewPolicy.minDays || days > OverviewPolicy.maxDays) {
      return yield* Effect.dieMessage(`overview days out of range: ${days}`)
    }
    const asOf = yield* now
    const window = windowOf(asOf, days)
    const stats = yield* OverviewStats
    const { activePlans, byKyc, byStatus, movements, pending, signUps } = yield* Effect.all({
      byStatus: stats.customersByStatus,
      byKyc: stats.customersByKyc,
      signUps: stats.signUps(window),
      movements: stats.movements(window),
      pending: stats.pending,
      activePlans: stats.activePlans
    })
    const statusCounts = countsOf(CustomerStatus.literals, byStatus)
    return {
      days,
      from: window.dates[0]!,
      to: window.dates[window.dates.length - 1]!,
      asOf,
      customers: {
        total: Object.values<number>(statusCounts).reduce((a, b) => a + b, 0),
        byStatus: statusCounts,
        byKyc: countsOf(KycStatus.literals, byKyc)
      },
      pending,
      activePlans,
      ...assembleSeries(window.dates, signUps, movements)
    } satisfies Overview
  }).pipe(withSpan("Overview.overview"))
