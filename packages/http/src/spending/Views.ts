/** What the spending endpoints answer: a spending, a page of them, the report, the emailed report. */
import { KoboString, type Page, type Spending, SpendingId, type Spendings } from "@app/domain"
import { Schema } from "effect"
import { PageView, pageView } from "../shared/Paging.js"

/** The spec's Spending; amountKobo as a decimal string. */
export const SpendingView = Schema.Struct({
  id: SpendingId,
  amountKobo: KoboString,
  category: Schema.String,
  description: Schema.NullOr(Schema.String),
  date: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String
})

export const SpendingPageView = PageView(SpendingView)

export const SpendingReportView = Schema.Struct({
  from: Schema.String,
  to: Schema.String,
  totals: Schema.Struct({ totalKobo: KoboString, count: Schema.Number }),
  categories: Schema.Array(Schema.Struct({
    category: Schema.String,
    totalKobo: KoboString,
    count: Schema.Number,
    share: Schema.String.annotations({ description: "percent of the total, 2 decimals; the shares sum to exactly 100.00" })
  })),
  daily: Schema.Array(Schema.Struct({ date: Schema.String, totalKobo: KoboString, count: Schema.Number }))
})

export const EmailedReportView = Schema.Struct({
  month: Schema.String,
  from: Schema.String,
  to: Schema.String,
  email: Schema.String,
  totalKobo: KoboString,
  count: Schema.Number
})

export const spendingView = (s: Spending) => ({
  id: s.id,
  amountKobo: s.amountKobo,
  category: s.category,
  description: s.description,
  date: s.date,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString()
})

export const spendingPageView = (page: Page<Spending>) => pageView(page, spendingView)

export const reportView = (r: Spendings.SpendingReport) => ({
  from: r.from,
  to: r.to,
  totals: { totalKobo: r.totalKobo, count: r.count },
  categories: r.categories.map((c) => ({ category: c.category, totalKobo: c.totalKobo, count: c.count, share: c.share })),
  daily: r.daily.map((d) => ({ date: d.date, totalKobo: d.totalKobo, count: d.count }))
})
