/** The transaction report as a CSV attachment (GET /transactions/report?format=csv). */
import { HttpServerResponse } from "@effect/platform"
import type { Reports, Transaction } from "@app/domain"

export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8"

/** First characters a spreadsheet may read as the start of a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * One CSV field (RFC 4180). Text that a spreadsheet could run as a formula gets a leading `'`;
 * a field with a quote, comma or line break is quoted, its quotes doubled. Amounts (bigint) are
 * written as they are: an integer such as -500 is a number, never a formula.
 */
export const csvField = (value: string | bigint | number | null): string => {
  if (value === null) return ""
  if (typeof value !== "string") return value.toString()
  const safe = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll("\"", "\"\"")}"` : safe
}

const csvRow = (fields: ReadonlyArray<string | bigint | number | null>) => fields.map(csvField).join(",")

export const CSV_HEADER = ["date", "type", "purpose", "status", "amountKobo", "feeKobo", "reference"] as const

/** The reference a customer can match: our transfer or debit reference, else the provider's (deposits). */
const referenceOf = (t: Transaction) => t.transferReference ?? t.retrievalReference ?? t.providerReference

/**
 * The report as CSV: the header, one row per transaction of the window (oldest first, any status),
 * then three summary rows whose first field is "summary" and second names the total (inbound,
 * outbound, net), amounts and fees in the amountKobo and feeKobo columns, the count in reference.
 */
export const reportCsv = (r: Reports.TransactionReport): string => {
  const rows = [
    csvRow(CSV_HEADER),
    ...r.transactions.map((t) =>
      csvRow([t.createdAt.toISOString(), t.type, t.purpose, t.status, t.amountKobo, t.feeKobo, referenceOf(t)])
    ),
    csvRow(["summary", "inbound", "", "confirmed", r.inbound.totalKobo, 0n, `${r.inbound.count} transactions`]),
    csvRow([
      "summary",
      "outbound",
      "",
      "confirmed",
      r.outbound.totalKobo,
      r.outbound.feesKobo,
      `${r.outbound.count} transactions`
    ]),
    csvRow(["summary", "net", "", "", r.netKobo, "", "inbound minus outbound minus fees"])
  ]
  return rows.join("\r\n") + "\r\n"
}

export const csvResponse = (r: Reports.TransactionReport) =>
  HttpServerResponse.text(reportCsv(r), {
    contentType: CSV_CONTENT_TYPE,
    headers: {
      // from and to are validated YYYY-MM-DD dates: nothing to escape in the file name
      "content-disposition": `attachment; filename="transactions-${r.from}-to-${r.to}.csv"`,
      "cache-control": "no-store"
    }
  })
