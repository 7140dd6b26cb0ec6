/** What the transaction endpoints answer: the spec's Transaction, a page of them, the report. */
import { CustomerId, KoboString, PlanId, Reports, TransactionId, TransactionPurpose, TransactionStatus, TransactionType, type Page, type Transaction } from "@app/domain"
import { Schema } from "effect"
import { PageView, pageView } from "../shared/Paging.js"

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
})

export const TransactionPageView = PageView(TransactionView)

export const TransactionReportView = Schema.Struct({
  from: Schema.String,
  to: Schema.String,
  inbound: Schema.Struct({ count: Schema.Number, totalKobo: KoboString }),
  outbound: Schema.Struct({ count: Schema.Number, totalKobo: KoboString, feesKobo: KoboString }),
  /** inbound − outbound − outbound fees; may be negative */
  net: KoboString
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
