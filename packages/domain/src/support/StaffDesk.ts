/**
 * The staff side of support, for the back office: the queue with its filters, a ticket with its
 * internal notes, replies (which email the customer), notes, assignment, resolving and closing.
 * Who may call which is the back office's concern (roles); here, every staff id that acts or is
 * assigned must be a staff member.
 */
import { Effect, Option } from "effect"
import { AccountRepo } from "../account/Ports.js"
import { Notifier } from "../notifications/Ports.js"
import { Ids } from "../shared/Ports.js"
import type { PageRequest } from "../shared/Paging.js"
import { now } from "../shared/UseCase.js"
import { changeTicket, replyOn } from "./Changes.js"
import { StaffNotFound, TicketNotFound } from "./Errors.js"
import { InternalNote, type StaffTicket, type Ticket, type TicketMessage } from "./Model.js"
import { SupportRepo, SupportStaff, type TicketFilter } from "./Ports.js"
import { validBody } from "./Rules.js"
import { withSpan } from "../shared/Spans.js"
import { StaffId, TicketId } from "../shared/Ids.js"

/** The kind of the email a staff reply sends the customer (an essential message: see sendReplyEmail). */
export const SUPPORT_REPLY_KIND = "support_reply"

const anyTicket = (ticketId: TicketId) =>
  Effect.flatMap(SupportRepo, (repo) => repo.findById(ticketId)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.fail(new TicketNotFound()), onSome: Effect.succeed }))
  )

const requireStaff = (staffId: StaffId) =>
  Effect.flatMap(SupportStaff, (staff) => staff.exists(staffId)).pipe(
    Effect.flatMap((exists) => exists ? Effect.void : Effect.fail(new StaffNotFound({ staffId })))
  )

/** The queue: tickets matching the filter, newest activity first. */
export const queue = (filter: TicketFilter, page: PageRequest) =>
  Effect.flatMap(SupportRepo, (repo) => repo.list(filter, page)).pipe(withSpan("Support.queue"))

/** A ticket with its conversation and its internal notes, each oldest first. */
export const ticketForStaff = (ticketId: TicketId) =>
  Effect.gen(function*() {
    const ticket = yield* anyTicket(ticketId)
    const repo = yield* SupportRepo
    return { ticket, messages: yield* repo.messages(ticket.id), notes: yield* repo.notes(ticket.id) } satisfies StaffTicket
  }).pipe(withSpan("Support.ticketForStaff"))

/**
 * Emails the customer that staff replied, with the reply. It is a statement about the customer's
 * own case, so it is sent whatever their optional-mail settings say (like notices about their
 * money). Skipped for a deleted customer or one without an email; a delivery problem is logged and
 * never undoes the reply, which is already stored.
 */
const sendReplyEmail = (ticket: Ticket, message: TicketMessage) =>
  Effect.gen(function*() {
    const found = yield* (yield* AccountRepo).findByCustomerId(ticket.customerId)
    if (Option.isNone(found)) return
    const { account, customer } = found.value
    if (customer.customerStatus === "deleted" || account.email === "") return
    yield* (yield* Notifier).send({
      channel: "email",
      to: account.email,
      subject: `Re: [${ticket.reference}] ${ticket.subject}`,
      text: `Our support team replied to your ticket ${ticket.reference} (${ticket.subject}):\n\n${message.body}\n\n` +
        "You can read the conversation and reply in the app.",
      kind: SUPPORT_REPLY_KIND
    })
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.logWarning("support reply email not sent").pipe(Effect.annotateLogs({ ticketId: ticket.id, cause: String(cause) }))
    )
  )

/** A staff reply: the ticket awaits the customer, who is emailed the reply. Closed: TicketClosed. */
export const replyAsStaff = (staffId: StaffId, ticketId: TicketId, message: string) =>
  Effect.gen(function*() {
    const body = yield* validBody("message", message)
    yield* requireStaff(staffId)
    const replied = yield* replyOn(anyTicket(ticketId), "staff_reply", { authorKind: "staff", authorId: staffId, body })
    yield* sendReplyEmail(replied.ticket, replied.message)
    return replied
  }).pipe(withSpan("Support.replyAsStaff"))

/**
 * An internal note, in any status (closed included). It changes nothing of the ticket: neither its
 * status nor updatedAt nor lastMessageAt, so a customer cannot tell one was written.
 */
export const addNote = (staffId: StaffId, ticketId: TicketId, note: string) =>
  Effect.gen(function*() {
    const body = yield* validBody("note", note)
    yield* requireStaff(staffId)
    const ticket = yield* anyTicket(ticketId)
    const added = new InternalNote({ id: yield* (yield* Ids).next, ticketId: ticket.id, staffId, body, createdAt: yield* now })
    yield* (yield* SupportRepo).addNote(added)
    return added
  }).pipe(withSpan("Support.addNote"))

/** Assigns the ticket to a staff member (StaffNotFound for an unknown id), or unassigns it (null). Closed: TicketClosed. */
export const assign = (ticketId: TicketId, assigneeId: StaffId | null) =>
  Effect.gen(function*() {
    if (assigneeId !== null) yield* requireStaff(assigneeId)
    return (yield* changeTicket(anyTicket(ticketId), "assign", { assignedStaffId: assigneeId })).ticket
  }).pipe(withSpan("Support.assign"))

/** Resolved; resolving a resolved ticket changes nothing. Closed: TicketClosed. */
export const resolve = (ticketId: TicketId) =>
  Effect.map(changeTicket(anyTicket(ticketId), "resolve"), (c) => c.ticket).pipe(withSpan("Support.resolve"))

/** Closed, for good; closing a closed ticket changes nothing. */
export const close = (ticketId: TicketId) =>
  Effect.map(changeTicket(anyTicket(ticketId), "close"), (c) => c.ticket).pipe(withSpan("Support.close"))
