/** What the admin access endpoints answer: a staff member (never a hash), a session, a link. */
import { LinkPurpose, Permission, StaffAccess, StaffMember } from "@app/domain"
import { Schema, Struct } from "effect"

/** A member as the domain keeps them, less the password hash, the token version and the last update; the date as ISO text. */
export const StaffView = Schema.Struct({
  ...Struct.pick(StaffMember.fields, "id", "email", "firstName", "lastName", "role", "status"),
  createdAt: Schema.String
})

export const staffView = (m: StaffAccess.PublicStaff) => ({ ...m, createdAt: m.createdAt.toISOString() })

export const SessionView = Schema.Struct({ token: Schema.String, expiresAt: Schema.String, admin: StaffView })

export const sessionView = (s: StaffAccess.SignedIn) => ({ token: s.token, expiresAt: s.expiresAt.toISOString(), admin: staffView(s.admin) })

export const MeView = Schema.Struct({ ...StaffView.fields, permissions: Schema.Array(Permission) })

export const LinkView = Schema.Struct({
  purpose: LinkPurpose,
  email: Schema.String,
  firstName: Schema.NullOr(Schema.String),
  expiresAt: Schema.String
})

export const SentLinkView = Schema.Struct({ purpose: LinkPurpose, admin: StaffView })

export const StaffEntryView = Schema.Struct({
  ...StaffView.fields,
  lastSignInAt: Schema.NullOr(Schema.String),
  pendingInvite: Schema.NullOr(Schema.Struct({ sentAt: Schema.String, expiresAt: Schema.String, expired: Schema.Boolean }))
})

export const staffEntryView = (e: StaffAccess.StaffEntry) => ({
  ...staffView(e),
  lastSignInAt: e.lastSignInAt?.toISOString() ?? null,
  pendingInvite: e.pendingInvite === null
    ? null
    : { sentAt: e.pendingInvite.sentAt.toISOString(), expiresAt: e.pendingInvite.expiresAt.toISOString(), expired: e.pendingInvite.expired }
})
