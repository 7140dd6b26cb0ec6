/**
 * Failures of support tickets.
 */
import { Failure, validation, ValidationKind } from "../shared/Failure.js"

/** No ticket of this customer has this id (404: another customer's ticket is "not found" too). */
export class TicketNotFound extends Failure("TicketNotFound", {
  status: 404,
  code: "TICKET_NOT_FOUND",
  message: "Ticket not found",
  meaning: "No support ticket of the customer has this id"
}) {}
/** The ticket is closed: final, nobody replies or changes it any more (409). */
export class TicketClosed extends Failure("TicketClosed", {
  status: 409,
  code: "TICKET_CLOSED",
  message: "This ticket is closed; open a new ticket",
  meaning: "The support ticket is closed (final); open a new one (`error.reference`)"
})<{ readonly reference: string }> {
  override answer() {
    return { ...super.answer(), detail: { reference: this.reference } }
  }
}
/** The conversation already holds MAX_MESSAGES messages: no further reply, from either side (409). */
export class TicketConversationFull extends Failure("TicketConversationFull", {
  status: 409,
  code: "TICKET_CONVERSATION_FULL",
  meaning: "The ticket's conversation holds the most messages allowed (`error.maxMessages`); open a new ticket (`error.reference`)"
})<{
  readonly reference: string
  readonly maxMessages: number
}> {
  override answer() {
    return {
      ...super.answer(),
      message: `This ticket has reached its limit of ${this.maxMessages} messages; open a new ticket`,
      detail: { reference: this.reference, maxMessages: this.maxMessages }
    }
  }
}
/** The customer already has the most active (open or awaiting_customer) tickets allowed (409). */
export class TooManyOpenTickets extends Failure("TooManyOpenTickets", {
  status: 409,
  code: "TOO_MANY_OPEN_TICKETS",
  meaning: "The customer already has the most open or awaiting_customer tickets allowed (`error.maxActive`)"
})<{ readonly maxActive: number }> {
  override answer() {
    return {
      ...super.answer(),
      message: `You already have ${this.maxActive} open tickets; reply on one of them or wait until one is resolved`,
      detail: { maxActive: this.maxActive }
    }
  }
}
/** A subject, message body or note outside its bounds (400, naming the field). */
export class InvalidTicketField extends Failure("InvalidTicketField", ValidationKind)<{
  readonly field: "subject" | "message" | "note"
  readonly message: string
}> {
  override answer() {
    return validation({ [this.field]: [this.message] })
  }
}
/** The transactionId is not one of the customer's own transactions (400, naming transactionId). */
export class TicketTransactionNotFound extends Failure("TicketTransactionNotFound", ValidationKind) {
  override answer() {
    return validation({ transactionId: ["No transaction of yours has this id"] })
  }
}
/** The staff feature's own: an unknown staff member. */
export { StaffNotFound } from "../admin/StaffErrors.js"
