/** What the admin access endpoints answer: a staff member (never a hash), a session, a link. */
import { LinkPurpose, Permission, StaffAccess, StaffMember } from "@app/domain"
import { Schema, Struct } from "effect"
import * as Ex from "../shared/Examples.js"

/** The staff member of the examples: a support agent. */
const staffExample = {
  id: Ex.STAFF_ID,
  email: Ex.STAFF_EMAIL,
  firstName: "Tunde",
  lastName: "Bakare",
  role: "support",
  status: "active",
  createdAt: "2026-02-03T10:12:44.000Z"
} as const

/** A member as the domain keeps them, less the password hash, the token version and the last update; the date as ISO text. */
export const StaffView = Schema.Struct({
  ...Struct.pick(StaffMember.fields, "id", "email", "firstName", "lastName", "role", "status"),
  createdAt: Schema.String
}).annotations({ examples: [staffExample] })

export const staffView = (m: StaffAccess.PublicStaff) => ({ ...m, createdAt: m.createdAt.toISOString() })

export const SessionView = Schema.Struct({ token: Schema.String, expiresAt: Schema.String, admin: StaffView })
  .annotations({ examples: [{ token: Ex.ACCESS_TOKEN, expiresAt: "2026-11-28T17:02:11.000Z", admin: staffExample }] })

export const sessionView = (s: StaffAccess.SignedIn) => ({ token: s.token, expiresAt: s.expiresAt.toISOString(), admin: staffView(s.admin) })

export const MeView = Schema.Struct({ ...StaffView.fields, permissions: Schema.Array(Permission) }).annotations({
  examples: [{ ...staffExample, permissions: ["overview:read", "customers:read", "transactions:read", "support:read", "support:reply"] }]
})

export const LinkView = Schema.Struct({
  purpose: LinkPurpose,
  email: Schema.String,
  firstName: Schema.NullOr(Schema.String),
  expiresAt: Schema.String
}).annotations({ examples: [{ purpose: "invite", email: "ngozi.eze@example.com", firstName: "Ngozi", expiresAt: "2026-12-01T09:00:00.000Z" }] })

export const SentLinkView = Schema.Struct({ purpose: LinkPurpose, admin: StaffView })
  .annotations({ examples: [{ purpose: "reset", admin: staffExample }] })

export const StaffEntryView = Schema.Struct({
  ...StaffView.fields,
  lastSignInAt: Schema.NullOr(Schema.String),
  pendingInvite: Schema.NullOr(Schema.Struct({ sentAt: Schema.String, expiresAt: Schema.String, expired: Schema.Boolean }))
}).annotations({ examples: [{ ...staffExample, lastSignInAt: "2026-11-28T09:02:11.000Z", pendingInvite: null }] })

export const staffEntryView = (e: StaffAccess.StaffEntry) => ({
  ...staffView(e),
  lastSignInAt: e.lastSignInAt?.toISOString() ?? null,
  pendingInvite: e.pendingInvite === null
    ? null
    : { sentAt: e.pendingInvite.sentAt.toISOString(), expiresAt: e.pendingInvite.expiresAt.toISOString(), expired: e.pendingInvite.expired }
})
