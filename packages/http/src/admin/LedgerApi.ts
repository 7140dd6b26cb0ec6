/** The HTTP contract of the ledger in the back office: search, disbursements, failed payouts, requery. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  AdminTransactionNotFound, CustomerId, MovementNotAwaitingOperator, PermissionDenied, PlanId, StaffAccess,
  TransactionId, TransactionPurpose, TransactionStatus
} from "@app/domain"
import { Schema } from "effect"
import { errors, success } from "../shared/Envelope.js"
import { pageFields, PageView } from "../shared/Paging.js"
import { Body, CalendarDate, KoboQuery, msg, UuidOf } from "../shared/Schemas.js"
import { StaffAuthentication } from "../shared/Security.js"
import { transactionView, TransactionView } from "../transactions/Views.js"
import { pendingApproval } from "./ApprovalsApi.js"
import * as AdminEx from "./Examples.js"

/** the largest amount a search names (₦10bn) */
const MAX_SEARCH_KOBO = 1_000_000_000_000n

const Status = TransactionStatus.annotations({ ...msg("status must be pending, confirmed or failed"), examples: ["failed"] })
const Purpose = TransactionPurpose.annotations({
  ...msg("purpose must be deposit, manual_transfer, disbursement or early_withdrawal"),
  examples: ["disbursement"]
})
const opt = <A, I>(s: Schema.Schema<A, I>) => Schema.optionalWith(s, { exact: true })

const dayRange = <T extends { readonly from?: string; readonly to?: string }>(q: T) =>
  q.from === undefined || q.to === undefined || q.from <= q.to || { path: ["to"], message: "to must be on or after from" }

const SearchQuery = Body({
  id: opt(UuidOf(TransactionId)),
  reference: opt(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(40, msg("Must be at most 40 characters"))).annotations({ examples: [AdminEx.stuckEntry.transferReference] })),
  customerId: opt(UuidOf(CustomerId)),
  status: opt(Status),
  purpose: opt(Purpose),
  from: opt(CalendarDate),
  to: opt(CalendarDate),
  minAmountKobo: opt(KoboQuery("minAmountKobo", MAX_SEARCH_KOBO)),
  maxAmountKobo: opt(KoboQuery("maxAmountKobo", MAX_SEARCH_KOBO)),
  ...pageFields
}).pipe(
  Schema.filter(dayRange),
  Schema.filter((q) =>
    q.minAmountKobo === undefined || q.maxAmountKobo === undefined || q.minAmountKobo <= q.maxAmountKobo ||
    { path: ["maxAmountKobo"], message: "maxAmountKobo must be at least minAmountKobo" }
  )
)

const ProviderAnswer = Schema.NullOr(Schema.Struct({ reference: Schema.String, status: Schema.String }))

/** A transaction as staff list it: with its customer's name, and whether it awaits an operator ("resolve movement"). */
export const LedgerEntryView = Schema.Struct({
  ...TransactionView.fields,
  customerName: Schema.NullOr(Schema.String).annotations({ description: "the customer's name, their email while they have none" }),
  awaitsOperator: Schema.Boolean.annotations({
    description: "parked after the bank refused its transfer and then its reversal: POST /transactions/{id}/resolve applies"
  })
}).annotations({ examples: [AdminEx.ledgerEntry] })
export const ledgerEntryView = (e: StaffAccess.Ledger.LedgerEntry) => ({
  ...transactionView(e),
  customerName: e.customerName,
  awaitsOperator: e.awaitsOperator
})

/** What the ledger's lists answer (the search, the disbursements, the failed jobs). */
const LedgerPageView = PageView(LedgerEntryView)

export const RequeryView = Schema.Struct({
  transaction: LedgerEntryView,
  provider: Schema.Struct({ debit: ProviderAnswer, transfer: ProviderAnswer })
}).annotations({ examples: [AdminEx.requery] })
const TransactionIdParam = HttpApiSchema.param("id", UuidOf(TransactionId))

const PlanState = Schema.String
export const RetryView = Schema.Struct({
  transactionId: TransactionId,
  planId: PlanId,
  cycle: Schema.Number,
  stateBefore: PlanState,
  state: PlanState,
  nextDueAt: Schema.Date
}).annotations({ examples: [AdminEx.retry] })

const ResolveBody = Body({
  outcome: StaffAccess.MovementResolution.ResolutionOutcome.annotations(msg("outcome must be credited_back or delivered")),
  note: Schema.Trim.pipe(
    Schema.minLength(1, msg("A note is required: what the bank confirmed, and its reference")),
    Schema.maxLength(1000, msg("Must be at most 1000 characters"))
  ).annotations(msg("A note is required: what the bank confirmed, and its reference"))
}).annotations({
  examples: [{ outcome: "delivered", note: "GTBank confirmed the credit on 24 Nov 2026, NIP session 000013261124151233445566778899." }]
})

export const ResolutionView = Schema.Struct({
  transaction: TransactionView,
  resolution: Schema.Struct({
    outcome: StaffAccess.MovementResolution.ResolutionOutcome,
    note: Schema.String,
    requestedBy: Schema.String,
    resolvedBy: Schema.String,
    resolvedAt: Schema.String
  }),
  /** the closure whose sweep this was, as it stands after (closed; failed = the account reopened) */
  closureStatus: Schema.NullOr(Schema.String),
  /** the plan whose payout this was, as it stands after */
  planState: Schema.NullOr(Schema.String)
}).annotations({ examples: [AdminEx.resolution] })

export class AdminLedgerApi extends HttpApiGroup.make("adminLedger")
  .add(
    HttpApiEndpoint.get("search", "/transactions")
      .setUrlParams(SearchQuery)
      .addSuccess(success("Admin", LedgerPageView))
  )
  .add(
    HttpApiEndpoint.post("requery")`/transactions/${TransactionIdParam}/requery`
      .addSuccess(success("Admin", RequeryView))
      .addError(errors(AdminTransactionNotFound))
  )
  .add(
    HttpApiEndpoint.post("resolve")`/transactions/${TransactionIdParam}/resolve`
      .setPayload(ResolveBody)
      .addSuccess(success("Admin", ResolutionView, { message: "Movement resolved." }))
      .addSuccess(pendingApproval("Resolution filed for a second member's approval."))
      .addError(errors(AdminTransactionNotFound, MovementNotAwaitingOperator))
  )
  .add(
    HttpApiEndpoint.get("disbursements", "/disbursements")
      .setUrlParams(Body({ status: opt(Status), ...pageFields }))
      .addSuccess(success("Admin", LedgerPageView))
  )
  .add(
    HttpApiEndpoint.get("failedJobs", "/jobs/failed")
      .setUrlParams(Body(pageFields))
      .addSuccess(success("Admin", LedgerPageView))
  )
  .add(
    HttpApiEndpoint.post("retryFailedJob")`/jobs/failed/${TransactionIdParam}/retry`
      .addSuccess(success("Admin", RetryView))
      .addError(errors(AdminTransactionNotFound, StaffAccess.JobRetryRefused))
  )
  // every endpoint here checks a permission of the member's role
  .addError(errors(PermissionDenied))
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin")
  .annotate(OpenApi.Title, "Admin ledger")
{}
