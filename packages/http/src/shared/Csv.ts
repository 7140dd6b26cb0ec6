/**
 * CSV attachments (reports): formula-safe fields (the domain's `Csv`), the response, and what a
 * report endpoint shares (its `format` param, its JSON or CSV answer).
 */
import { HttpServerResponse } from "@effect/platform"
import { Schema } from "effect"
import { msg } from "./Schemas.js"

export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8"

/** The fields and documents themselves are the domain's (a mailed report carries one too). */
export { csvDocument, csvField, csvRow } from "@app/domain"

/** A CSV body sent as a download named `filename` (which must need no escaping). */
export const csvAttachment = (body: string, filename: string) =>
  HttpServerResponse.text(body, {
    contentType: CSV_CONTENT_TYPE,
    headers: {
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store"
    }
  })

/** json or csv (a refined string, so a wrong value gets one message rather than one per literal) */
const ReportFormat = Schema.String.annotations(msg("format must be 'json' or 'csv'")).pipe(
  Schema.filter((s): s is "json" | "csv" => s === "json" || s === "csv", {
    ...msg("format must be 'json' or 'csv'"),
    jsonSchema: { enum: ["json", "csv"] }
  })
)

/** A report's `format` url param: json unless csv is asked for. */
export const reportFormatParam = Schema.optionalWith(ReportFormat.annotations({ description: "json (default) or csv", examples: ["csv"] }), {
  exact: true,
  default: () => "json" as const
})

/**
 * How a report of [from, to] answers: its JSON view, or with format=csv its CSV as a download
 * named `<name>-<from>-to-<to>.csv` (from and to are validated YYYY-MM-DD dates: nothing to escape).
 */
export const reportAnswer = <R extends { readonly from: string; readonly to: string }, V>(
  name: string,
  csv: (report: R) => string,
  view: (report: R) => V
) =>
(format: "json" | "csv", report: R) =>
  format === "csv" ? csvAttachment(csv(report), `${name}-${report.from}-to-${report.to}.csv`) : view(report)

/**
 * OpenApi.Transform of an endpoint whose 200 is the JSON envelope or, with format=csv, a CSV
 * attachment the handler sends raw: adds the text/csv body (described by `csvDescription`) to the
 * documented 200.
 */
export const documentCsvResponse = (csvDescription: string) => (operation: Record<string, any>): Record<string, any> => {
  const ok = operation.responses?.["200"]
  if (ok === undefined) return operation
  return {
    ...operation,
    responses: {
      ...operation.responses,
      "200": {
        ...ok,
        description: "The report: the JSON envelope (format=json) or a CSV attachment (format=csv)",
        content: { ...ok.content, "text/csv": { schema: { type: "string", description: csvDescription } } }
      }
    }
  }
}
