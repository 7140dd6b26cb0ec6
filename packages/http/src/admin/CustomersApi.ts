/** The HTTP contract of customers in the back office: the directory and one customer's file. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { AccountId, CustomerId, CustomerSort, CustomerStatus, KoboString, KycStatus, PlanId, StaffAccess, TransactionId, type Notice } from "@app/domain"
import { Schema } from "effect"
import { PlanView } from "../plans/Views.js"
import { failuresOf, success } from "../shared/Envelope.js"
import { pageFields, PageView } from "../shared/Paging.js"
import { Body, msg, Uuid, UuidOf } from "../shared/Schemas.js"
import { StaffAuthentication } from "../shared/Security.js"
import { TransactionView } from "../transactions/Views.js"
import { pendingApproval } from "./ApprovalsApi.js"
import { AuditEntryView } from "./AuditApi.js"
import { StaffTicketView } from "./SupportDeskApi.js"

export const CustomerSummaryView = Schema.Struct({
  id: CustomerId,
  accountId: AccountId,
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  email: Schema.String,
  phone: Schema.NullOr(Schema.String),
  accountNumber: Schema.NullOr(Schema.String),
  customerStatus: Schema.String,
  kycStatus: Schema.String,
  referralCode: Schema.String,
  officerId: Schema.NullOr(Schema.String),
  lastKnownBalanceKobo: Schema.NullOr(KoboString).annotations({ description: "the provider's last answer (see balanceSeenAt)" }),
  balanceSeenAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})

export const customerSummaryView = (c: StaffAccess.Customers.CustomerSummary) => ({
  id: c.customerId,
  accountId: c.accountId,
  firstName: c.firstName,
  lastName: c.lastName,
  email: c.email,
  phone: c.phone,
  accountNumber: c.coreAccountNumber,
  customerStatus: c.customerStatus,
  kycStatus: c.kycStatus,
  referralCode: c.referralCode,
  officerId: c.officerId,
  lastKnownBalanceKobo: c.lastKnownBalanceKobo,
  balanceSeenAt: c.balanceSeenAt?.toISOString() ?? null,
  createdAt: c.createdAt.toISOString()
})

const NoticeView = Schema.Struct({ id: Schema.String, kind: Schema.String, message: Schema.String, planId: Schema.NullOr(PlanId), transactionId: Schema.NullOr(TransactionId), createdAt: Schema.String })
export const noticeView = (n: Notice) => ({ id: n.id, kind: n.kind, message: n.message, planId: n.planId, transactionId: n.transactionId, createdAt: n.createdAt.toISOString() })

export const CustomerFileView = Schema.Struct({
  customer: CustomerSummaryView,
  liveBalanceKobo: Schema.NullOr(KoboString).annotations({ description: "asked of the provider now; null without a bank account or an answer" }),
  kyc: Schema.NullOr(Schema.Struct({
    bvnVerified: Schema.Boolean,
    dateOfBirth: Schema.NullOr(Schema.String),
    gender: Schema.NullOr(Schema.String),
    address: Schema.NullOr(Schema.String)
  })),
  plan: Schema.NullOr(PlanView),
  recentTransactions: Schema.Array(TransactionView),
  notices: Schema.Array(NoticeView),
  tickets: Schema.Array(StaffTicketView),
  audit: Schema.Array(AuditEntryView)
})

const DirectoryQuery = Body({
  q: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(100, msg("Must be at most 100 characters"))), { exact: true }),
  status: Schema.optionalWith(CustomerStatus.annotations(msg("status must be unverified, verified, active, suspended, closed or deleted")), { exact: true }),
  kyc: Schema.optionalWith(KycStatus.annotations(msg("kyc must be pending, bvn_verified or fully_verified")), { exact: true }),
  officer: Schema.optionalWith(Uuid, { exact: true }),
  sort: Schema.optionalWith(CustomerSort.annotations(msg("sort must be newest, oldest, balance_desc or balance_asc")), {
    exact: true,
    default: () => "newest" as const
  }),
  ...pageFields
})

const CustomerIdParam = HttpApiSchema.param("id", UuidOf(CustomerId))

export const FreezeOutcomeView = Schema.Struct({
  frozen: Schema.Boolean,
  customerStatus: Schema.String,
  providerFreeze: Schema.Literal(...StaffAccess.Freezes.FreezeState.literals, "lifted").annotations({
    description: "the core account at the bank: frozen, pending_provider (waiting for a movement in flight; the " +
      "finish-freezes job completes it), no_core_account, provider_failed / provider_unknown (an alert asks staff to " +
      "freeze it by hand), or lifted after an unfreeze"
  }),
  freezeId: Schema.NullOr(Schema.String)
})

const FreezeBody = Body({
  reason: Schema.Trim.pipe(
    Schema.minLength(1, msg("A reason is required")),
    Schema.maxLength(500, msg("Must be at most 500 characters"))
  ).annotations(msg("A reason is required"))
})

export class AdminCustomersApi extends HttpApiGroup.make("adminCustomers")
  .add(
    HttpApiEndpoint.get("search", "/")
      .setUrlParams(DirectoryQuery)
      .addSuccess(success("Admin", PageView(CustomerSummaryView)))
      .addError(failuresOf(400, 401, 403))
      .annotate(
        OpenApi.Description,
        "Customers matching q (name, email, phone, account number, referral code or id), status, kyc and officer, sorted " +
          "newest (default), oldest, balance_desc or balance_asc; the balance is the last one the provider gave (customers:read)."
      )
  )
  .add(
    HttpApiEndpoint.get("detail")`/${CustomerIdParam}`
      .addSuccess(success("Admin", CustomerFileView))
      .addError(failuresOf(400, 401, 403, 404))
      .annotate(OpenApi.Description, "One customer: KYC, plan, recent transactions, notices, tickets and audit trail; never a hash or secret.")
  )
  .add(
    HttpApiEndpoint.post("freeze")`/${CustomerIdParam}/freeze`
      .setPayload(FreezeBody)
      .addSuccess(success("Admin", FreezeOutcomeView, { message: "Customer frozen." }))
      .addError(failuresOf(400, 401, 403, 404, 409))
      .annotate(
        OpenApi.Description,
        "customers:freeze, a reason required. customerStatus suspended and every session revoked at once; the core account " +
          "is frozen at the bank after any movement in flight has finished or been compensated (providerFreeze says where " +
          "that stands). Freezing a frozen customer answers the same. 409 for a closing, closed or deleted customer."
      )
  )
  .add(
    HttpApiEndpoint.post("unfreeze")`/${CustomerIdParam}/unfreeze`
      .addSuccess(success("Admin", FreezeOutcomeView, { message: "Customer unfrozen." }))
      .addSuccess(pendingApproval("Unfreeze filed for a second member's approval."))
      .addError(failuresOf(400, 401, 403, 404, 409, 502))
      .annotate(
        OpenApi.Description,
        "customers:unfreeze. The bank lifts its freeze (quoting the freeze reference) and customerStatus goes back to active. " +
          "409 unless suspended; 502 when the bank refuses or does not answer (the customer stays suspended). Under " +
          "ADMIN_FOUR_EYES=true: 202 with the pending approval, applied when a second member approves it."
      )
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin/customers")
  .annotate(OpenApi.Title, "Admin customers")
{}
