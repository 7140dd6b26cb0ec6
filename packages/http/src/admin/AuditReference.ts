/** The API reference of adminAudit: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## adminAudit.list
Search the audit log

The audit log, newest first, filtered by actor, action, target and day (audit:read).

## adminAudit.verify
Verify the audit log's hash chain

Walks the hash chain from the first row (audit:verify): ok with the row count and last hash, or the
first row (brokenAt) whose content or link does not match.
`
