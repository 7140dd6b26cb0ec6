/**
 * Date windows of the log: list filters (either end optional) and report windows (both ends, at
 * most MAX_REPORT_DAYS days).
 */
import { Effect } from "effect"
import { InvalidSpendingWindow } from "./Errors.js"
import { ReportDates } from "../transactions/Reports.js"
import { dayNumber, EARLIEST_DATE, isCalendarDate } from "./Rules.js"

const REAL_DATE = "Use a real date in the format YYYY-MM-DD"
/** The same range as the transaction reports (ReportDates). */
const LATEST_DATE = ReportDates.latest

const checkEnd = (field: "from" | "to", date: string | undefined) => {
  if (date === undefined) return Effect.void
  if (!isCalendarDate(date)) return Effect.fail(new InvalidSpendingWindow({ field, reason: REAL_DATE }))
  if (date < EARLIEST_DATE || date > LATEST_DATE) {
    return Effect.fail(new InvalidSpendingWindow({ field, reason: `Use a date between ${EARLIEST_DATE} and ${LATEST_DATE}` }))
  }
  return Effect.void
}

/** Real dates, from ≤ to, and (with maxDays) at most that many days, both ends counted. */
export const checkWindow = (
  window: { readonly from: string | undefined; readonly to: string | undefined },
  options: { readonly maxDays: number | undefined }
) =>
  Effect.gen(function*() {
    yield* checkEnd("from", window.from)
    yield* checkEnd("to", window.to)
    if (window.from === undefined || window.to === undefined) return
    if (window.to < window.from) return yield* new InvalidSpendingWindow({ field: "to", reason: "to must be on or after from" })
    if (options.maxDays !== undefined && dayNumber(window.to) - dayNumber(window.from) + 1 > options.maxDays) {
      return yield* new InvalidSpendingWindow({ field: "to", reason: `A report covers at most ${options.maxDays} days` })
    }
  })
