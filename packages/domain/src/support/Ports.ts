/**
 * Where tickets, their messages and their internal notes are kept, and who the staff are.
 */
import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../shared/Paging.js"
import type { InternalNote, Ticket, TicketCategory, TicketMessage, TicketStatus } from "./Model.js"
import { CustomerId, StaffId, TicketId } from "../shared/Ids.js"

/** A ticket before it is stored: the repository gives it its reference. */
export type NewTicket = Omit<Ticket, "reference">

/** What staff filter the queue by; an absent field does not filter. */
export interface TicketFilter {
  readonly status?: TicketStatus | undefined
  readonly category?: TicketCategory | undefined
  /** a staff id, or null for the unassigned tickets */
  readonly assignedStaffId?: string | null | undefined
  readonly customerId?: CustomerId | undefined
}

/** A change of a ticket's state; `lastMessageAt` only when a message comes with it. */
export interface TicketPatch {
  readonly status?: TicketStatus
  readonly assignedStaffId?: string | null
  readonly updatedAt: Date
  readonly lastMessageAt?: Date
}

export class SupportRepo extends Context.Tag("domain/SupportRepo")<SupportRepo, {
  /**
   * Stores the ticket (with the next reference of the sequence) and its first message, unless the
   * customer already has `maxActive` tickets open or awaiting_customer: then none and nothing is
   * stored. The count and the insert are one step per customer (concurrent opens cannot both pass).
   */
  readonly open: (ticket: NewTicket, first: TicketMessage, maxActive: number) => Effect.Effect<Option.Option<Ticket>>
  readonly findById: (id: string) => Effect.Effect<Option.Option<Ticket>>
  /** The customer's tickets, newest activity first (lastMessageAt, then newest reference). */
  readonly listForCustomer: (customerId: CustomerId, page: PageRequest) => Effect.Effect<Page<Ticket>>
  /** Every ticket matching the filter, newest activity first. */
  readonly list: (filter: TicketFilter, page: PageRequest) => Effect.Effect<Page<Ticket>>
  /**
   * Applies the patch only if the ticket is still in status `from` (compare and set); none when it
   * is not (someone changed it meanwhile) or does not exist.
   */
  readonly update: (id: string, from: TicketStatus, patch: TicketPatch) => Effect.Effect<Option.Option<Ticket>>
  readonly addMessage: (message: TicketMessage) => Effect.Effect<void>
  /**
   * How many messages the conversation holds. Inside a unit of work after `update` of the same
   * ticket, the count sees every reply committed before it (the update holds the ticket's row).
   */
  readonly countMessages: (ticketId: TicketId) => Effect.Effect<number>
  /** The conversation, oldest first (in the order the messages were added). */
  readonly messages: (ticketId: TicketId) => Effect.Effect<ReadonlyArray<TicketMessage>>
  readonly addNote: (note: InternalNote) => Effect.Effect<void>
  /** The internal notes, oldest first. Only staff use cases read them. */
  readonly notes: (ticketId: TicketId) => Effect.Effect<ReadonlyArray<InternalNote>>
}>() {}

/** Whether a staff member exists (the `staff` table), for assignment and for staff acting on tickets. */
export class SupportStaff extends Context.Tag("domain/SupportStaff")<SupportStaff, {
  readonly exists: (staffId: StaffId) => Effect.Effect<boolean>
}>() {}
