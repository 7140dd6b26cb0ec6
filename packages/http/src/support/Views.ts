/**
 * What the customer's support endpoints answer. A customer view never carries an internal note
 * (the domain's customer use cases do not read them), nor which staff member a ticket is assigned
 * to or who wrote a staff reply: `authorKind` says whether the customer or support wrote it.
 */
import type { CustomerTicket, Page, Ticket, TicketMessage } from "@app/domain"
import { Schema } from "effect"
import { PageView, pageView } from "../shared/Paging.js"
import { TicketId, TransactionId } from "@app/domain"

export const TicketView = Schema.Struct({
  id: TicketId,
  reference: Schema.String.annotations({ description: "short human reference, e.g. TKT-10342" }),
  subject: Schema.String,
  category: Schema.String,
  transactionId: Schema.NullOr(TransactionId),
  status: Schema.String.annotations({ description: "open, awaiting_customer, resolved or closed" }),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  lastMessageAt: Schema.String
})

export const MessageView = Schema.Struct({
  id: Schema.String,
  authorKind: Schema.String.annotations({ description: "customer or staff" }),
  body: Schema.String,
  createdAt: Schema.String
})

/** A ticket and its conversation, oldest message first. */
export const TicketDetailView = Schema.Struct({ ...TicketView.fields, messages: Schema.Array(MessageView) })

export const TicketPageView = PageView(TicketView)

/** The reply just added, and the ticket as it now is. */
export const ReplyView = Schema.Struct({ message: MessageView, ticket: TicketView })

export const ticketView = (t: Ticket) => ({
  id: t.id,
  reference: t.reference,
  subject: t.subject,
  category: t.category,
  transactionId: t.transactionId,
  status: t.status,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
  lastMessageAt: t.lastMessageAt.toISOString()
})

export const messageView = (m: TicketMessage) => ({
  id: m.id,
  authorKind: m.authorKind,
  body: m.body,
  createdAt: m.createdAt.toISOString()
})

export const ticketDetailView = ({ messages, ticket }: CustomerTicket) => ({
  ...ticketView(ticket),
  messages: messages.map(messageView)
})

export const ticketPageView = (page: Page<Ticket>) => pageView(page, ticketView)

export const replyView = (r: { readonly ticket: Ticket; readonly message: TicketMessage }) => ({
  message: messageView(r.message),
  ticket: ticketView(r.ticket)
})
