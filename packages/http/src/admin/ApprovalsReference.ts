/** The API reference of adminApprovals: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## adminApprovals.list
List four-eyes requests

Four-eyes requests (settings changes, unfreezes, movement resolutions) newest first, optionally of one
status; a member sees the kinds their role may decide (settings:write, customers:unfreeze,
transactions:resolve).

## adminApprovals.approve
Approve a four-eyes request

A second member holding the action's permission approves: the change is applied under their name (the
audit names both) and \`result\` is what the direct call would have answered. The requester gets 403
OWN_APPROVAL; a decided request 409. If the action fails (e.g. the customer was unfrozen meanwhile) the
request stays pending.

## adminApprovals.reject
Reject a four-eyes request

A second member rejects the request, with an optional note; nothing is applied.
`
