import { HttpApiBuilder } from "@effect/platform"
import { StaffAccess } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { pageView } from "../shared/Paging.js"
import { CurrentStaff } from "../shared/Security.js"
import { named } from "./Names.js"
import { noteView, staffMessageView, staffTicketDetailIds, staffTicketDetailView, staffTicketView, ticketIds } from "./SupportDeskApi.js"

const admin = mapDomainErrors("Admin")
const { SupportDesk } = StaffAccess
const ticketNamed = named(ticketIds, staffTicketView)

export const AdminSupportHandlers = HttpApiBuilder.group(Api, "adminSupport", (handlers) =>
  handlers
    .handle("queue", ({ urlParams: { assignee, category, customerId, page, pageSize, status } }) =>
      Effect.flatMap(CurrentStaff, (actor) =>
        SupportDesk.queue(actor, {
          status,
          category,
          customerId,
          ...(assignee === undefined ? {} : { assignedStaffId: assignee === "none" ? null : assignee })
        }, { page, pageSize })).pipe(
          Effect.flatMap(named((p) => p.items.flatMap(ticketIds), (p, names) => pageView(p, (t) => staffTicketView(t, names)))),
          admin
        ))
    .handle("ticket", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => SupportDesk.ticket(actor, path.id)).pipe(Effect.flatMap(named(staffTicketDetailIds, staffTicketDetailView)), admin))
    .handle("reply", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => SupportDesk.reply(actor, path.id, payload.message)).pipe(
        Effect.flatMap(named(
          (r) => [...ticketIds(r.ticket), r.message.authorId],
          (r, names) => ({ message: staffMessageView(r.message, names), ticket: staffTicketView(r.ticket, names) })
        )),
        admin
      ))
    .handle("note", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => SupportDesk.note(actor, path.id, payload.note)).pipe(Effect.flatMap(named((n) => [n.staffId], noteView)), admin))
    .handle("assign", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => SupportDesk.assign(actor, path.id, payload.staffId)).pipe(Effect.flatMap(ticketNamed), admin))
    .handle("resolve", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => SupportDesk.resolve(actor, path.id)).pipe(Effect.flatMap(ticketNamed), admin))
    .handle("close", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => SupportDesk.close(actor, path.id)).pipe(Effect.flatMap(ticketNamed), admin)))
