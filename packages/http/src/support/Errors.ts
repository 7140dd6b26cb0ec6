/** The failures of the customer's support tickets, over HTTP. */
import type {
  InvalidTicketField,
  TicketClosed,
  TicketConversationFull,
  TicketNotFound,
  TicketTransactionNotFound,
  TooManyOpenTickets
} from "@app/domain"
import { type Catalogue, type ErrorTable, validationError } from "../shared/ErrorTable.js"

export type SupportError =
  | TicketNotFound
  | TicketClosed
  | TicketConversationFull
  | TooManyOpenTickets
  | InvalidTicketField
  | TicketTransactionNotFound

export const supportErrors = {
  InvalidTicketField: (e) => validationError({ [e.field]: [e.message] }),
  TicketTransactionNotFound: () => validationError({ transactionId: ["No transaction of yours has this id"] }),
  TicketNotFound: () => ({ status: 404, code: "TICKET_NOT_FOUND", message: "Ticket not found" }),
  TicketClosed: (e) => ({
    status: 409,
    code: "TICKET_CLOSED",
    message: "This ticket is closed; open a new ticket",
    detail: { reference: e.reference }
  }),
  TicketConversationFull: (e) => ({
    status: 409,
    code: "TICKET_CONVERSATION_FULL",
    message: `This ticket has reached its limit of ${e.maxMessages} messages; open a new ticket`,
    detail: { reference: e.reference, maxMessages: e.maxMessages }
  }),
  TooManyOpenTickets: (e) => ({
    status: 409,
    code: "TOO_MANY_OPEN_TICKETS",
    message: `You already have ${e.maxActive} open tickets; reply on one of them or wait until one is resolved`,
    detail: { maxActive: e.maxActive }
  })
} satisfies ErrorTable<SupportError>

/** The codes of supportErrors, with their meaning (published in the catalogue). */
export const supportCodes = {
  TICKET_NOT_FOUND: { status: 404, meaning: "No support ticket of the customer has this id" },
  TICKET_CLOSED: { status: 409, meaning: "The support ticket is closed (final); open a new one (`error.reference`)" },
  TICKET_CONVERSATION_FULL: {
    status: 409,
    meaning: "The ticket's conversation holds the most messages allowed (`error.maxMessages`); open a new ticket (`error.reference`)"
  },
  TOO_MANY_OPEN_TICKETS: {
    status: 409,
    meaning: "The customer already has the most open or awaiting_customer tickets allowed (`error.maxActive`)"
  }
} satisfies Catalogue<typeof supportErrors>
