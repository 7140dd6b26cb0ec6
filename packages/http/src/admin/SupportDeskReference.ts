/** The API reference of adminSupport: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## adminSupport.queue
List the support queue

Tickets newest activity first, by status, category, assignee (a staff id or none) and customer
(support:read).

## adminSupport.ticket
Get a ticket with its internal notes

Staff (support:read). The ticket, its conversation with who wrote each message, and the internal notes
customers never see. 404 TICKET_NOT_FOUND.

## adminSupport.reply
Reply to a customer's ticket

A reply the customer sees (and is emailed); the ticket then awaits the customer. 409 on a closed ticket.

## adminSupport.note
Add an internal note to a ticket

An internal note: staff only; it changes nothing a customer can see, not even updatedAt.

## adminSupport.assign
Assign a ticket

Staff (support:assign). Assigns the ticket to a staff member (staffId), or unassigns it (null); audited.
404 TICKET_NOT_FOUND or STAFF_NOT_FOUND; 409 TICKET_CLOSED on a closed ticket.

## adminSupport.resolve
Resolve a ticket

Resolved: a customer reply reopens it.

## adminSupport.close
Close a ticket

Closed for good: replies are refused (409 TICKET_CLOSED).
`
