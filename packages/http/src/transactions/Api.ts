/**
 * The HTTP contract of the customer's Transaction rows: the paginated list, one row, and the
 * inbound/outbound report as JSON or CSV. Every endpoint needs the bearer token.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Reports } from "@app/domain"
import { Schema } from "effect"
import { failuresOf, success } from "../shared/Envelope.js"
import { Body, CalendarDate, msg, Uuid } from "../shared/Schemas.js"
import { Authentication } from "../shared/Security.js"
import { TransactionPageView, TransactionReportView, TransactionView } from "./Views.js"

export const PAGE_DEFAULT = 1
export const PAGE_MAX = 1_000_000_000
export const PAGE_SIZE_DEFAULT = 20
/** the largest page a client may ask for */
export const PAGE_SIZE_MAX = 100

/** A whole number in a query string, between min and max (plain decimal digits only). */
const IntParam = (field: string, min: number, max: number) =>
  Schema.compose(
    Schema.String.annotations(msg(`${field} must be a whole number`)).pipe(
      Schema.pattern(/^[0-9]{1,12}$/, msg(`${field} must be a whole number`))
    ),
    Schema.NumberFromString
  ).pipe(
    Schema.int(msg(`${field} must be a whole number`)),
    Schema.greaterThanOrEqualTo(min, msg(`${field} must be at least ${min}`)),
    Schema.lessThanOrEqualTo(max, msg(`${field} must be at most ${max}`))
  )

const PageParams = Body({
  page: Schema.optionalWith(
    IntParam("page", 1, PAGE_MAX).annotations({ description: `1-based page number (default ${PAGE_DEFAULT})` }),
    { exact: true, default: () => PAGE_DEFAULT }
  ),
  pageSize: Schema.optionalWith(
    IntParam("pageSize", 1, PAGE_SIZE_MAX).annotations({
      description: `rows per page, 1 to ${PAGE_SIZE_MAX} (default ${PAGE_SIZE_DEFAULT}; ${PAGE_SIZE_MAX} is the maximum, larger is a 400)`
    }),
    { exact: true, default: () => PAGE_SIZE_DEFAULT }
  )
})

/** json or csv (a refined string, so a wrong value gets one message rather than one per literal) */
export const ReportFormat = Schema.String.annotations(msg("format must be 'json' or 'csv'")).pipe(
  Schema.filter((s): s is "json" | "csv" => s === "json" || s === "csv", {
    ...msg("format must be 'json' or 'csv'"),
    jsonSchema: { enum: ["json", "csv"] }
  })
)

const { earliest, latest } = Reports.ReportDates

/** A calendar date a report accepts (the domain's range: clear of what databases cannot store). */
const ReportDate = CalendarDate.pipe(
  Schema.filter((d) => d >= earliest && d <= latest, msg(`Use a date between ${earliest} and ${latest}`))
)

const ReportParams = Body({
  from: ReportDate.annotations({ description: `first day of the window, YYYY-MM-DD (UTC), inclusive; ${earliest} or later` }),
  to: ReportDate.annotations({
    description: `last day of the window, YYYY-MM-DD (UTC), inclusive; on or after from, ${latest} at the latest`
  }),
  format: Schema.optionalWith(ReportFormat.annotations({ description: "json (default) or csv" }), {
    exact: true,
    default: () => "json" as const
  })
}).pipe(
  Schema.filter((p) => p.from <= p.to || { path: ["to"], message: "to must be on or after from" })
)

/**
 * The CSV variant of the report is sent by the handler as a raw HttpServerResponse, so the endpoint
 * declares only the JSON envelope; this adds the text/csv body to the documented 200.
 */
const documentCsv = (operation: Record<string, any>): Record<string, any> => {
  const ok = operation.responses?.["200"]
  if (ok === undefined) return operation
  return {
    ...operation,
    responses: {
      ...operation.responses,
      "200": {
        ...ok,
        description: "The report: the JSON envelope (format=json) or a CSV attachment (format=csv)",
        content: {
          ...ok.content,
          "text/csv": {
            schema: {
              type: "string",
              description: "header row date,type,purpose,status,amountKobo,feeKobo,reference; one row per transaction " +
                "in the window, oldest first; then summary rows (inbound, outbound, net). Sent as an attachment " +
                "named transactions-<from>-to-<to>.csv"
            }
          }
        }
      }
    }
  }
}

const TransactionId = HttpApiSchema.param("id", Uuid)

export class TransactionsApi extends HttpApiGroup.make("transactions")
  .add(
    HttpApiEndpoint.get("list", "/")
      .setUrlParams(PageParams)
      .addSuccess(success("Transaction", TransactionPageView))
      .addError(failuresOf(400))
      .annotate(
        OpenApi.Description,
        `The customer's transactions, newest first. page ≥ 1 (default ${PAGE_DEFAULT}); pageSize 1 to ${PAGE_SIZE_MAX} ` +
          `(default ${PAGE_SIZE_DEFAULT}; ${PAGE_SIZE_MAX} is the maximum). A page past the end has no items. ` +
          "400 'No bank account found' before the bank account exists."
      )
  )
  .add(
    HttpApiEndpoint.get("report", "/report")
      .setUrlParams(ReportParams)
      .addSuccess(success("Transaction", TransactionReportView))
      .addError(failuresOf(400))
      .annotate(
        OpenApi.Description,
        "Inbound (confirmed credits) and outbound (confirmed debits and transfers, with their fees) totals between " +
          "two dates, both inclusive, in UTC. format=csv returns the window's rows and the totals as a CSV attachment."
      )
      .annotate(OpenApi.Transform, documentCsv)
  )
  .add(
    HttpApiEndpoint.get("get")`/${TransactionId}`
      .addSuccess(success("Transaction", TransactionView))
      .addError(failuresOf(400, 404))
      .annotate(OpenApi.Description, "One transaction of the customer; 404 for an unknown id or another customer's.")
  )
  .middleware(Authentication)
  .prefix("/api/v1/transactions")
  .annotate(OpenApi.Title, "Transactions")
{}
