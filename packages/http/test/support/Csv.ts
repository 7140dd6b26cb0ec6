/** Reading the CSV attachments of reports in tests. */

/** A minimal RFC 4180 reader: records of fields, quotes undone. */
export const parseCsv = (text: string): Array<Array<string>> => {
  const records: Array<Array<string>> = []
  let record: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === "\"" && text[i + 1] === "\"") {
        field += "\""
        i++
      } else if (c === "\"") quoted = false
      else field += c
    } else if (c === "\"") quoted = true
    else if (c === ",") {
      record.push(field)
      field = ""
    } else if (c === "\r" && text[i + 1] === "\n") {
      record.push(field)
      records.push(record)
      record = []
      field = ""
      i++
    } else field += c
  }
  if (field !== "" || record.length > 0) {
    record.push(field)
    records.push(record)
  }
  return records
}
