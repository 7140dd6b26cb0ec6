/**
 * Support tickets: a customer's case, its conversation with staff, and staff's internal notes.
 *
 * Internal notes are their own record (`InternalNote`, their own table), never a kind of message:
 * nothing that reads a ticket's conversation can return one, and they touch neither `updatedAt`
 * nor `lastMessageAt`, so a customer cannot even tell when staff wrote one.
 */
import { Schema } from "effect"
import { CustomerId, StaffId, TicketId, TransactionId } from "../shared/Ids.js"

export const TICKET_CATEGORIES = ["general", "deposit", "disbursement", "transfer", "account", "kyc"] as const
export const TicketCategory = Schema.Literal(...TICKET_CATEGORIES)
export type TicketCategory = typeof TicketCategory.Type

/**
 * open: waiting for staff; awaiting_customer: staff replied; resolved: staff consider it solved (a
 * customer reply reopens it); closed: final, nobody replies any more.
 */
export const TICKET_STATUSES = ["open", "awaiting_customer", "resolved", "closed"] as const
export const TicketStatus = Schema.Literal(...TICKET_STATUSES)
export type TicketStatus = typeof TicketStatus.Type

/** The statuses that count as an active case (towards the customer's bound of active tickets). */
export const ACTIVE_STATUSES: ReadonlyArray<TicketStatus> = ["open", "awaiting_customer"]

export class Ticket extends Schema.Class<Ticket>("Ticket")({
  id: TicketId,
  /** the short human reference, `TKT-` and a number from a database sequence (TKT-10001, …); unique */
  reference: Schema.String,
  customerId: CustomerId,
  subject: Schema.String,
  category: TicketCategory,
  /** one of the customer's own transactions, when the case is about one */
  transactionId: Schema.NullOr(TransactionId),
  status: TicketStatus,
  assignedStaffId: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  /** the last change a customer can see: a message, a status or an assignment (never a note) */
  updatedAt: Schema.DateFromSelf,
  /** the last customer or staff message (never a note) */
  lastMessageAt: Schema.DateFromSelf
}) {}

export const MessageAuthor = Schema.Literal("customer", "staff")
export type MessageAuthor = typeof MessageAuthor.Type

/** A message of the conversation: the customer's or a staff member's reply, both seen by both. */
export class TicketMessage extends Schema.Class<TicketMessage>("TicketMessage")({
  id: Schema.String,
  ticketId: TicketId,
  authorKind: MessageAuthor,
  /** the customer's id or the staff member's id */
  authorId: Schema.String,
  body: Schema.String,
  createdAt: Schema.DateFromSelf
}) {}

/** A staff-only note on a ticket: never part of anything a customer reads. */
export class InternalNote extends Schema.Class<InternalNote>("InternalNote")({
  id: Schema.String,
  ticketId: TicketId,
  staffId: StaffId,
  body: Schema.String,
  createdAt: Schema.DateFromSelf
}) {}

/** What a customer sees of a ticket: it and its conversation, oldest message first. No notes. */
export interface CustomerTicket {
  readonly ticket: Ticket
  readonly messages: ReadonlyArray<TicketMessage>
}

/** What staff see of a ticket: the conversation and the internal notes, each oldest first. */
export interface StaffTicket {
  readonly ticket: Ticket
  readonly messages: ReadonlyArray<TicketMessage>
  readonly notes: ReadonlyArray<InternalNote>
}
