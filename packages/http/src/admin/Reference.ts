/** The API reference of adminAuth, adminStaff: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## adminAuth.signIn
Sign in as staff

A bearer token for the admin endpoints, valid 8 hours (customer tokens are refused there, and this one
on customer endpoints). 5 failures for one email from one client, or 20 from one client, within 15
minutes: 429 with Retry-After until the oldest leaves the window.

## adminAuth.openLink
Open an invite or reset link

Who an emailed invite or reset link is for. 410 when it is unknown, expired or used.

## adminAuth.useLink
Set the password from a link and sign in

Sets the password (12 to 128 characters), spends the link and signs in.

## adminStaff.me
Get the signed-in staff member

The signed-in staff member, their role and its permissions.

## adminStaff.invite
Invite a staff member

Superadmin only: a new staff member (role admin unless given) is emailed a link (72 hours) to set a
password.

## adminStaff.sendLink
Send an invite or reset link again

A member without a password is emailed their invite again (the body may complete their name); one with a
password gets a reset link (1 hour). Only a superadmin sends links to a superadmin. The link goes to the
member's own email: an email in the body must be that one (400 otherwise; PATCH /admin/staff/{id}/email
changes it).

## adminStaff.signOut
Sign out of every staff session

Ends every session of the signed-in member: each of their staff tokens is refused from now on.

## adminStaff.changeEmail
Change a staff member's email

Superadmin only (staff:change_email): changes a member's email, voids their open invite and reset links
and ends their sessions; audited with the email before and after. No link is sent: send-link sends one
to the new address.

## adminStaff.listStaff
List staff members

Superadmin only (staff:read): every staff member, oldest first, with their role, status (invited,
active, disabled), last sign-in (null when not known) and pending invite (\`expired\` once its 72 hours
are over: send-link sends a new one).

## adminStaff.changeRole
Change a staff member's role

Superadmin only (staff:change_role): the member's role changes and every session of theirs ends at once
(they sign in again with the new role's permissions); audited with the role before and after. Nobody
changes their own role (403 OWN_STAFF_CHANGE), so an active superadmin always remains (two demoting each
other at once: the second is refused 401, their own token having ended). The same role changes nothing.

## adminStaff.deactivateStaff
Deactivate a staff member

Superadmin only (staff:deactivate): the member's status becomes disabled: every session of theirs ends
at once, their open invite and reset links stop working and they cannot sign in; audited with the status
before and after. Nobody deactivates themselves (403 OWN_STAFF_CHANGE), so an active superadmin always
remains. A member already disabled is answered as is.

## adminStaff.reactivateStaff
Reactivate a staff member

Superadmin only (staff:deactivate): a disabled member is active again with their password, or invited
when they never set one (no link is sent: send-link sends one); audited. A member not disabled is
answered as is.
`
