/** The API reference of adminOverview: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## adminOverview.overview
Get the dashboard metrics

The dashboard (overview:read). The window is the last \`days\` whole UTC days, today included: \`from\` and
\`to\` are its first and last dates, \`asOf\` the instant of the answer. Point in time: \`customers\` (every
customer row by \`customerStatus\` and by \`kycStatus\`, each status listed, 0 when none), \`pending\`
(transactions whose status is pending, any date: count and amountKobo) and \`activePlans\` (plans whose
state is active). Over the window: \`series\`, one entry per UTC day, oldest first, zeros included, and
\`totals\`, their sum. A day's figures: \`signUps\` (customers created that day); \`deposits\` (confirmed
deposits: count, amountKobo); \`moneyOut\` (confirmed outbound movements by purpose, \`manualTransfer\`,
\`disbursement\`, \`earlyWithdrawal\`: count, amountKobo sent to the destination, feeKobo charged on top);
\`disbursements\` (plan payouts: \`paid\` confirmed, \`failed\` failed; each failed attempt counts). A
movement counts on the UTC day it was created, with its status now. Amounts are decimal strings of kobo.
`
