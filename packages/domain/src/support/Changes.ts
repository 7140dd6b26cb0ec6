/**
 * How every change of a ticket is made: read it, decide by the rules, write with compare and set
 * (the status read must still be the status stored), and add the message, if any, in the same unit
 * of work. When someone else changed the ticket in between, it is read and decided again.
 *
 * A reply is refused (TicketConversationFull) once the conversation holds MAX_MESSAGES messages.
 * It is counted before anything is written, and again inside the unit of work after the
 * compare-and-set update: on SQL that update holds the ticket's row until commit, so concurrent
 * replies are counted one after the other and cannot pass the bound together (the refusal rolls
 * the update back).
 */
import { Effect, Option } from "effect"
import { Ids } from "../shared/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import { TicketClosed, TicketConversationFull } from "./Errors.js"
import { type MessageAuthor, type Ticket, TicketMessage } from "./Model.js"
import { SupportRepo } from "./Ports.js"
import { decide, MAX_MESSAGES, type TicketAction } from "./Rules.js"

/** The message that comes with a reply. */
export interface Reply {
  readonly authorKind: MessageAuthor
  readonly authorId: string
  readonly body: string
}

export interface Changed {
  readonly ticket: Ticket
  /** the message added, for replies */
  readonly message: TicketMessage | null
  /** false when the action changed nothing (resolving a resolved ticket, closing a closed one) */
  readonly changed: boolean
}

/** Attempts before giving up on a ticket that keeps changing under us (a defect: it should not happen). */
const ATTEMPTS = 5

export const changeTicket = <E, R>(
  load: Effect.Effect<Ticket, E, R>,
  action: TicketAction,
  options: { readonly reply?: Reply; readonly assignedStaffId?: string | null } = {}
) =>
  Effect.gen(function*() {
    const repo = yield* SupportRepo
    const ids = yield* Ids
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const ticket = yield* load
      const decision = decide(ticket.status, action)
      if (decision._tag === "Refused") return yield* new TicketClosed({ reference: ticket.reference })
      if (decision._tag === "Unchanged") return { ticket, message: null, changed: false } satisfies Changed
      const full = new TicketConversationFull({ reference: ticket.reference, maxMessages: MAX_MESSAGES })
      if (options.reply !== undefined && (yield* repo.countMessages(ticket.id)) >= MAX_MESSAGES) return yield* full
      const at = yield* now
      const message = options.reply === undefined ? null : new TicketMessage({
        id: yield* ids.next,
        ticketId: ticket.id,
        authorKind: options.reply.authorKind,
        authorId: options.reply.authorId,
        body: options.reply.body,
        createdAt: at
      })
      const done = yield* atomically(Effect.gen(function*() {
        const updated = yield* repo.update(ticket.id, ticket.status, {
          status: decision.status,
          updatedAt: at,
          ...(message === null ? {} : { lastMessageAt: at }),
          ...(options.assignedStaffId === undefined ? {} : { assignedStaffId: options.assignedStaffId })
        })
        if (Option.isNone(updated)) return Option.none<Changed>()
        if (message !== null) {
          if ((yield* repo.countMessages(ticket.id)) >= MAX_MESSAGES) return yield* full
          yield* repo.addMessage(message)
        }
        return Option.some<Changed>({ ticket: updated.value, message, changed: true })
      }))
      if (Option.isSome(done)) return done.value
    }
    return yield* Effect.dieMessage(`ticket kept changing during ${action}`)
  })

/** A reply (customer_reply or staff_reply, which always add their message): the ticket and the message. */
export const replyOn = <E, R>(load: Effect.Effect<Ticket, E, R>, action: "customer_reply" | "staff_reply", reply: Reply) =>
  Effect.flatMap(changeTicket(load, action, { reply }), (changed) =>
    changed.message === null
      ? Effect.dieMessage(`${action} added no message`)
      : Effect.succeed({ ticket: changed.ticket, message: changed.message }))
