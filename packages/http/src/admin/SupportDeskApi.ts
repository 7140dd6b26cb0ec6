/**
 * The HTTP contract of the support desk (admin bearer): the queue with its filters, a ticket with
 * its internal notes (kept apart from the conversation), reply (emails the customer), note, assign,
 * resolve and close. Staff views name who wrote each message; customer views never do.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  CustomerId, type InternalNote, PermissionDenied, StaffId, StaffNotFound, type StaffTicket, Support, type Ticket,
  TicketId, type TicketMessage, TicketNotFound, TicketStatus
} from "@app/domain"
import { Schema } from "effect"
import { errors, success } from "../shared/Envelope.js"
import * as Ex from "../shared/Examples.js"
import { pageFields, PageView } from "../shared/Paging.js"
import { Body, msg, Uuid, UuidOf } from "../shared/Schemas.js"
import { StaffAuthentication } from "../shared/Security.js"
import { Category, MessageBody, Text, TicketChangeFailures } from "../support/Api.js"
import { ticketView, TicketView } from "../support/Views.js"
import { nameOf, type Names } from "./Names.js"
import * as AdminEx from "./Examples.js"

const TicketIdParam = HttpApiSchema.param("id", UuidOf(TicketId))
const Status = TicketStatus.annotations({ ...msg("status must be open, awaiting_customer, resolved or closed"), examples: ["open"] })
const NoteBody = Text(Support.BODY_MIN, Support.BODY_MAX, "the internal note")

export const StaffTicketView = Schema.Struct({
  ...TicketView.fields,
  customerId: CustomerId,
  /** the customer's name, their email while they have none */
  customerName: Schema.NullOr(Schema.String),
  assignedStaffId: Schema.NullOr(Schema.String),
  assignedStaffName: Schema.NullOr(Schema.String)
}).annotations({ examples: [AdminEx.staffTicket] })

const StaffMessageView = Schema.Struct({
  id: Schema.String,
  authorKind: Schema.String,
  authorId: Schema.String,
  authorName: Schema.NullOr(Schema.String),
  body: Schema.String,
  createdAt: Schema.String
}).annotations({ examples: [AdminEx.staffLine] })
const NoteView = Schema.Struct({ id: Schema.String, staffId: StaffId, staffName: Schema.NullOr(Schema.String), body: Schema.String, createdAt: Schema.String })
  .annotations({ examples: [AdminEx.note] })

export const StaffTicketDetailView = Schema.Struct({
  ticket: StaffTicketView,
  messages: Schema.Array(StaffMessageView),
  notes: Schema.Array(NoteView).annotations({ description: "internal notes: staff only, never shown to the customer" })
}).annotations({ examples: [AdminEx.ticketDetail] })

/** The ids whose names a ticket's view shows. */
export const ticketIds = (t: Ticket) => [t.customerId, t.assignedStaffId]
export const staffTicketView = (t: Ticket, names: Names) => ({
  ...ticketView(t),
  customerId: t.customerId,
  customerName: nameOf(names, t.customerId),
  assignedStaffId: t.assignedStaffId,
  assignedStaffName: nameOf(names, t.assignedStaffId)
})
export const staffMessageView = (m: TicketMessage, names: Names) => ({
  id: m.id,
  authorKind: m.authorKind,
  authorId: m.authorId,
  authorName: nameOf(names, m.authorId),
  body: m.body,
  createdAt: m.createdAt.toISOString()
})
export const noteView = (n: InternalNote, names: Names) => ({
  id: n.id,
  staffId: n.staffId,
  staffName: nameOf(names, n.staffId),
  body: n.body,
  createdAt: n.createdAt.toISOString()
})
export const staffTicketDetailIds = (d: StaffTicket) => [...ticketIds(d.ticket), ...d.messages.map((m) => m.authorId), ...d.notes.map((n) => n.staffId)]
export const staffTicketDetailView = (d: StaffTicket, names: Names) => ({
  ticket: staffTicketView(d.ticket, names),
  messages: d.messages.map((m) => staffMessageView(m, names)),
  notes: d.notes.map((n) => noteView(n, names))
})

const QueueQuery = Body({
  status: Schema.optionalWith(Status, { exact: true }),
  category: Schema.optionalWith(Category.annotations({ examples: ["deposit"] }), { exact: true }),
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
  )
  .add(
    HttpApiEndpoint.get("ticket")`/tickets/${TicketIdParam}`
      .addSuccess(success("Admin", StaffTicketDetailView))
      .addError(errors(TicketNotFound))
  )
  .add(
    HttpApiEndpoint.post("reply")`/tickets/${TicketIdParam}/messages`
      .setPayload(Body({ message: MessageBody }).annotations({
        examples: [{ message: "Thank you, Chiamaka. Your ₦50,000 deposit was confirmed at 11:02 and your balance is now up to date." }]
      }))
      .addSuccess(success("Admin", Schema.Struct({ message: StaffMessageView, ticket: StaffTicketView }).annotations({ examples: [AdminEx.staffReply] }), { status: 201, message: "Reply sent." }))
      .addError(errors(StaffNotFound, ...TicketChangeFailures))
  )
  .add(
    HttpApiEndpoint.post("note")`/tickets/${TicketIdParam}/notes`
      .setPayload(Body({ note: NoteBody }).annotations({
        examples: [{ note: "Provider confirmed the credit late (their queue was delayed 20 Nov 2026); no action needed." }]
      }))
      .addSuccess(success("Admin", NoteView, { status: 201, message: "Note added." }))
      .addError(errors(StaffNotFound, TicketNotFound))
  )
  .add(
    HttpApiEndpoint.post("assign")`/tickets/${TicketIdParam}/assign`
      .setPayload(
        Body({ staffId: Schema.NullOr(UuidOf(StaffId)).annotations({ description: "the assignee, or null to unassign" }) })
          .annotations({ examples: [{ staffId: Ex.STAFF_ID }, { staffId: null }] })
      )
      .addSuccess(success("Admin", StaffTicketView, { message: "Ticket assigned." }))
      .addError(errors(StaffNotFound, ...TicketChangeFailures))
  )
  .add(
    HttpApiEndpoint.post("resolve")`/tickets/${TicketIdParam}/resolve`
      .addSuccess(success("Admin", StaffTicketView, { message: "Ticket resolved." }))
      .addError(errors(...TicketChangeFailures))
  )
  .add(
    HttpApiEndpoint.post("close")`/tickets/${TicketIdParam}/close`
      .addSuccess(success("Admin", StaffTicketView, { message: "Ticket closed." }))
      .addError(errors(...TicketChangeFailures))
  )
  // every endpoint here checks a permission of the member's role
  .addError(errors(PermissionDenied))
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin/support")
  .annotate(OpenApi.Title, "Admin support desk")
{}
