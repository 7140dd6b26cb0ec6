/**
 * Failures of support tickets.
 */
import { Data } from "effect"

/** No ticket of this customer has this id (404: another customer's ticket is "not found" too). */
export class TicketNotFound extends Data.TaggedError("TicketNotFound")<{}> {}
/** The ticket is closed: final, nobody replies or changes it any more (409). */
export class TicketClosed extends Data.TaggedError("TicketClosed")<{ readonly reference: string }> {}
/** The conversation already holds MAX_MESSAGES messages: no further reply, from either side (409). */
export class TicketConversationFull extends Data.TaggedError("TicketConversationFull")<{
  readonly reference: string
  readonly maxMessages: number
}> {}
/** The customer already has the most active (open or awaiting_customer) tickets allowed (409). */
export class TooManyOpenTickets extends Data.TaggedError("TooManyOpenTickets")<{ readonly maxActive: number }> {}
/** A subject, message body or note outside its bounds (400, naming the field). */
export class InvalidTicketField extends Data.TaggedError("InvalidTicketField")<{
  readonly field: "subject" | "message" | "note"
  readonly message: string
}> {}
/** The transactionId is not one of the customer's own transactions (400, naming transactionId). */
export class TicketTransactionNotFound extends Data.TaggedError("TicketTransactionNotFound")<{}> {}
/** The staff feature's own: an unknown staff member. */
export { StaffNotFound } from "../admin/StaffErrors.js"
