/**
 * The spending report of a window of days: totals, the breakdown by category with shares, and a
 * daily series; as JSON (the HTTP view) or CSV (download and email attachment).
 *
 * Decisions (README, "Spending log"):
 * - The window is two calendar dates, both inclusive, at most MAX_REPORT_DAYS (366) days; spendings
 *   are dated by the customer, so no zone is involved in selecting them.
 * - Shares are percentages of the window's total with 2 decimals ("62.50"), computed in basis
 *   points by largest remainder: the shares of a non-empty report sum to exactly "100.00" (ties
 *   of remainder go to the larger total, then to the category first in alphabetical order).
 * - Categories are listed by total, largest first, then by name; the series has every day of the
 *   window, zeros included. An empty window is a valid report: total 0, no categories, all zeros.
 */
import { Effect } from "effect"
import { requireAccount } from "../account/Accounts.js"
import { csvDocument, type CsvValue } from "../shared/Csv.js"
import type { Spending } from "./Model.js"
import { SpendingRepo } from "./Ports.js"
import { datesBetween, MAX_REPORT_DAYS } from "./Rules.js"
import { checkWindow } from "./Window.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, CustomerId } from "../shared/Ids.js"

export interface ReportWindow {
  /** YYYY-MM-DD, inclusive */
  readonly from: string
  /** YYYY-MM-DD, inclusive */
  readonly to: string
}

export interface CategoryTotal {
  readonly category: string
  readonly totalKobo: bigint
  readonly count: number
  /** percent of the report's total, 2 decimals ("62.50"); the shares sum to "100.00" */
  readonly share: string
}

export interface DayTotal {
  readonly date: string
  readonly totalKobo: bigint
  readonly count: number
}

export interface SpendingReport {
  readonly from: string
  readonly to: string
  readonly totalKobo: bigint
  readonly count: number
  readonly categories: ReadonlyArray<CategoryTotal>
  readonly daily: ReadonlyArray<DayTotal>
  /** the window's spendings, oldest date first */
  readonly spendings: ReadonlyArray<Spending>
}

const WHOLE = 10_000n // basis points in 100%

/** Basis points as a percentage with 2 decimals: 6250 → "62.50". */
export const formatShare = (basisPoints: bigint): string => `${basisPoints / 100n}.${String(basisPoints % 100n).padStart(2, "0")}`

/**
 * Each part's share of the whole in basis points, by largest remainder: floors first, then the
 * basis points left over one each to the largest remainders. Sums to exactly 10,000 when the total
 * is positive (all zeros otherwise). Parts are taken in the order given, which breaks ties.
 */
export const largestRemainderShares = (parts: ReadonlyArray<bigint>): ReadonlyArray<bigint> => {
  const total = parts.reduce((a, b) => a + b, 0n)
  if (total <= 0n) return parts.map(() => 0n)
  const floors = parts.map((p) => (p * WHOLE) / total)
  let left = WHOLE - floors.reduce((a, b) => a + b, 0n)
  const byRemainder = parts
    .map((p, i) => ({ i, remainder: (p * WHOLE) % total }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1))
  const shares = [...floors]
  for (const { i } of byRemainder) {
    if (left === 0n) break
    shares[i] = shares[i]! + 1n
    left--
  }
  return shares
}

/** The report of a window from its spendings (pure; the rows are assumed to be the window's). */
export const buildReport = (window: ReportWindow, rows: ReadonlyArray<Spending>): SpendingReport => {
  const spendings = [...rows].sort((a, b) => a.date.localeCompare(b.date) || a.createdAt.getTime() - b.createdAt.getTime())
  const byCategory = new Map<string, { totalKobo: bigint; count: number }>()
  const byDay = new Map<string, { totalKobo: bigint; count: number }>()
  let totalKobo = 0n
  for (const s of spendings) {
    totalKobo += s.amountKobo
    for (const [map, key] of [[byCategory, s.category], [byDay, s.date]] as const) {
      const t = map.get(key) ?? { totalKobo: 0n, count: 0 }
      map.set(key, { totalKobo: t.totalKobo + s.amountKobo, count: t.count + 1 })
    }
  }
  const ordered = [...byCategory.entries()].sort(([a, x], [b, y]) =>
    x.totalKobo === y.totalKobo ? (a < b ? -1 : a > b ? 1 : 0) : x.totalKobo > y.totalKobo ? -1 : 1
  )
  const shares = largestRemainderShares(ordered.map(([, t]) => t.totalKobo))
  return {
    from: window.from,
    to: window.to,
    totalKobo,
    count: spendings.length,
    categories: ordered.map(([category, t], i) => ({ category, ...t, share: formatShare(shares[i]!) })),
    daily: datesBetween(window.from, window.to).map((date) => ({ date, ...(byDay.get(date) ?? { totalKobo: 0n, count: 0 }) })),
    spendings
  }
}

export const CSV_HEADER = ["section", "date", "category", "description", "amountKobo", "count", "share"] as const

/**
 * The report as one CSV table: a row per spending (section "spending", oldest first), per category
 * ("category", with its share), per day of the window ("day", zeros included), then the "total".
 * Cells cannot start a formula (shared/Csv.ts).
 */
export const reportCsv = (r: SpendingReport): string =>
  csvDocument([
    CSV_HEADER,
    ...r.spendings.map((s): ReadonlyArray<CsvValue> => ["spending", s.date, s.category, s.description, s.amountKobo, 1, null]),
    ...r.categories.map((c): ReadonlyArray<CsvValue> => ["category", null, c.category, null, c.totalKobo, c.count, c.share]),
    ...r.daily.map((d): ReadonlyArray<CsvValue> => ["day", d.date, null, null, d.totalKobo, d.count, null]),
    ["total", null, null, null, r.totalKobo, r.count, r.count === 0 ? null : "100.00"]
  ])

/** GET /spendings/report: the customer's report of a window (at most 366 days). */
export const spendingReport = (accountId: AccountId, window: ReportWindow) =>
  Effect.gen(function*() {
    yield* checkWindow(window, { maxDays: MAX_REPORT_DAYS })
    const { customer } = yield* requireAccount(accountId)
    return yield* reportFor(customer.id, window)
  }).pipe(withSpan("Spendings.report", { attributes: { accountId, from: window.from, to: window.to } }))

/** The report of a customer's window (the window already checked). */
export const reportFor = (customerId: CustomerId, window: ReportWindow) =>
  Effect.map(
    Effect.flatMap(SpendingRepo, (repo) => repo.between(customerId, window.from, window.to)),
    (rows) => buildReport(window, rows)
  )
