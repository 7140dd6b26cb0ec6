import { HttpApiBuilder } from "@effect/platform"
import { StaffAccess } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { planView } from "../plans/Views.js"
import { pageView } from "../shared/Paging.js"
import { CurrentStaff } from "../shared/Security.js"
import { transactionView } from "../transactions/Views.js"
import { approvalView } from "./ApprovalsApi.js"
import { auditEntryView, auditIds } from "./AuditApi.js"
import { customerPlanView, customerSummaryView, messageLogEntryView, noticeView } from "./CustomersApi.js"
import { named } from "./Names.js"
import { staffTicketView, ticketIds } from "./SupportDeskApi.js"

const admin = mapDomainErrors("Admin")
const { Customers } = StaffAccess

export const AdminCustomersHandlers = HttpApiBuilder.group(Api, "adminCustomers", (handlers) =>
  handlers
    .handle("search", ({ urlParams: { officer, page, pageSize, ...filter } }) =>
      Effect.flatMap(CurrentStaff, (actor) =>
        Customers.search(actor, { ...filter, ...(officer === undefined ? {} : { officerId: officer }) }, { page, pageSize })).pipe(
          Effect.map((p) => pageView(p, customerSummaryView)),
          admin
        ))
    .handle("detail", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => Customers.detail(actor, path.id)).pipe(
        Effect.flatMap(named((f) => [...f.tickets.flatMap(ticketIds), ...f.audit.flatMap(auditIds)], (f, names) => ({
          customer: customerSummaryView(f.summary),
          liveBalanceKobo: f.liveBalanceKobo,
          kyc: f.kyc,
          plan: f.plan === null ? null : planView(f.plan),
          recentTransactions: f.recentTransactions.map(transactionView),
          notices: f.notices.map(noticeView),
          tickets: f.tickets.map((t) => staffTicketView(t, names)),
          audit: f.audit.map((e) => auditEntryView(e, names))
        }))),
        admin
      ))
    .handle("plan", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.CustomerPlan.plan(actor, path.id)).pipe(Effect.map(customerPlanView), admin))
    .handle("messages", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.CustomerMessages.messages(actor, path.id)).pipe(
        Effect.map((log) => log.map(messageLogEntryView)),
        admin
      ))
    .handle("freeze", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.Freezes.freeze(actor, path.id, payload.reason)).pipe(admin))
    .handle("unfreeze", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.Approvals.unfreezeCustomer(actor, path.id)).pipe(
        Effect.map((r) => r._tag === "Done" ? r.result : { pendingApproval: approvalView(r.approval) }),
        admin
      )))
