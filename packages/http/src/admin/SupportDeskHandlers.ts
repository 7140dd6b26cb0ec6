import { HttpApiBuilder } from "@effect/platform"
import { StaffAccess } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { pageView } from "../shared/Paging.js"
import { CurrentStaff } from "../shared/Security.js"
import { noteView, staffTicketDetailView, staffTicketView } from "./SupportDeskApi.js"

const admin = mapDomainErrors("Admin")
const { SupportDesk } = StaffAccess

export const AdminSupportHandlers = HttpApiBuilder.group(Api, "adminSupport", (handlers) =>
  handlers
    .handle("queue", ({ urlParams: { assignee, category, customerId, page, pageSize, status } }) =>
      Effect.flatMap(CurrentStaff, (actor) =>
        SupportDesk.queue(actor, {
          status,
          category,
          customerId,
          ...(assignee === undefined ? {} : { assignedStaffId: assignee === "none" ? null : assignee })
        }, { page, pageSize })).pipe(Effect.map((p) => pageView(p, staffTicketView)), admin))
    .handle("ticket", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => SupportDesk.ticket(actor, path.id)).pipe(Effect.map(staffTicketDetailView), admin))
    .handle("reply", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => SupportDesk.reply(actor, path.id, payload.message)).pipe(
        Effect.map((r) => ({
          message: { ...r.message, createdAt: r.message.createdAt.toISOString() },
          ticket: staffTicketView(r.ticket)
        })),
        admin
      ))
    .handle("note", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => SupportDesk.note(actor, path.id, payload.note)).pipe(Effect.map(noteView), admin))
    .handle("assign", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => SupportDesk.assign(actor, path.id, payload.staffId)).pipe(Effect.map(staffTicketView), admin))
    .handle("resolve", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => SupportDesk.resolve(actor, path.id)).pipe(Effect.map(staffTicketView), admin))
    .handle("close", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => SupportDesk.close(actor, path.id)).pipe(Effect.map(staffTicketView), admin)))
