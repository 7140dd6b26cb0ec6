import { HttpApiBuilder } from "@effect/platform"
import { StaffAccess } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { pageView } from "../shared/Paging.js"
import { CurrentStaff } from "../shared/Security.js"
import { transactionView } from "../transactions/Views.js"
import { approvalView } from "./ApprovalsApi.js"
import { ledgerEntryView } from "./LedgerApi.js"

const admin = mapDomainErrors("Admin")

/** A resolution as answered (by the endpoint, and as an approval's result under four-eyes). */
export const resolutionView = (r: StaffAccess.MovementResolution.ResolveResult) => ({
  transaction: transactionView(r.transaction),
  resolution: {
    outcome: r.resolution.outcome,
    note: r.resolution.note,
    requestedBy: r.resolution.requestedBy,
    resolvedBy: r.resolution.resolvedBy,
    resolvedAt: r.resolution.resolvedAt.toISOString()
  },
  closureStatus: r.closureStatus,
  planState: r.planState
})
const ledgerRow = (actor: Parameters<typeof StaffAccess.Ledger.search>[0], id: string) =>
  Effect.map(StaffAccess.Ledger.search(actor, { id }, { page: 1, pageSize: 1 }), (p) => p.items[0])

const DAY_MS = 86_400_000

/** from/to UTC days (inclusive) as an instant range [from, until). */
export const dayWindow = (from: string | undefined, to: string | undefined) => ({
  ...(from === undefined ? {} : { from: new Date(`${from}T00:00:00Z`) }),
  ...(to === undefined ? {} : { until: new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS) })
})

export const AdminLedgerHandlers = HttpApiBuilder.group(Api, "adminLedger", (handlers) =>
  handlers
    .handle("search", ({ urlParams: { from, page, pageSize, to, ...filter } }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.Ledger.search(actor, { ...filter, ...dayWindow(from, to) }, { page, pageSize })).pipe(
        Effect.map((p) => pageView(p, ledgerEntryView)),
        admin
      ))
    .handle("requery", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) =>
        Effect.flatMap(StaffAccess.Ledger.requery(actor, path.id), (r) =>
          // the movement as the ledger lists it (named), so the console can put it in place of its row
          Effect.map(ledgerRow(actor, path.id), (named) => ({
            transaction: named === undefined ? { ...transactionView(r.transaction), customerName: null, awaitsOperator: false } : ledgerEntryView(named),
            provider: r.provider
          })))).pipe(admin))
    .handle("resolve", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.Approvals.resolveMovement(actor, { transactionId: path.id, ...payload })).pipe(
        Effect.map((r) => r._tag === "Done" ? resolutionView(r.result) : { pendingApproval: approvalView(r.approval) }),
        admin
      ))
    .handle("disbursements", ({ urlParams: { page, pageSize, status } }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.Ledger.disbursements(actor, status, { page, pageSize })).pipe(
        Effect.map((p) => pageView(p, ledgerEntryView)),
        admin
      ))
    .handle("failedJobs", ({ urlParams }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.Ledger.failedJobs(actor, urlParams)).pipe(
        Effect.map((p) => pageView(p, ledgerEntryView)),
        admin
      ))
    .handle("retryFailedJob", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.retryFailedPayout(actor, path.id)).pipe(admin)))
