/** The API reference of adminOps: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## adminOps.listSettings
List app settings

Every app setting with its current value, default and meaning (settings:read).

## adminOps.updateSetting
Change an app setting

Superadmin only (settings:write). The value must fit the key's schema (kobo as integers or decimal
strings): an invalid one is a 400 naming \`value\` and the old value stays. Audited with before and after.
Under ADMIN_FOUR_EYES=true: 202 with the pending approval, applied when another superadmin approves it.

## adminOps.listAlerts
List open staff alerts

Open staff alerts (reversal refused, PIN freeze, failed deletion, retries exhausted…), newest first.

## adminOps.acknowledgeAlert
Acknowledge a staff alert

Marks an open alert dealt with by the signed-in member (alerts:ack); 404 when none is open with that id.
`
