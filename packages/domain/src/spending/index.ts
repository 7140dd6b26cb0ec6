/** The spending log: use cases, the report, the monthly email. */
export * from "./Spendings.js"
export { buildReport, CSV_HEADER, formatShare, largestRemainderShares, reportCsv, spendingReport, type CategoryTotal, type DayTotal, type ReportWindow, type SpendingReport } from "./Report.js"
export { emailMonthReport, type EmailedReport, monthName, monthWindow, reportMessage } from "./Mail.js"
export { lastMonthAt, type MonthlyRun, sendMonthlyReports } from "./Monthly.js"
export * as Rules from "./Rules.js"
