/** The API reference of spendings: each operation's summary and description (shared/Reference.ts). */
import { Spendings } from "@app/domain"

export const reference = `
## spendings.add
Log a spending

Customer (bearer). Logs amountKobo (a JSON integer), a category (trimmed and lower-cased), the day (not
after today) and an optional description; 201 with the spending.

## spendings.list
List spendings

The customer's spendings, newest date first; filtered by category (normalised) and dates.

## spendings.report
Report spendings by category and day

Totals, the breakdown by category (shares summing to exactly 100.00) and the daily series of a window of
at most ${Spendings.Rules.MAX_REPORT_DAYS} days. format=csv returns it as a CSV attachment.

## spendings.emailReport
Email a month's spending report

Emails the month's report (text, HTML and the CSV attached) to the registered email, and only there: the
request names no recipient (any other field is ignored).

## spendings.update
Change a spending

Customer (bearer). Changes any of amountKobo, category, description (null clears it) and date of one of
the customer's spendings. 404 SPENDING_NOT_FOUND for an unknown id or another customer's.

## spendings.remove
Remove a spending

Customer (bearer). Removes one of the customer's spendings and answers it as it was. 404
SPENDING_NOT_FOUND for an unknown id or another customer's.
`
