/** The transaction report as CSV (GET /transactions/report?format=csv sends it as an attachment). */
import type { Reports, Transaction } from "@app/domain"
import { csvRow } from "../shared/Csv.js"

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
