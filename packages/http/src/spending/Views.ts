/** What the spending endpoints answer: a spending, a page of them, the report, the emailed report. */
import { KoboString, type Page, type Spending, SpendingId, type Spendings } from "@app/domain"
import { Schema } from "effect"
import { PageView, pageView } from "../shared/Paging.js"
import * as Ex from "../shared/Examples.js"

/** The spec's Spending; amountKobo as a decimal string. */
export const SpendingView = Schema.Struct({
  id: SpendingId,
  amountKobo: KoboString,
  category: Schema.String,
  description: Schema.NullOr(Schema.String),
  date: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotations({
  examples: [{
    id: SpendingId.make("b2d4f6a8-0c1e-4a35-8b7d-9f1a3c5e7b20"),
    amountKobo: 450_000n,
    category: "food",
    description: "Groceries at Shoprite, Lekki",
    date: "2026-11-20",
    createdAt: "2026-11-20T18:05:33.000Z",
    updatedAt: "2026-11-20T18:05:33.000Z"
  }]
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
}).annotations({
  examples: [{
    from: "2026-11-19",
    to: "2026-11-20",
    totals: { totalKobo: 1_200_000n, count: 3 },
    categories: [
      { category: "food", totalKobo: 900_000n, count: 2, share: "75.00" },
      { category: "transport", totalKobo: 300_000n, count: 1, share: "25.00" }
    ],
    daily: [
      { date: "2026-11-19", totalKobo: 750_000n, count: 2 },
      { date: "2026-11-20", totalKobo: 450_000n, count: 1 }
    ]
  }]
})

export const EmailedReportView = Schema.Struct({
  month: Schema.String,
  from: Schema.String,
  to: Schema.String,
  email: Schema.String,
  totalKobo: KoboString,
  count: Schema.Number
}).annotations({
  examples: [{ month: "2026-10", from: "2026-10-01", to: "2026-10-31", email: Ex.EMAIL, totalKobo: 8_640_000n, count: 37 }]
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
