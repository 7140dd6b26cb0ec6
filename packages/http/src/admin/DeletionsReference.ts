/** The API reference of adminDeletions: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## adminDeletions.list
List account deletions

Account deletions with what was tied to each customer, newest first; pending_review by default
(deletions:read).

## adminDeletions.review
Mark a deletion reviewed

Marks a deletion reviewed, with an optional note; once (409 after). Audited (deletions:review).
`
