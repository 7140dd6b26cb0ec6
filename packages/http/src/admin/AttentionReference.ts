/** The API reference of adminAttention: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## adminAttention.attention
Get what waits on staff

What waits on staff, each kind with its count and first 5 rows: open \`alerts\` (alerts:read); \`approvals\`
pending of the kinds the role may decide; \`movements\` (transactions:read) awaiting an operator (resolve
movement) first, then those pending past reconciliation's requery window (about 95 minutes), oldest
first; \`tickets\` waiting on staff (status open; support:read). A kind the role may not see is null.
Customers and staff are named beside their ids.
`
