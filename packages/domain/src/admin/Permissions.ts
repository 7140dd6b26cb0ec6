/**
 * The permission matrix of the back office: every admin use case names the permission it needs,
 * and a role either has it or is refused (403 PERMISSION_DENIED). One table, documented in the
 * README and returned by GET /admin/auth/me.
 *
 * - superadmin: everything.
 * - admin: runs the service: everything except changing settings and managing staff (inviting,
 *   listing, changing an email or a role, deactivating; it may send a link) (so it may
 *   resolve a movement parked after a refused reversal, `transactions:resolve`: under four-eyes a
 *   second admin or superadmin approves it).
 * - support: the support desk, and reading what a customer's case needs (customers, transactions,
 *   disbursements, deletions, alerts); no freezes, no requeries, no movement resolutions, no settings.
 * - officer: an account officer: reads customers, their transactions and disbursements, and
 *   answers their tickets (no internal assignment or resolution).
 */
import { Effect, Schema } from "effect"
import { PermissionDenied } from "./StaffErrors.js"
import type { StaffMember, StaffRole } from "./StaffModel.js"

export const Permission = Schema.Literal(
  "overview:read",
  "customers:read",
  "customers:freeze",
  "customers:unfreeze",
  "deletions:read",
  "deletions:review",
  "transactions:read",
  "transactions:requery",
  "transactions:resolve",
  "disbursements:read",
  "jobs:read",
  "jobs:retry",
  "settings:read",
  "settings:write",
  "staff:invite",
  "staff:send_link",
  "staff:change_email",
  "staff:read",
  "staff:change_role",
  "staff:deactivate",
  "support:read",
  "support:reply",
  "support:note",
  "support:assign",
  "support:resolve",
  "audit:read",
  "audit:verify",
  "alerts:read",
  "alerts:ack"
)
export type Permission = typeof Permission.Type

export const allPermissions: ReadonlyArray<Permission> = Permission.literals

const except = (...left: ReadonlyArray<Permission>) => allPermissions.filter((p) => !left.includes(p))

/** What each role may do. */
export const permissionMatrix: { readonly [R in StaffRole]: ReadonlyArray<Permission> } = {
  superadmin: allPermissions,
  admin: except("settings:write", "staff:invite", "staff:change_email", "staff:read", "staff:change_role", "staff:deactivate"),
  support: [
    "overview:read",
    "customers:read",
    "transactions:read",
    "disbursements:read",
    "deletions:read",
    "support:read",
    "support:reply",
    "support:note",
    "support:assign",
    "support:resolve",
    "alerts:read"
  ],
  officer: ["overview:read", "customers:read", "transactions:read", "disbursements:read", "support:read", "support:reply", "support:note"]
}

export const can = (role: StaffRole, permission: Permission): boolean => permissionMatrix[role].includes(permission)

/** Fails with PermissionDenied unless the staff member's role has the permission. */
export const requirePermission = (staff: StaffMember, permission: Permission): Effect.Effect<void, PermissionDenied> =>
  can(staff.role, permission) ? Effect.void : Effect.fail(new PermissionDenied({ permission }))
