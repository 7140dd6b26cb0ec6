/** The API reference of transactions: each operation's summary and description (shared/Reference.ts). */
import { PAGE_DEFAULT, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "../shared/Paging.js"

export const reference = `
## transactions.list
List the customer's transactions

The customer's transactions, newest first. page ≥ 1 (default ${PAGE_DEFAULT}); pageSize 1 to ${PAGE_SIZE_MAX} (default ${PAGE_SIZE_DEFAULT}; ${PAGE_SIZE_MAX} is
the maximum). A page past the end has no items. 400 'No bank account found' before the bank account
exists.

## transactions.report
Report inbound and outbound totals

Inbound (confirmed credits) and outbound (confirmed debits and transfers, with their fees) totals
between two dates, both inclusive, in UTC. format=csv returns the window's rows and the totals as a CSV
attachment.

## transactions.get
Get one transaction

One transaction of the customer; 404 for an unknown id or another customer's.
`
