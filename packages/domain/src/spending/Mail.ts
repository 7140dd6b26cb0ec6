/**
 * The monthly report by email: a month's window, the message (text, HTML, the CSV attached) and
 * POST /spendings/report, which mails it to the registered email on request.
 *
 * Decisions (README, "Spending log"):
 * - A month is "YYYY-MM" (1900-01 on). The current month (in Africa/Lagos) is allowed and reports
 *   the month to date (its 1st to today); a later month is a 400.
 * - An explicit request is always sent, whatever the notification settings (they govern optional
 *   mail, such as the monthly job's); an account without an email is NoEmailOnFile.
 */
import { Effect } from "effect"
import { requireAccount } from "../account/Accounts.js"
import { NoEmailOnFile } from "../auth/Errors.js"
import type { OutboundMessage } from "../notifications/Ports.js"
import { Notifier } from "../notifications/Ports.js"
import { formatNaira } from "../shared/Money.js"
import { now } from "../shared/UseCase.js"
import { InvalidReportMonth } from "./Errors.js"
import { reportCsv, reportFor, type ReportWindow, type SpendingReport } from "./Report.js"
import { firstDayOf, isMonth, lastDayOf, monthOf, todayIn } from "./Rules.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId } from "../shared/Ids.js"

const MONTH_NAMES = [
  "January", "February", "March", "April", "May", "June",
  "July", "August", "September", "October", "November", "December"
] as const

/** "2026-10" → "October 2026". */
export const monthName = (month: string): string => `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`

/** The days of `month` reported on `today`: the whole month, or its 1st to today for the current month. */
export const monthWindow = (month: string, today: string) =>
  Effect.gen(function*() {
    if (!isMonth(month)) return yield* new InvalidReportMonth({ reason: "Use a month in the format YYYY-MM" })
    const current = monthOf(today)
    if (month > current) return yield* new InvalidReportMonth({ reason: `month must not be in the future (this month is ${current})` })
    return { from: firstDayOf(month), to: month === current ? today : lastDayOf(month) } satisfies ReportWindow
  })

const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("\"", "&quot;").replaceAll("'", "&#39;")

/** The email of a month's report, to `to`: text and HTML bodies, the CSV attached. */
export const reportMessage = (to: string, month: string, report: SpendingReport): OutboundMessage => {
  const title = `Your spending report for ${monthName(month)}`
  const period = `${report.from} to ${report.to}`
  const lines = report.categories.map((c) => `- ${c.category}: ${formatNaira(c.totalKobo)} (${c.share}%, ${c.count})`)
  const text = [
    `${title} (${period})`,
    "",
    `Total: ${formatNaira(report.totalKobo)} in ${report.count} spending${report.count === 1 ? "" : "s"}.`,
    ...(lines.length === 0 ? ["You logged no spending in this period."] : ["", "By category:", ...lines]),
    "",
    "The full report is attached as a CSV file."
  ].join("\n")
  const rows = report.categories.map((c) =>
    `<tr><td>${escapeHtml(c.category)}</td><td>${escapeHtml(formatNaira(c.totalKobo))}</td><td>${c.share}%</td><td>${c.count}</td></tr>`
  )
  const html = [
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(period)}: <strong>${escapeHtml(formatNaira(report.totalKobo))}</strong> in ${report.count} spending${report.count === 1 ? "" : "s"}.</p>`,
    rows.length === 0
      ? "<p>You logged no spending in this period.</p>"
      : `<table><thead><tr><th>Category</th><th>Total</th><th>Share</th><th>Count</th></tr></thead><tbody>${rows.join("")}</tbody></table>`,
    "<p>The full report is attached as a CSV file.</p>"
  ].join("\n")
  return {
    channel: "email",
    to,
    subject: title,
    text,
    html,
    attachments: [{ filename: `spendings-${month}.csv`, contentType: "text/csv; charset=utf-8", content: reportCsv(report) }],
    kind: "spending_report"
  }
}

export interface EmailedReport {
  readonly month: string
  readonly from: string
  readonly to: string
  /** where it was sent: the registered email */
  readonly email: string
  readonly totalKobo: bigint
  readonly count: number
}

/** POST /spendings/report: the month's report, mailed to the registered email (always sent). */
export const emailMonthReport = (accountId: AccountId, month: string) =>
  Effect.gen(function*() {
    const window = yield* monthWindow(month, todayIn(yield* now))
    const { account, customer } = yield* requireAccount(accountId)
    if (account.email === "") return yield* new NoEmailOnFile()
    const report = yield* reportFor(customer.id, window)
    yield* (yield* Notifier).send(reportMessage(account.email, month, report))
    return { month, ...window, email: account.email, totalKobo: report.totalKobo, count: report.count } satisfies EmailedReport
  }).pipe(withSpan("Spendings.emailMonthReport", { attributes: { accountId, month } }))
