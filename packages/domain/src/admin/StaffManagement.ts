/**
 * Staff management by a superadmin (docs/decisions/staff-management.md): the list of staff, a
 * member's role, deactivating and reactivating a member.
 *
 * Rules:
 * - Each action needs its permission (staff:read, staff:change_role, staff:deactivate: superadmin
 *   only) and writes one audit row with the state before and after.
 * - Nobody changes their own role or deactivates themselves (OwnStaffChange): another superadmin
 *   must, so a superadmin cannot lock the back office out by a slip.
 * - The last active superadmin is never demoted or deactivated. It holds by construction: the
 *   actor must be an active superadmin other than the member changed, re-checked inside the unit
 *   of work with every active superadmin's row locked (StaffRepo.lockActiveSuperadmins). Two
 *   superadmins demoting or deactivating each other at once are therefore serialised, and the
 *   second, no longer an active superadmin of the same token version, is refused as a stale token
 *   (StaffUnauthenticated): one of them stays superadmin.
 * - A change of role or status moves the member's token version on (StaffRepo.update): each of
 *   their tokens is refused at once. Deactivating also voids their open invite and reset links; a
 *   deactivated member cannot sign in or use a link (StaffAccess). Reactivating makes them active
 *   again, or invited when they never set a password (send-link then sends a fresh invite).
 * - Asking for what is already so (the same role, deactivating a deactivated member) changes nothing
 *   and writes no audit row.
 */
import type { StaffId } from "../shared/Ids.js"
import { Effect, Option } from "effect"
import { atomically, now } from "../shared/UseCase.js"
import { requirePermission } from "./Permissions.js"
import { publicStaff, type PublicStaff } from "./StaffAccess.js"
import { OwnStaffChange, StaffUnauthenticated } from "./StaffErrors.js"
import type { StaffMember, StaffRole, StaffStatus } from "./StaffModel.js"
import { type StaffPatch, StaffRepo } from "./StaffPorts.js"
import { orStaffNotFound, staffAction, voidOpenLinks } from "./StaffAudit.js"
import { withSpan } from "../shared/Spans.js"

export interface StaffEntry extends PublicStaff {
  readonly lastSignInAt: Date | null
  /** the member's newest unused invite link; `expired` when its 72 hours are over (send-link sends a new one) */
  readonly pendingInvite: { readonly sentAt: Date; readonly expiresAt: Date; readonly expired: boolean } | null
}

/** GET /admin/staff (staff:read): every member, oldest first. */
export const listStaff = (actor: StaffMember) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "staff:read")
    const at = yield* now
    const rows = yield* (yield* StaffRepo).list
    return rows.map(({ invite, lastSignInAt, member }): StaffEntry => ({
      ...publicStaff(member),
      lastSignInAt,
      // an invite is pending only while the member has no password and is not deactivated
      pendingInvite: invite === null || member.status !== "invited"
        ? null
        : { ...invite, expired: invite.expiresAt.getTime() <= at.getTime() }
    }))
  }).pipe(withSpan("StaffManagement.listStaff"))

/**
 * Inside the unit of work: the target as it is now, after checking (with the active superadmins'
 * rows locked) that the actor still is an active superadmin of the same token version. With the
 * actor never the target, an active superadmin always remains.
 */
const guarded = (actor: StaffMember, staffId: StaffId) =>
  Effect.gen(function*() {
    const repo = yield* StaffRepo
    const superadmins = yield* repo.lockActiveSuperadmins
    const current = yield* repo.findById(actor.id)
    if (
      !superadmins.includes(actor.id) || Option.isNone(current) || current.value.tokenVersion !== actor.tokenVersion
    ) return yield* new StaffUnauthenticated()
    return yield* orStaffNotFound(staffId, repo.findById(staffId))
  })

const apply = (staffId: StaffId, patch: StaffPatch) =>
  orStaffNotFound(
    staffId,
    Effect.flatMap(StaffRepo, (repo) => repo.update(staffId, patch)).pipe(
      Effect.catchTag("StaffEmailTaken", () => Effect.dieMessage("a role or status change cannot take an email"))
    )
  )

/** PATCH /admin/staff/{id}/role (staff:change_role): the member's role; their sessions end. */
export const changeRole = (actor: StaffMember, staffId: StaffId, role: StaffRole) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "staff:change_role")
    if (staffId === actor.id) return yield* new OwnStaffChange({ action: "change_role" })
    const at = yield* now
    const updated = yield* atomically(Effect.gen(function*() {
      const target = yield* guarded(actor, staffId)
      if (target.role === role) return target
      const updated = yield* apply(staffId, { role, updatedAt: at })
      yield* staffAction(actor, "staff.role_changed", staffId, {
        before: { role: target.role },
        after: { role, sessionsEnded: true }
      })
      return updated
    }))
    return publicStaff(updated)
  }).pipe(withSpan("StaffManagement.changeRole"))

/**
 * POST /admin/staff/{id}/deactivate (staff:deactivate): the member may no longer sign in; their
 * sessions end and their open links are voided.
 */
export const deactivate = (actor: StaffMember, staffId: StaffId) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "staff:deactivate")
    if (staffId === actor.id) return yield* new OwnStaffChange({ action: "deactivate" })
    const at = yield* now
    const updated = yield* atomically(Effect.gen(function*() {
      const target = yield* guarded(actor, staffId)
      if (target.status === "disabled") return target
      const updated = yield* apply(staffId, { status: "disabled", updatedAt: at })
      yield* voidOpenLinks(staffId, at)
      yield* staffAction(actor, "staff.deactivated", staffId, {
        before: { status: target.status, role: target.role },
        after: { status: "disabled", sessionsEnded: true, linksVoided: true }
      })
      return updated
    }))
    return publicStaff(updated)
  }).pipe(withSpan("StaffManagement.deactivate"))

/**
 * POST /admin/staff/{id}/reactivate (staff:deactivate): a deactivated member is active again with
 * their password, or invited when they never set one. No link is sent (send-link sends one).
 */
export const reactivate = (actor: StaffMember, staffId: StaffId) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "staff:deactivate")
    const at = yield* now
    const updated = yield* atomically(Effect.gen(function*() {
      const target = yield* guarded(actor, staffId)
      if (target.status !== "disabled") return target
      const status: StaffStatus = target.passwordHash === null ? "invited" : "active"
      const updated = yield* apply(staffId, { status, updatedAt: at })
      yield* staffAction(actor, "staff.reactivated", staffId, {
        before: { status: "disabled" },
        after: { status }
      })
      return updated
    }))
    return publicStaff(updated)
  }).pipe(withSpan("StaffManagement.reactivate"))
