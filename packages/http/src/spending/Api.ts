/**
 * The HTTP contract of the spending log: log, list, change and remove spendings; the report of a
 * window as JSON or CSV; a month's report by email. Every endpoint needs the bearer token.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { AccountNotFound, NoEmailOnFile, SpendingId, SpendingNotFound, Spendings } from "@app/domain"
import { Schema } from "effect"
import { documentCsvResponse, reportFormatParam } from "../shared/Csv.js"
import { errors, success } from "../shared/Envelope.js"
import { pageFields } from "../shared/Paging.js"
import { Body, CalendarDate, msg, UuidOf } from "../shared/Schemas.js"
import { Authentication } from "../shared/Security.js"
import { EmailedReportView, SpendingPageView, SpendingReportView, SpendingView } from "./Views.js"

const { CATEGORY_MAX, DESCRIPTION_MAX, MAX_AMOUNT_KOBO, MAX_REPORT_DAYS, SPENDING_ZONE } = Spendings.Rules

/** A JSON integer; its bounds are the domain's (Rules.ts), checked with the other fields' rules at once. */
const Amount = Schema.BigIntFromNumber.annotations({
  ...msg("amountKobo must be a whole number of kobo"),
  description: `whole kobo, 1 to ${MAX_AMOUNT_KOBO} (a JSON integer)`
})
const Category = Schema.String.annotations({
  ...msg("category must be a string"),
  examples: ["food"],
  description: `1 to ${CATEGORY_MAX} characters; trimmed, spaces collapsed and lower-cased ("Food " is "food")`
})
const Description = Schema.NullOr(Schema.String.annotations(msg("description must be a string or null"))).annotations({
  description: `optional, at most ${DESCRIPTION_MAX} characters; empty or null is none`
})
const SpendingDate = CalendarDate.annotations({
  description: `the day of the spending, YYYY-MM-DD, not after today in ${SPENDING_ZONE}`,
  examples: ["2026-11-20"]
})

const SpendingIdParam = HttpApiSchema.param("id", UuidOf(SpendingId))

/** The CSV variant of the report, as documented (the handler sends it raw). */
const csvBody =
  `header row ${Spendings.CSV_HEADER.join(",")}; a row per spending (oldest first), per ` +
  "category (with its share), per day of the window, then the total. Sent as an attachment named " +
  "spendings-<from>-to-<to>.csv"

export class SpendingsApi extends HttpApiGroup.make("spendings")
  .add(
    HttpApiEndpoint.post("add", "/")
      .setPayload(Body({
        amountKobo: Amount,
        category: Category,
        date: SpendingDate,
        description: Schema.optionalWith(Description, { exact: true })
      }).annotations({
        examples: [{ amountKobo: 450_000n, category: "food", date: "2026-11-20", description: "Groceries at Shoprite, Lekki" }]
      }))
      .addSuccess(success("Spending", SpendingView, { status: 201, message: "Spending logged." }))
  )
  .add(
    HttpApiEndpoint.get("list", "/")
      .setUrlParams(Body({
        ...pageFields,
        category: Schema.optionalWith(Category, { exact: true }),
        from: Schema.optionalWith(CalendarDate.annotations({ description: "first day, YYYY-MM-DD, inclusive", examples: ["2026-11-01"] }), {
          exact: true
        }),
        to: Schema.optionalWith(CalendarDate.annotations({ description: "last day, YYYY-MM-DD, inclusive; on or after from", examples: ["2026-11-30"] }), {
          exact: true
        })
      }))
      .addSuccess(success("Spending", SpendingPageView))
  )
  .add(
    HttpApiEndpoint.get("report", "/report")
      .setUrlParams(Body({
        from: CalendarDate.annotations({ description: "first day of the window, YYYY-MM-DD, inclusive", examples: ["2026-11-01"] }),
        to: CalendarDate.annotations({
          description: `last day, inclusive; on or after from, at most ${MAX_REPORT_DAYS} days in all`,
          examples: ["2026-11-30"]
        }),
        format: reportFormatParam
      }))
      .addSuccess(success("Spending", SpendingReportView))
      .annotate(OpenApi.Transform, documentCsvResponse(csvBody))
  )
  .add(
    HttpApiEndpoint.post("emailReport", "/report")
      .setPayload(Body({
        month: Schema.String.annotations({
          ...msg("month must be a string"),
          description: `YYYY-MM; not after the current month in ${SPENDING_ZONE} (which is reported to date)`
        })
      }).annotations({ examples: [{ month: "2026-10" }] }))
      .addSuccess(success("Spending", EmailedReportView, { message: "Report sent to your email." }))
      .addError(errors(NoEmailOnFile))
  )
  .add(
    HttpApiEndpoint.patch("update")`/${SpendingIdParam}`
      .setPayload(Body({
        amountKobo: Schema.optionalWith(Amount, { exact: true }),
        category: Schema.optionalWith(Category, { exact: true }),
        description: Schema.optionalWith(Description, { exact: true }),
        date: Schema.optionalWith(SpendingDate, { exact: true })
      }).annotations({ examples: [{ amountKobo: 520_000n, description: "Groceries and toiletries at Shoprite, Lekki" }] }))
      .addSuccess(success("Spending", SpendingView, { message: "Spending updated." }))
      .addError(errors(SpendingNotFound))
  )
  .add(
    HttpApiEndpoint.del("remove")`/${SpendingIdParam}`
      .addSuccess(success("Spending", SpendingView, { message: "Spending removed." }))
      .addError(errors(SpendingNotFound))
  )
  // every endpoint here reads the signed-in customer's account
  .addError(errors(AccountNotFound))
  .middleware(Authentication)
  .prefix("/api/v1/spendings")
  .annotate(OpenApi.Title, "Spending log")
{}
