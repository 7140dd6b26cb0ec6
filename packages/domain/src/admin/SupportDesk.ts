/**
 * The support desk of the back office: the staff use cases of support/StaffDesk.ts behind the
 * permission each needs.
 *
 * Every change appends its audit row in the SAME unit of work as the change: a change that fails
 * leaves no row, and a row that cannot be appended undoes the change (a reply's email is queued in
 * that unit of work too, see NotifierLive). The row has the ticket's state before and after
 * (`status`, `assignedStaffId`) plus the id of the message or note added, never its text. `before`
 * is the ticket as the change last read it: the desk's compare-and-set reads the ticket again when
 * it changed underneath, and the last read is the one the stored change was decided on.
 */
import { Effect, Option } from "effect"
import type { PageRequest } from "../shared/Paging.js"
import { atomically } from "../shared/UseCase.js"
import type { Ticket } from "../support/Model.js"
import { SupportRepo, type TicketFilter } from "../support/Ports.js"
import * as Desk from "../support/StaffDesk.js"
import * as Audit from "./Audit.js"
import { type Permission, requirePermission } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"
import { StaffId, TicketId } from "../shared/Ids.js"

/** What an audit row keeps of a ticket. */
export const ticketState = (t: Ticket) => ({ status: t.status, assignedStaffId: t.assignedStaffId })

const guarded = <A, E, R>(actor: StaffMember, permission: Permission, self: Effect.Effect<A, E, R>) =>
  Effect.zipRight(requirePermission(actor, permission), self)

/** Runs a desk action, keeping the last state of the ticket `ticketId` it read from SupportRepo. */
const watchingTicket = <A, E, R>(ticketId: TicketId, self: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const repo = yield* SupportRepo
    const seen: { ticket: Option.Option<Ticket> } = { ticket: Option.none() }
    const watched = SupportRepo.of({
      ...repo,
      findById: (id) =>
        Effect.tap(repo.findById(id), (found) => {
          if (id === ticketId && Option.isSome(found)) seen.ticket = found
        })
    })
    const result = yield* Effect.provideService(self, SupportRepo, watched)
    return { result, before: seen.ticket }
  })

/**
 * A desk change and its audit row, one unit of work. `after` gives the ticket after the change
 * (from the result, or the one read when the action does not change the ticket) and any ids to add.
 */
const audited = <A, E, R>(
  actor: StaffMember,
  permission: Permission,
  action: string,
  ticketId: TicketId,
  self: Effect.Effect<A, E, R>,
  after: (result: A, before: Option.Option<Ticket>) => { readonly ticket: Option.Option<Ticket>; readonly ids?: Record<string, string> }
) =>
  guarded(actor, permission, atomically(Effect.gen(function*() {
    const { before, result } = yield* watchingTicket(ticketId, self)
    const { ids, ticket } = after(result, before)
    yield* Audit.record({
      actorKind: "staff",
      actorId: actor.id,
      action,
      targetKind: "ticket",
      targetId: ticketId,
      before: Option.getOrNull(Option.map(before, ticketState)),
      after: { ...Option.getOrElse(Option.map(ticket, ticketState), () => ({})), ...ids }
    })
    return result
  })))

export const queue = (actor: StaffMember, filter: TicketFilter, page: PageRequest) =>
  guarded(actor, "support:read", Desk.queue(filter, page))

export const ticket = (actor: StaffMember, ticketId: TicketId) => guarded(actor, "support:read", Desk.ticketForStaff(ticketId))

export const reply = (actor: StaffMember, ticketId: TicketId, message: string) =>
  audited(actor, "support:reply", "ticket.reply", ticketId, Desk.replyAsStaff(actor.id, ticketId, message), (r) => ({
    ticket: Option.some(r.ticket),
    ids: { messageId: r.message.id }
  }))

/** A note changes nothing of the ticket: after is the state it had, with the note's id. */
export const note = (actor: StaffMember, ticketId: TicketId, text: string) =>
  audited(actor, "support:note", "ticket.note", ticketId, Desk.addNote(actor.id, ticketId, text), (n, before) => ({
    ticket: before,
    ids: { noteId: n.id }
  }))

export const assign = (actor: StaffMember, ticketId: TicketId, assigneeId: StaffId | null) =>
  audited(actor, "support:assign", "ticket.assign", ticketId, Desk.assign(ticketId, assigneeId), (t) => ({ ticket: Option.some(t) }))

export const resolve = (actor: StaffMember, ticketId: TicketId) =>
  audited(actor, "support:resolve", "ticket.resolve", ticketId, Desk.resolve(ticketId), (t) => ({ ticket: Option.some(t) }))

export const close = (actor: StaffMember, ticketId: TicketId) =>
  audited(actor, "support:resolve", "ticket.close", ticketId, Desk.close(ticketId), (t) => ({ ticket: Option.some(t) }))
