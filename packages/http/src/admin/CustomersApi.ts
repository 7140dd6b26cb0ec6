/** The HTTP contract of customers in the back office: the directory and one customer's file. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  AccountId, AdminCustomerNotFound, CustomerId, CustomerSort, CustomerStatus, FreezeId, KoboString, KycStatus, type Notice,
  PermissionDenied, PlanId, StaffAccess, TransactionId
} from "@app/domain"
import { Schema } from "effect"
import { planView, PlanView } from "../plans/Views.js"
import { errors, success } from "../shared/Envelope.js"
import { pageFields, PageView } from "../shared/Paging.js"
import { Body, msg, Uuid, UuidOf } from "../shared/Schemas.js"
import { StaffAuthentication } from "../shared/Security.js"
import { TransactionView } from "../transactions/Views.js"
import { pendingApproval } from "./ApprovalsApi.js"
import { AuditEntryView } from "./AuditApi.js"
import { StaffTicketView } from "./SupportDeskApi.js"
import * as AdminEx from "./Examples.js"

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
}).annotations({ examples: [AdminEx.customerSummary] })

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
}).annotations({ examples: [AdminEx.customerFile] })

/** GET /admin/customers/{id}/plan: the plan readable, with the per-cycle fee and Borrow and Extra Cash used. */
export const CustomerPlanView = Schema.Struct({
  plan: Schema.NullOr(Schema.Struct({
    ...PlanView.fields,
    perCycleFeeKobo: KoboString.annotations({ description: "the NIP fee with VAT debited with each regular payout (the plan's fee cap applied)" }),
    borrow: Schema.Struct({ used: Schema.Number, cap: Schema.Number }),
    extraCash: Schema.Struct({
      usedToday: Schema.Number.annotations({ description: "today in the plan's time zone" }),
      perDay: Schema.Number,
      usedTotal: Schema.Number,
      perPlan: Schema.Number,
      feeBasisPoints: KoboString.annotations({ description: "the flat fee on the amount: 400 = 4%" })
    })
  })).annotations({ description: "null when the customer has never had a plan" })
}).annotations({ examples: [AdminEx.customerPlan] })

export const customerPlanView = (found: StaffAccess.CustomerPlan.CustomerPlan | null) => ({
  plan: found === null ? null : {
    ...planView(found.plan),
    perCycleFeeKobo: found.perCycleFeeKobo,
    borrow: found.borrow,
    extraCash: found.extraCash
  }
})

/** One message of a customer's log: never a code's value, its hash, or a body. */
export const MessageLogEntryView = Schema.Struct({
  id: Schema.String,
  source: Schema.Literal("one_time_code", "outbox").annotations({
    description: "one_time_code: a message carrying a one-time code (sent at once, never queued); outbox: any other (queued, then sent)"
  }),
  channel: Schema.Literal("email", "sms"),
  kind: Schema.String.annotations({ description: "the code's purpose or the message's kind: email_verification, password_reset, spending_report…" }),
  destination: Schema.String.annotations({ description: "masked: a***@example.com, *********0123" }),
  status: Schema.Literal("pending", "sent", "failed").annotations({
    description: "pending: queued, not sent yet; sent: handed to the SMTP relay or SMS gateway; failed: given up (a staff alert was raised)"
  }),
  deliveryAttempts: Schema.NullOr(Schema.Number),
  lastError: Schema.NullOr(Schema.String).annotations({ description: "a status code or an error class, never the peer's text" }),
  createdAt: Schema.String,
  sentAt: Schema.NullOr(Schema.String),
  codeState: Schema.NullOr(Schema.Literal("used", "replaced", "locked", "expired", "open")).annotations({
    description: "for a message with a code: where the code stands (never the code itself)"
  }),
  codeExpiresAt: Schema.NullOr(Schema.String)
}).annotations({ examples: [AdminEx.messageLogEntry] })

export const messageLogEntryView = (m: StaffAccess.CustomerMessages.MessageLogEntry) => ({
  ...m,
  createdAt: m.createdAt.toISOString(),
  sentAt: m.sentAt?.toISOString() ?? null,
  codeExpiresAt: m.codeExpiresAt?.toISOString() ?? null
})

const DirectoryQuery = Body({
  q: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(100, msg("Must be at most 100 characters"))).annotations({ examples: ["Okafor"] }), { exact: true }),
  status: Schema.optionalWith(CustomerStatus.annotations({ ...msg("status must be unverified, verified, active, suspended, closed or deleted"), examples: ["suspended"] }), { exact: true }),
  kyc: Schema.optionalWith(KycStatus.annotations({ ...msg("kyc must be pending, bvn_verified or fully_verified"), examples: ["bvn_verified"] }), { exact: true }),
  officer: Schema.optionalWith(Uuid, { exact: true }),
  sort: Schema.optionalWith(CustomerSort.annotations({ ...msg("sort must be newest, oldest, balance_desc or balance_asc"), examples: ["balance_desc"] }), {
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
  freezeId: Schema.NullOr(FreezeId)
}).annotations({ examples: [AdminEx.frozen] })

const FreezeBody = Body({
  reason: Schema.Trim.pipe(
    Schema.minLength(1, msg("A reason is required")),
    Schema.maxLength(500, msg("Must be at most 500 characters"))
  ).annotations(msg("A reason is required"))
}).annotations({ examples: [{ reason: "Customer reported a stolen phone on 27 Nov 2026; freeze until they confirm their identity." }] })

export class AdminCustomersApi extends HttpApiGroup.make("adminCustomers")
  .add(
    HttpApiEndpoint.get("search", "/")
      .setUrlParams(DirectoryQuery)
      .addSuccess(success("Admin", PageView(CustomerSummaryView)))
  )
  .add(
    HttpApiEndpoint.get("detail")`/${CustomerIdParam}`
      .addSuccess(success("Admin", CustomerFileView))
      .addError(errors(AdminCustomerNotFound))
  )
  .add(
    HttpApiEndpoint.get("plan")`/${CustomerIdParam}/plan`
      .addSuccess(success("Admin", CustomerPlanView))
      .addError(errors(AdminCustomerNotFound))
  )
  .add(
    HttpApiEndpoint.get("messages")`/${CustomerIdParam}/messages`
      .addSuccess(success("Admin", Schema.Array(MessageLogEntryView)))
      .addError(errors(AdminCustomerNotFound))
  )
  .add(
    HttpApiEndpoint.post("freeze")`/${CustomerIdParam}/freeze`
      .setPayload(FreezeBody)
      .addSuccess(success("Admin", FreezeOutcomeView, { message: "Customer frozen." }))
      .addError(errors(AdminCustomerNotFound, StaffAccess.Freezes.CustomerNotFreezable))
  )
  .add(
    HttpApiEndpoint.post("unfreeze")`/${CustomerIdParam}/unfreeze`
      .addSuccess(success("Admin", FreezeOutcomeView.annotations({ examples: [AdminEx.unfrozen] }), { message: "Customer unfrozen." }))
      .addSuccess(pendingApproval("Unfreeze filed for a second member's approval."))
      .addError(errors(
        AdminCustomerNotFound, StaffAccess.Freezes.UnfreezeStale,
        StaffAccess.Freezes.CustomerNotSuspended, StaffAccess.Freezes.ProviderUnfreezeFailed
      ))
  )
  // every endpoint here checks a permission of the member's role
  .addError(errors(PermissionDenied))
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin/customers")
  .annotate(OpenApi.Title, "Admin customers")
{}
