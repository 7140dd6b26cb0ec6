/** What the transaction endpoints answer: the spec's Transaction, a page of them, the report. */
import { CustomerId, KoboString, PlanId, Reports, TransactionId, TransactionPurpose, TransactionStatus, TransactionType, type Page, type Transaction } from "@app/domain"
import { Schema } from "effect"
import { PageView, pageView } from "../shared/Paging.js"
import * as Ex from "../shared/Examples.js"

/** The spec's Transaction resource; kobo amounts as decimal strings. */
export const TransactionView = Schema.Struct({
  id: TransactionId,
  customerId: CustomerId,
  planId: Schema.NullOr(PlanId),
  type: TransactionType,
  purpose: TransactionPurpose,
  amountKobo: KoboString,
  feeKobo: KoboString,
  status: TransactionStatus,
  retrievalReference: Schema.NullOr(Schema.String),
  transferReference: Schema.NullOr(Schema.String),
  failureReason: Schema.NullOr(Schema.String),
  retryCount: Schema.Number,
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotations({
  examples: [{
    id: Ex.TRANSACTION_ID,
    customerId: Ex.CUSTOMER_ID,
    planId: Ex.PLAN_ID,
    type: "transfer",
    purpose: "disbursement",
    amountKobo: 6_000_000n,
    feeKobo: 5_375n,
    status: "confirmed",
    retrievalReference: "DX7CB1V4WAJ3",
    transferReference: "TX7CB1V4WAJ3",
    failureReason: null,
    retryCount: 0,
    createdAt: "2026-11-14T08:00:01.000Z",
    updatedAt: "2026-11-14T08:00:04.000Z"
  }]
})

export const TransactionPageView = PageView(TransactionView)

export const TransactionReportView = Schema.Struct({
  from: Schema.String,
  to: Schema.String,
  inbound: Schema.Struct({ count: Schema.Number, totalKobo: KoboString }),
  outbound: Schema.Struct({ count: Schema.Number, totalKobo: KoboString, feesKobo: KoboString }),
  /** inbound − outbound − outbound fees; may be negative */
  net: KoboString
}).annotations({
  examples: [{
    from: "2026-11-01",
    to: "2026-11-30",
    inbound: { count: 2, totalKobo: 10_000_000n },
    outbound: { count: 2, totalKobo: 8_500_000n, feesKobo: 8_063n },
    net: 1_491_937n
  }]
})

export const transactionView = (t: Transaction) => ({
  id: t.id,
  customerId: t.customerId,
  planId: t.planId,
  type: t.type,
  purpose: t.purpose,
  amountKobo: t.amountKobo,
  feeKobo: t.feeKobo,
  status: t.status,
  retrievalReference: t.retrievalReference,
  transferReference: t.transferReference,
  failureReason: t.failureReason,
  retryCount: t.retryCount,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString()
})

export const transactionPageView = (page: Page<Transaction>) => pageView(page, transactionView)

export const reportView = (r: Reports.TransactionReport) => ({
  from: r.from,
  to: r.to,
  inbound: r.inbound,
  outbound: r.outbound,
  net: r.netKobo
})
