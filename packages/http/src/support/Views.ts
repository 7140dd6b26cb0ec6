/**
 * What the customer's support endpoints answer. A customer view never carries an internal note
 * (the domain's customer use cases do not read them), nor which staff member a ticket is assigned
 * to or who wrote a staff reply: `authorKind` says whether the customer or support wrote it.
 */
import type { CustomerTicket, Page, Ticket, TicketMessage } from "@app/domain"
import { Schema } from "effect"
import { PageView, pageView } from "../shared/Paging.js"
import { TicketId, TransactionId } from "@app/domain"
import * as Ex from "../shared/Examples.js"

/** A customer's ticket about a deposit, and its first message. */
const ticketExample = {
  id: "e1f3a5c7-9b0d-4e2f-8a4c-6e8a0c2e4f61" as TicketId,
  reference: "TKT-10342",
  subject: "Deposit not showing in my wallet",
  category: "deposit",
  transactionId: Ex.TRANSACTION_ID,
  status: "open",
  createdAt: "2026-11-20T10:31:07.000Z",
  updatedAt: "2026-11-20T10:31:07.000Z",
  lastMessageAt: "2026-11-20T10:31:07.000Z"
} as const
const messageExample = {
  id: "f2a4c6e8-0b1d-4f3a-9c5e-7a9c1e3a5c72",
  authorKind: "customer",
  body: "I sent ₦50,000 from my GTBank account on 20 November 2026 at 10:14 but my balance has not changed.",
  createdAt: "2026-11-20T10:31:07.000Z"
} as const

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
}).annotations({ examples: [ticketExample] })

export const MessageView = Schema.Struct({
  id: Schema.String,
  authorKind: Schema.String.annotations({ description: "customer or staff" }),
  body: Schema.String,
  createdAt: Schema.String
}).annotations({ examples: [messageExample] })

/** A ticket and its conversation, oldest message first. */
export const TicketDetailView = Schema.Struct({ ...TicketView.fields, messages: Schema.Array(MessageView) })
  .annotations({ examples: [{ ...ticketExample, messages: [messageExample] }] })

export const TicketPageView = PageView(TicketView)

/** The reply just added, and the ticket as it now is. */
export const ReplyView = Schema.Struct({ message: MessageView, ticket: TicketView }).annotations({
  examples: [{
    message: { ...messageExample, id: "a3b5c7d9-1e2f-4a6b-8c0d-2e4f6a8c0e13", createdAt: "2026-11-20T11:05:48.000Z" },
    ticket: { ...ticketExample, updatedAt: "2026-11-20T11:05:48.000Z", lastMessageAt: "2026-11-20T11:05:48.000Z" }
  }]
})

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
