/**
 * The HTTP contract of the support desk (admin bearer): the queue with its filters, a ticket with
 * its internal notes (kept apart from the conversation), reply (emails the customer), note, assign,
 * resolve and close. Staff views name who wrote each message; customer views never do.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { CustomerId, StaffId, Support, TicketStatus, type InternalNote, type StaffTicket, type Ticket, type TicketMessage, TicketId } from "@app/domain"
import { Schema } from "effect"
import { failuresOf, success } from "../shared/Envelope.js"
import { pageFields, PageView } from "../shared/Paging.js"
import { Body, msg, Uuid, UuidOf } from "../shared/Schemas.js"
import { StaffAuthentication } from "../shared/Security.js"
import { Category, MessageBody, Text } from "../support/Api.js"
import { ticketView, TicketView } from "../support/Views.js"

const TicketIdParam = HttpApiSchema.param("id", UuidOf(TicketId))
const Status = TicketStatus.annotations(msg("status must be open, awaiting_customer, resolved or closed"))
const NoteBody = Text(Support.BODY_MIN, Support.BODY_MAX, "the internal note")

export const StaffTicketView = Schema.Struct({
  ...TicketView.fields,
  customerId: CustomerId,
  assignedStaffId: Schema.NullOr(Schema.String)
})

const StaffMessageView = Schema.Struct({ id: Schema.String, authorKind: Schema.String, authorId: Schema.String, body: Schema.String, createdAt: Schema.String })
const NoteView = Schema.Struct({ id: Schema.String, staffId: StaffId, body: Schema.String, createdAt: Schema.String })

export const StaffTicketDetailView = Schema.Struct({
  ticket: StaffTicketView,
  messages: Schema.Array(StaffMessageView),
  notes: Schema.Array(NoteView).annotations({ description: "internal notes: staff only, never shown to the customer" })
})

export const staffTicketView = (t: Ticket) => ({ ...ticketView(t), customerId: t.customerId, assignedStaffId: t.assignedStaffId })
const staffMessageView = (m: TicketMessage) => ({ id: m.id, authorKind: m.authorKind, authorId: m.authorId, body: m.body, createdAt: m.createdAt.toISOString() })
export const noteView = (n: InternalNote) => ({ id: n.id, staffId: n.staffId, body: n.body, createdAt: n.createdAt.toISOString() })
export const staffTicketDetailView = (d: StaffTicket) => ({
  ticket: staffTicketView(d.ticket),
  messages: d.messages.map(staffMessageView),
  notes: d.notes.map(noteView)
})

const QueueQuery = Body({
  status: Schema.optionalWith(Status, { exact: true }),
  category: Schema.optionalWith(Category, { exact: true }),
  assignee: Schema.optionalWith(
    Schema.Union(Uuid, Schema.Literal("none")).annotations({ description: "a staff id, or none for unassigned tickets" }),
    { exact: true }
  ),
  customerId: Schema.optionalWith(UuidOf(CustomerId), { exact: true }),
  ...pageFields
})

export class AdminSupportApi extends HttpApiGroup.make("adminSupport")
  .add(
    HttpApiEndpoint.get("queue", "/tickets")
      .setUrlParams(QueueQuery)
      .addSuccess(success("Admin", PageView(StaffTicketView)))
      .addError(failuresOf(400, 401, 403))
      .annotate(OpenApi.Description, "Tickets newest activity first, by status, category, assignee (a staff id or none) and customer (support:read).")
  )
  .add(
    HttpApiEndpoint.get("ticket")`/tickets/${TicketIdParam}`
      .addSuccess(success("Admin", StaffTicketDetailView))
      .addError(failuresOf(400, 401, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("reply")`/tickets/${TicketIdParam}/messages`
      .setPayload(Body({ message: MessageBody }))
      .addSuccess(success("Admin", Schema.Struct({ message: StaffMessageView, ticket: StaffTicketView }), { status: 201, message: "Reply sent." }))
      .addError(failuresOf(400, 401, 403, 404, 409))
      .annotate(OpenApi.Description, "A reply the customer sees (and is emailed); the ticket then awaits the customer. 409 on a closed ticket.")
  )
  .add(
    HttpApiEndpoint.post("note")`/tickets/${TicketIdParam}/notes`
      .setPayload(Body({ note: NoteBody }))
      .addSuccess(success("Admin", NoteView, { status: 201, message: "Note added." }))
      .addError(failuresOf(400, 401, 403, 404))
      .annotate(OpenApi.Description, "An internal note: staff only; it changes nothing a customer can see, not even updatedAt.")
  )
  .add(
    HttpApiEndpoint.post("assign")`/tickets/${TicketIdParam}/assign`
      .setPayload(Body({ staffId: Schema.NullOr(UuidOf(StaffId)).annotations({ description: "the assignee, or null to unassign" }) }))
      .addSuccess(success("Admin", StaffTicketView, { message: "Ticket assigned." }))
      .addError(failuresOf(400, 401, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.post("resolve")`/tickets/${TicketIdParam}/resolve`
      .addSuccess(success("Admin", StaffTicketView, { message: "Ticket resolved." }))
      .addError(failuresOf(400, 401, 403, 404, 409))
      .annotate(OpenApi.Description, "Resolved: a customer reply reopens it.")
  )
  .add(
    HttpApiEndpoint.post("close")`/tickets/${TicketIdParam}/close`
      .addSuccess(success("Admin", StaffTicketView, { message: "Ticket closed." }))
      .addError(failuresOf(400, 401, 403, 404, 409))
      .annotate(OpenApi.Description, "Closed for good: replies are refused (409 TICKET_CLOSED).")
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin/support")
  .annotate(OpenApi.Title, "Admin support desk")
{}
