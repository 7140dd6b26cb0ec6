/**
 * The rules of support tickets as pure functions: which status an action leads to, and the bounds
 * of what customers and staff write.
 *
 * | action          | open              | awaiting_customer | resolved          | closed    |
 * |-----------------|-------------------|-------------------|-------------------|-----------|
 * | customer reply  | open              | open              | open (reopened)   | refused   |
 * | staff reply     | awaiting_customer | awaiting_customer | awaiting_customer | refused   |
 * | resolve         | resolved          | resolved          | unchanged         | refused   |
 * | close           | closed            | closed            | closed            | unchanged |
 * | assign          | (same status)     | (same status)     | (same status)     | refused   |
 *
 * Internal notes may be added in every status (closed included): they change nothing a customer sees.
 * A reply to a conversation already holding MAX_MESSAGES messages is refused whatever the status.
 */
import { Effect } from "effect"
import { InvalidTicketField } from "./Errors.js"
import type { TicketStatus } from "./Model.js"

export const SUBJECT_MIN = 3
export const SUBJECT_MAX = 120
export const BODY_MIN = 1
export const BODY_MAX = 5000
/** Tickets a customer may have open or awaiting_customer at once; a further one is refused. */
export const MAX_ACTIVE_TICKETS = 5

/**
 * Messages a ticket's conversation may hold, the first one included; the next reply (customer or
 * staff) is refused with TicketConversationFull. Internal notes do not count. A case that needs more
 * is a new ticket.
 */
export const MAX_MESSAGES = 200

export type TicketAction = "customer_reply" | "staff_reply" | "resolve" | "close" | "assign"

export type Decision =
  | { readonly _tag: "To"; readonly status: TicketStatus }
  /** nothing to do: resolving a resolved ticket, closing a closed one */
  | { readonly _tag: "Unchanged" }
  /** the ticket is closed */
  | { readonly _tag: "Refused" }

const to = (status: TicketStatus): Decision => ({ _tag: "To", status })
const unchanged: Decision = { _tag: "Unchanged" }
const refused: Decision = { _tag: "Refused" }

export const decide = (from: TicketStatus, action: TicketAction): Decision => {
  if (from === "closed") return action === "close" ? unchanged : refused
  switch (action) {
    case "customer_reply":
      return to("open")
    case "staff_reply":
      return to("awaiting_customer")
    case "resolve":
      return from === "resolved" ? unchanged : to("resolved")
    case "close":
      return to("closed")
    case "assign":
      return to(from)
  }
}

/** The text trimmed, if its length (in characters) is within [min, max]; else InvalidTicketField naming `field`. */
export const boundedText = (field: InvalidTicketField["field"], text: string, min: number, max: number) => {
  const trimmed = text.trim()
  // counted in code points, as the database's char_length counts them (an emoji is one)
  const length = [...trimmed].length
  if (length < min) {
    return Effect.fail(
      new InvalidTicketField({ field, message: min <= 1 ? "Must not be empty" : `Must be at least ${min} characters` })
    )
  }
  if (length > max) return Effect.fail(new InvalidTicketField({ field, message: `Must be at most ${max} characters` }))
  return Effect.succeed(trimmed)
}

export const validSubject = (subject: string) => boundedText("subject", subject, SUBJECT_MIN, SUBJECT_MAX)
export const validBody = (field: "message" | "note", body: string) => boundedText(field, body, BODY_MIN, BODY_MAX)
