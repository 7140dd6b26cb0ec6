/**
 * CSV for spreadsheets, made in the browser: every cell quoted when it must be, and a cell a
 * spreadsheet would read as a formula (starting with = + - @, a tab or a carriage return) prefixed
 * with an apostrophe, as the service's own CSV does (domain/shared: formula-safe CSV).
 */
const FORMULA = /^[=+\-@\t\r]/

export const csvCell = (value: unknown): string => {
  if (value === null || value === undefined) return ""
  const text = String(value)
  const safe = FORMULA.test(text) ? `'${text}` : text
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

export const toCsv = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<unknown>>): string =>
  [header, ...rows].map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n"

/** Offers `text` as a file download. */
export const download = (filename: string, text: string) => {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }))
  const a = document.createElement("a")
  a.href = url
  a.download = filename
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
