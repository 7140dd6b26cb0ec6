/**
 * CSV documents (RFC 4180) whose cells cannot start a spreadsheet formula (OWASP CSV injection).
 * Pure text: the HTTP edge sends them as attachments, the spending report also mails one.
 */

/** First characters a spreadsheet may read as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/

export type CsvValue = string | bigint | number | null

/**
 * One CSV field. Text that a spreadsheet could run as a formula gets a leading `'`; a field with a
 * quote, comma or line break is quoted, its quotes doubled. Amounts (bigint) are written as they
 * are: an integer such as -500 is a number, never a formula.
 */
export const csvField = (value: CsvValue): string => {
  if (value === null) return ""
  if (typeof value !== "string") return value.toString()
  const safe = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll("\"", "\"\"")}"` : safe
}

export const csvRow = (fields: ReadonlyArray<CsvValue>) => fields.map(csvField).join(",")

/** Rows as one CSV document, CRLF line ends (RFC 4180). */
export const csvDocument = (rows: ReadonlyArray<ReadonlyArray<CsvValue>>) => rows.map(csvRow).join("\r\n") + "\r\n"
