import { HttpApiBuilder } from "@effect/platform"
import { StaffAccess } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { pageView } from "../shared/Paging.js"
import { CurrentStaff } from "../shared/Security.js"
import { transactionView } from "../transactions/Views.js"

const admin = mapDomainErrors("Admin")
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
        Effect.map((p) => pageView(p, transactionView)),
        admin
      ))
    .handle("requery", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.Ledger.requery(actor, path.id)).pipe(
        Effect.map((r) => ({ transaction: transactionView(r.transaction), provider: r.provider })),
        admin
      ))
    .handle("disbursements", ({ urlParams: { page, pageSize, status } }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.Ledger.disbursements(actor, status, { page, pageSize })).pipe(
        Effect.map((p) => pageView(p, transactionView)),
        admin
      ))
    .handle("failedJobs", ({ urlParams }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.Ledger.failedJobs(actor, urlParams)).pipe(
        Effect.map((p) => pageView(p, transactionView)),
        admin
      ))
    .handle("retryFailedJob", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.retryFailedPayout(actor, path.id)).pipe(admin)))
