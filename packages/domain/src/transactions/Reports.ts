/**
 * Reports over the customer's own Transaction rows (this service's ledger of money movements, not
 * the provider's history).
 *
 * Decisions:
 * - The window is two calendar dates in UTC, both inclusive: rows created from `from` 00:00:00Z up
 *   to, but not including, the day after `to` 00:00:00Z. A deposit is dated when the provider
 *   posted it (its createdAt).
 * - Only confirmed rows count towards the totals. Inbound = confirmed credits (deposits); outbound =
 *   confirmed debits and transfers, with their fees (NIP fee + VAT) summed separately. Pending and
 *   failed rows are still listed in `transactions` (the CSV shows them with their status) but move
 *   no money in the totals.
 * - net = inbound − outbound − outbound fees: what the window did to the balance (may be negative).
 * - Dates are limited to `ReportDates` (1900-01-01 to 2999-12-31): far enough either way for any
 *   real window, and clear of the year 0 and year 10000 that databases cannot store.
 */
import { Effect, Either } from "effect"
import { requireAccount } from "../account/Accounts.js"
import type { Kobo } from "../shared/Money.js"
import type { Transaction } from "./Model.js"
import { TransactionRepo } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"
import { Failure, validation, ValidationKind } from "../shared/Failure.js"
import { AccountId } from "../shared/Ids.js"

/** The window is not two real YYYY-MM-DD dates with from ≤ to. */
export class InvalidReportWindow extends Failure("InvalidReportWindow", ValidationKind)<{
  readonly field: "from" | "to"
  readonly reason: string
}> {
  // the query schema already refuses a bad window; this keeps the domain's own check a 400 too
  override answer() {
    return validation({ [this.field]: [this.reason] })
  }
}

export interface ReportWindow {
  /** YYYY-MM-DD, inclusive (UTC) */
  readonly from: string
  /** YYYY-MM-DD, inclusive (UTC) */
  readonly to: string
}

export interface TransactionReport {
  readonly from: string
  readonly to: string
  readonly inbound: { readonly count: number; readonly totalKobo: Kobo }
  readonly outbound: { readonly count: number; readonly totalKobo: Kobo; readonly feesKobo: Kobo }
  /** inbound − outbound − outbound fees */
  readonly netKobo: Kobo
  /** every row in the window, of any status, oldest first */
  readonly transactions: ReadonlyArray<Transaction>
}

const DAY_MS = 24 * 60 * 60 * 1000

/** The earliest `from` and the latest `to` a report accepts. */
export const ReportDates = { earliest: "1900-01-01", latest: "2999-12-31" } as const

const outOfRange = `Use a date between ${ReportDates.earliest} and ${ReportDates.latest}`

/** YYYY-MM-DD strings compare as the dates they name. */
const inRange = (date: string) => date >= ReportDates.earliest && date <= ReportDates.latest

/** Midnight UTC of a real calendar date written YYYY-MM-DD (no 2024-02-30), or undefined. */
export const startOfDay = (date: string): Date | undefined => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined
  const start = new Date(`${date}T00:00:00Z`)
  return Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== date ? undefined : start
}

/** The window as instants: [start, until), `until` being midnight UTC after `to`. */
export const windowBounds = (window: ReportWindow): Either.Either<{ readonly start: Date; readonly until: Date }, InvalidReportWindow> => {
  const start = startOfDay(window.from)
  if (start === undefined) return Either.left(new InvalidReportWindow({ field: "from", reason: "Use a real date in the format YYYY-MM-DD" }))
  const end = startOfDay(window.to)
  if (end === undefined) return Either.left(new InvalidReportWindow({ field: "to", reason: "Use a real date in the format YYYY-MM-DD" }))
  if (!inRange(window.from)) return Either.left(new InvalidReportWindow({ field: "from", reason: outOfRange }))
  if (!inRange(window.to)) return Either.left(new InvalidReportWindow({ field: "to", reason: outOfRange }))
  if (end.getTime() < start.getTime()) return Either.left(new InvalidReportWindow({ field: "to", reason: "to must be on or after from" }))
  return Either.right({ start, until: new Date(end.getTime() + DAY_MS) })
}

const isInbound = (t: Transaction) => t.status === "confirmed" && t.type === "credit"
const isOutbound = (t: Transaction) => t.status === "confirmed" && (t.type === "debit" || t.type === "transfer")

/** The totals of the rows of a window (pure; the rows are assumed to be the window's). */
export const summarize = (window: ReportWindow, rows: ReadonlyArray<Transaction>): TransactionReport => {
  let inCount = 0
  let inTotal = 0n
  let outCount = 0
  let outTotal = 0n
  let outFees = 0n
  for (const t of rows) {
    if (isInbound(t)) {
      inCount++
      inTotal += t.amountKobo
    } else if (isOutbound(t)) {
      outCount++
      outTotal += t.amountKobo
      outFees += t.feeKobo
    }
  }
  return {
    from: window.from,
    to: window.to,
    inbound: { count: inCount, totalKobo: inTotal },
    outbound: { count: outCount, totalKobo: outTotal, feesKobo: outFees },
    netKobo: inTotal - outTotal - outFees,
    transactions: rows
  }
}

/** The customer's inbound and outbound totals and fees between two dates (UTC, both inclusive). */
export const transactionReport = (accountId: AccountId, window: ReportWindow) =>
  Effect.gen(function*() {
    const { start, until } = yield* windowBounds(window)
    const { customer } = yield* requireAccount(accountId)
    const rows = yield* (yield* TransactionRepo).listForCustomerBetween(customer.id, start, until)
    return summarize(window, rows)
  }).pipe(withSpan("Reports.transactionReport", { attributes: { accountId, from: window.from, to: window.to } }))
