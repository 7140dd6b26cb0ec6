import { HttpApiBuilder } from "@effect/platform"
import { StaffAccess } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { CurrentStaff } from "../shared/Security.js"
import { approvalView } from "./ApprovalsApi.js"
import { ledgerEntryView } from "./LedgerApi.js"
import { named, nameOf } from "./Names.js"
import { alertView } from "./OpsApi.js"
import { staffTicketView, ticketIds } from "./SupportDeskApi.js"

type Attention = StaffAccess.Attention.Attention

const idsOf = (a: Attention) => [
  ...(a.alerts?.items.map((x) => x.customerId) ?? []),
  ...(a.approvals?.items.map((x) => x.requestedBy) ?? []),
  ...(a.tickets?.items.flatMap(ticketIds) ?? [])
]

const counted = <A, B>(c: { readonly count: number; readonly items: ReadonlyArray<A> } | null, view: (a: A) => B) =>
  c === null ? null : { count: c.count, items: c.items.map(view) }

export const AdminAttentionHandlers = HttpApiBuilder.group(Api, "adminAttention", (handlers) =>
  handlers.handle("attention", () =>
    Effect.flatMap(CurrentStaff, StaffAccess.Attention.attention).pipe(
      Effect.flatMap(named(idsOf, (a, names) => ({
        total: (a.alerts?.count ?? 0) + (a.approvals?.count ?? 0) + (a.movements?.total ?? 0) + (a.tickets?.count ?? 0),
        alerts: counted(a.alerts, (x) => alertView(x, names)),
        approvals: counted(a.approvals, (x) => ({ ...approvalView(x), requestedByName: nameOf(names, x.requestedBy) })),
        movements: a.movements === null ? null : { count: a.movements.total, items: a.movements.items.map(ledgerEntryView) },
        tickets: counted(a.tickets, (t) => staffTicketView(t, names))
      })))
    )))
