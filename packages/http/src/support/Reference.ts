/** The API reference of support: each operation's summary and description (shared/Reference.ts). */
import { Support } from "@app/domain"

export const reference = `
## support.list
List the customer's tickets

The customer's support tickets, newest activity (lastMessageAt) first.

## support.open
Open a support ticket

Opens a ticket (status open) with its first message. 400 when transactionId is not one of the customer's
own transactions; 409 TOO_MANY_OPEN_TICKETS at ${Support.MAX_ACTIVE_TICKETS} open or awaiting_customer tickets.

## support.get
Get a ticket and its conversation

The ticket and its conversation, oldest message first; internal notes are never included. 404 for an
unknown id or another customer's ticket.

## support.reply
Reply to a ticket

Adds the customer's reply; the ticket becomes open (a resolved ticket is reopened). 409 TICKET_CLOSED on
a closed ticket; 409 TICKET_CONVERSATION_FULL once the conversation holds ${Support.MAX_MESSAGES} messages.
`
