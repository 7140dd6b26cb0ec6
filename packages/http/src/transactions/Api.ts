/**
 * The HTTP contract of the customer's Transaction rows: the paginated list, one row, and the
 * inbound/outbound report as JSON or CSV. Every endpoint needs the bearer token.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  AccountNotFound, NoBankAccount, Reports, TransactionId, TransactionNotFound
} from "@app/domain"
import { Schema } from "effect"
import { documentCsvResponse, reportFormatParam } from "../shared/Csv.js"
import { errors, success } from "../shared/Envelope.js"
import { PageParams } from "../shared/Paging.js"
import { Body, CalendarDate, msg, UuidOf } from "../shared/Schemas.js"
import { Authentication } from "../shared/Security.js"
import { TransactionPageView, TransactionReportView, TransactionView } from "./Views.js"

const { earliest, latest } = Reports.ReportDates

/** A calendar date a report accepts (the domain's range: clear of what databases cannot store). */
const ReportDate = CalendarDate.pipe(
  Schema.filter((d) => d >= earliest && d <= latest, { ...msg(`Use a date between ${earliest} and ${latest}`), jsonSchema: {} })
)

const ReportParams = Body({
  from: ReportDate.annotations({
    description: `first day of the window, YYYY-MM-DD (UTC), inclusive; ${earliest} or later`,
    examples: ["2026-11-01"]
  }),
  to: ReportDate.annotations({
    description: `last day of the window, YYYY-MM-DD (UTC), inclusive; on or after from, ${latest} at the latest`,
    examples: ["2026-11-30"]
  }),
  format: reportFormatParam
}).pipe(
  Schema.filter((p) => p.from <= p.to || { path: ["to"], message: "to must be on or after from" })
)

/** The CSV variant of the report, as documented (the handler sends it raw). */
const csvBody =
  "header row date,type,purpose,status,amountKobo,feeKobo,reference; one row per transaction " +
  "in the window, oldest first; then summary rows (inbound, outbound, net). Sent as an attachment " +
  "named transactions-<from>-to-<to>.csv"

const TransactionIdParam = HttpApiSchema.param("id", UuidOf(TransactionId))

export class TransactionsApi extends HttpApiGroup.make("transactions")
  .add(
    HttpApiEndpoint.get("list", "/")
      .setUrlParams(PageParams)
      .addSuccess(success("Transaction", TransactionPageView))
      .addError(errors(NoBankAccount))
  )
  .add(
    HttpApiEndpoint.get("report", "/report")
      .setUrlParams(ReportParams)
      .addSuccess(success("Transaction", TransactionReportView))
      .addError(errors(AccountNotFound))
      .annotate(OpenApi.Transform, documentCsvResponse(csvBody))
  )
  .add(
    HttpApiEndpoint.get("get")`/${TransactionIdParam}`
      .addSuccess(success("Transaction", TransactionView))
      .addError(errors(AccountNotFound, TransactionNotFound))
  )
  .middleware(Authentication)
  .prefix("/api/v1/transactions")
  .annotate(OpenApi.Title, "Transactions")
{}
