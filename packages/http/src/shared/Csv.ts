/** CSV attachments (reports): formula-safe fields (the domain's `Csv`), and the response. */
import { HttpServerResponse } from "@effect/platform"

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
