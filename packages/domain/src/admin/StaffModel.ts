/**
 * Staff of the back office: their own records (not customers), with a role, and the emailed links
 * that let them set a password (invite) or choose a new one (reset).
 */
import { Schema } from "effect"
import { StaffId } from "../shared/Ids.js"

export const StaffRole = Schema.Literal("superadmin", "admin", "support", "officer")
export type StaffRole = typeof StaffRole.Type

/** invited: no password yet (an invite link sets it); active: may sign in; disabled: may not. */
export const StaffStatus = Schema.Literal("invited", "active", "disabled")
export type StaffStatus = typeof StaffStatus.Type

export class StaffMember extends Schema.Class<StaffMember>("StaffMember")({
  id: StaffId,
  /** normalised (lower-case) */
  email: Schema.String,
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  role: StaffRole,
  status: StaffStatus,
  /** argon2id; null until an invite link is used */
  passwordHash: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  /**
   * the version every staff token carries (claim `sv`); a token of another version is refused. It
   * moves on with every change of password, email, role or status, and at sign-out
   * (StaffRepo.update), so each of them ends every session of the member.
   */
  tokenVersion: Schema.optionalWith(Schema.Number, { default: () => 0 })
}) {}

export const LinkPurpose = Schema.Literal("invite", "reset")
export type LinkPurpose = typeof LinkPurpose.Type

/** An emailed link: only its keyed digest is stored; single use. */
export class StaffLink extends Schema.Class<StaffLink>("StaffLink")({
  id: Schema.String,
  staffId: StaffId,
  purpose: LinkPurpose,
  tokenHash: Schema.String,
  expiresAt: Schema.DateFromSelf,
  usedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf
}) {}
