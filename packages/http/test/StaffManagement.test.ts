/**
 * Staff management by a superadmin over HTTP (issue 40): the staff list, a member's role,
 * deactivating and reactivating; each audited before and after, each ending the member's tokens at
 * once; nobody changes themselves; every lower role is refused; two superadmins demoting each other
 * at once leave one superadmin.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminGet, adminServer, adminSignIn, member, type Member, ROOT, rootToken } from "./support/AdminFixtures.js"
import { api, expectFailure, expectSuccess, expectValidation, post, uniqueEmail } from "./support/Fixtures.js"
import { lastCode } from "./support/TestServer.js"

const ME = "/api/v1/admin/auth/me"
const STAFF = "/api/v1/admin/staff"
const changeRole = (id: string, role: string, token: string) => api("PATCH", `${STAFF}/${id}/role`, { role }, token)
const deactivate = (id: string, token: string) => post(`${STAFF}/${id}/deactivate`, undefined, token)
const reactivate = (id: string, token: string) => post(`${STAFF}/${id}/reactivate`, undefined, token)
const listStaff = (token: string) => Effect.map(adminGet(STAFF, token), (r) => expectSuccess(r, { apiObject: "Admin" }).items as Array<any>)
const auditOf = (action: string, targetId: string, token: string) =>
  Effect.map(
    adminGet(`/api/v1/admin/audit?action=${action}&targetId=${targetId}`, token),
    (r) => expectSuccess(r, { apiObject: "Admin" }).items as Array<any>
  )
const expectSignedOut = (token: string) =>
  Effect.map(adminGet(ME, token), (r) => expect(expectFailure(r, 401, "Authentication required", "Admin").code).toBe("AUTHENTICATION_REQUIRED"))

const invitePending = (role: "admin" | "support" | "officer") =>
  Effect.gen(function*() {
    const email = uniqueEmail(`pending-${role}`)
    const invited = expectSuccess(
      yield* post("/api/v1/admin/admins", { email, firstName: "Amaka", lastName: "Obi", role }, yield* rootToken),
      { status: 201, apiObject: "Admin" }
    )
    return { id: invited.id as string, email }
  })

layer(adminServer(), { excludeTestServices: true, timeout: "120 seconds" })("staff management", (it) => {
  it.effect("the list: role, status, last sign-in, pending invite; never a hash", () =>
    Effect.gen(function*() {
      const root = yield* rootToken
      const officer = yield* member("officer")
      const pending = yield* invitePending("support")
      const items = yield* listStaff(root)
      const byId = (id: string) => items.find((i) => i.id === id)
      const rootRow = items.find((i) => i.email === ROOT.email)
      expect(rootRow).toMatchObject({ role: "superadmin", status: "active", pendingInvite: null })
      expect(Date.parse(rootRow.lastSignInAt)).not.toBeNaN()
      expect(byId(officer.id)).toMatchObject({ email: officer.email, role: "officer", status: "active", pendingInvite: null })
      // the invite link's use signed the officer in
      expect(byId(officer.id).lastSignInAt).not.toBeNull()
      const invited = byId(pending.id)
      expect(invited).toMatchObject({ role: "support", status: "invited", lastSignInAt: null, pendingInvite: { expired: false } })
      expect(Date.parse(invited.pendingInvite.expiresAt) - Date.parse(invited.pendingInvite.sentAt)).toBe(72 * 3600 * 1000)
      for (const item of items) expect(Object.keys(item)).not.toContain("passwordHash")
      // oldest first
      expect(items[0].email).toBe(ROOT.email)
    }))

  it.effect("changing a role: audited before and after; the member's token is refused at once; the new role applies", () =>
    Effect.gen(function*() {
      const root = yield* rootToken
      const target = yield* member("admin")
      expectSuccess(yield* adminGet("/api/v1/admin/settings", target.token), { apiObject: "Admin" })
      const changed = expectSuccess(yield* changeRole(target.id, "officer", root), { apiObject: "Admin", message: "Role changed." })
      expect(changed).toMatchObject({ id: target.id, role: "officer", status: "active" })
      // the stale token (issued as admin) is refused, not served with either role
      yield* expectSignedOut(target.token)
      expectFailure(yield* adminGet("/api/v1/admin/settings", target.token), 401, "Authentication required", "Admin")
      const audit = yield* auditOf("staff.role_changed", target.id, root)
      expect(audit).toHaveLength(1)
      expect(audit[0]).toMatchObject({ before: { role: "admin" }, after: { role: "officer", sessionsEnded: true } })
      // signing in again gives the officer's permissions
      const fresh = expectSuccess(yield* adminSignIn(target.email, target.password), { apiObject: "Admin" }).token
      const me = expectSuccess(yield* adminGet(ME, fresh), { apiObject: "Admin" })
      expect(me.role).toBe("officer")
      expect(me.permissions).not.toContain("settings:read")
      expect(expectFailure(yield* adminGet("/api/v1/admin/settings", fresh), 403, /role/, "Admin").code).toBe("PERMISSION_DENIED")
      // the same role again changes nothing: no audit row, the session lives
      expectSuccess(yield* changeRole(target.id, "officer", root), { apiObject: "Admin" })
      expect(yield* auditOf("staff.role_changed", target.id, root)).toHaveLength(1)
      expectSuccess(yield* adminGet(ME, fresh), { apiObject: "Admin" })
      // a role outside the four is a 400 naming role; an unknown member a 404
      expectValidation(yield* changeRole(target.id, "owner", root), { fields: ["role"], apiObject: "Admin" })
      const missing = expectFailure(yield* changeRole("00000000-0000-4000-8000-000000000000", "support", root), 404, /not found/, "Admin")
      expect(missing.code).toBe("STAFF_NOT_FOUND")
    }))

  it.effect("deactivating: tokens refused, no sign-in, links void; reactivating restores sign-in, never the old token", () =>
    Effect.gen(function*() {
      const root = yield* rootToken
      const target = yield* member("support")
      // a reset link sent before the deactivation
      expectSuccess(yield* post(`/api/v1/admin/officers/${target.id}/send-link`, undefined, root), { apiObject: "Admin" })
      const resetLink = lastCode(target.email, "staff_password_reset")
      const off = expectSuccess(yield* deactivate(target.id, root), { apiObject: "Admin", message: "Staff member deactivated." })
      expect(off).toMatchObject({ id: target.id, status: "disabled", role: "support" })
      yield* expectSignedOut(target.token)
      const refused = expectFailure(yield* adminSignIn(target.email, target.password), 401, "Invalid credentials", "Admin")
      expect(refused.code).toBe("INVALID_CREDENTIALS")
      expect(expectFailure(yield* adminGet(`/api/v1/admin/auth/links/${resetLink}`), 410, /expired/, "Admin").code).toBe("LINK_GONE")
      expectFailure(yield* post(`/api/v1/admin/auth/links/${resetLink}`, { password: "a sneaky new password" }), 410, /expired/, "Admin")
      // and no new link can be sent to a deactivated member
      expectFailure(yield* post(`/api/v1/admin/officers/${target.id}/send-link`, undefined, root), 404, /not found/, "Admin")
      expect((yield* listStaff(root)).find((i) => i.id === target.id).status).toBe("disabled")
      const audit = yield* auditOf("staff.deactivated", target.id, root)
      expect(audit).toHaveLength(1)
      expect(audit[0]).toMatchObject({
        before: { status: "active", role: "support" },
        after: { status: "disabled", sessionsEnded: true, linksVoided: true }
      })
      // deactivating again changes nothing
      expectSuccess(yield* deactivate(target.id, root), { apiObject: "Admin" })
      expect(yield* auditOf("staff.deactivated", target.id, root)).toHaveLength(1)

      const on = expectSuccess(yield* reactivate(target.id, root), { apiObject: "Admin", message: "Staff member reactivated." })
      expect(on).toMatchObject({ id: target.id, status: "active" })
      expect((yield* auditOf("staff.reactivated", target.id, root))[0]).toMatchObject({ before: { status: "disabled" }, after: { status: "active" } })
      yield* expectSignedOut(target.token)
      const fresh = expectSuccess(yield* adminSignIn(target.email, target.password), { apiObject: "Admin" }).token
      expectSuccess(yield* adminGet(ME, fresh), { apiObject: "Admin" })
      // reactivating an active member changes nothing
      expectSuccess(yield* reactivate(target.id, root), { apiObject: "Admin" })
      expect(yield* auditOf("staff.reactivated", target.id, root)).toHaveLength(1)
    }))

  it.effect("an invited member deactivated: their invite is void; reactivated, they are invited again and a new link works", () =>
    Effect.gen(function*() {
      const root = yield* rootToken
      const pending = yield* invitePending("officer")
      const invite = lastCode(pending.email, "staff_invite")
      expectSuccess(yield* deactivate(pending.id, root), { apiObject: "Admin" })
      expectFailure(yield* post(`/api/v1/admin/auth/links/${invite}`, { password: "the officer's password" }), 410, /expired/, "Admin")
      expect((yield* listStaff(root)).find((i) => i.id === pending.id)).toMatchObject({ status: "disabled", pendingInvite: null })
      expect(expectSuccess(yield* reactivate(pending.id, root), { apiObject: "Admin" }).status).toBe("invited")
      // the old link stays void; a resent one works
      expectFailure(yield* adminGet(`/api/v1/admin/auth/links/${invite}`), 410, /expired/, "Admin")
      expectSuccess(yield* post(`/api/v1/admin/officers/${pending.id}/send-link`, undefined, root), { apiObject: "Admin" })
      const session = expectSuccess(
        yield* post(`/api/v1/admin/auth/links/${lastCode(pending.email, "staff_invite")}`, { password: "the officer's password" }),
        { apiObject: "Admin" }
      )
      expect(session.admin).toMatchObject({ id: pending.id, status: "active" })
    }))

  it.effect("nobody changes their own role or deactivates themselves, superadmins included", () =>
    Effect.gen(function*() {
      const root = yield* rootToken
      const rootId = (expectSuccess(yield* adminGet(ME, root), { apiObject: "Admin" })).id as string
      const second = yield* member("superadmin")
      for (const [id, token] of [[rootId, root], [second.id, second.token]] as const) {
        const role = expectFailure(yield* changeRole(id, "admin", token), 403, /your own role/, "Admin")
        expect(role).toEqual({ code: "OWN_STAFF_CHANGE", action: "change_role" })
        const off = expectFailure(yield* deactivate(id, token), 403, /your own role/, "Admin")
        expect(off).toEqual({ code: "OWN_STAFF_CHANGE", action: "deactivate" })
        expect(expectSuccess(yield* adminGet(ME, token), { apiObject: "Admin" })).toMatchObject({ role: "superadmin", status: "active" })
      }
    }))

  describe("attackers", () => {
    it.effect("an admin, support or officer gets 403 naming the permission for each action; the target is untouched", () =>
      Effect.gen(function*() {
        const root = yield* rootToken
        const target = yield* member("officer")
        const attackers: Array<Member> = [yield* member("admin"), yield* member("support"), yield* member("officer")]
        for (const attacker of attackers) {
          const calls = [
            [adminGet(STAFF, attacker.token), "staff:read"],
            [changeRole(target.id, "superadmin", attacker.token), "staff:change_role"],
            [changeRole(attacker.id, "superadmin", attacker.token), "staff:change_role"],
            [deactivate(target.id, attacker.token), "staff:deactivate"],
            [reactivate(target.id, attacker.token), "staff:deactivate"]
          ] as const
          for (const [call, permission] of calls) {
            const error = expectFailure(yield* call, 403, "Your role does not allow this", "Admin")
            expect(error).toEqual({ code: "PERMISSION_DENIED", permission })
          }
        }
        const row = (yield* listStaff(root)).find((i) => i.id === target.id)
        expect(row).toMatchObject({ role: "officer", status: "active" })
        expectSuccess(yield* adminGet(ME, target.token), { apiObject: "Admin" })
      }))

    it.effect("a superadmin demoted keeps no power: their token is refused (401), and signed in again they are refused (403)", () =>
      Effect.gen(function*() {
        const root = yield* rootToken
        const demoted = yield* member("superadmin")
        const victim = yield* member("admin")
        expectSuccess(yield* changeRole(demoted.id, "admin", root), { apiObject: "Admin" })
        for (const reply of [yield* deactivate(victim.id, demoted.token), yield* changeRole(victim.id, "officer", demoted.token)]) {
          expect(expectFailure(reply, 401, "Authentication required", "Admin").code).toBe("AUTHENTICATION_REQUIRED")
        }
        const fresh = expectSuccess(yield* adminSignIn(demoted.email, demoted.password), { apiObject: "Admin" }).token
        const denied = expectFailure(yield* deactivate(victim.id, fresh), 403, "Your role does not allow this", "Admin")
        expect(denied).toEqual({ code: "PERMISSION_DENIED", permission: "staff:deactivate" })
        expectSuccess(yield* adminGet(ME, victim.token), { apiObject: "Admin" })
      }))
  })
})

// on a server of its own: the race may leave either of its two superadmins demoted
layer(adminServer(), { excludeTestServices: true, timeout: "120 seconds" })("the last superadmin", (it) => {
  it.effect("two superadmins demoting or deactivating each other at once: one wins, the other is refused 401, one superadmin stays", () =>
    Effect.gen(function*() {
      const root = yield* rootToken
      const rootId = (expectSuccess(yield* adminGet(ME, root), { apiObject: "Admin" })).id as string
      const other = yield* member("superadmin")
      const [a, b] = yield* Effect.all([changeRole(other.id, "admin", root), deactivate(rootId, other.token)], { concurrency: "unbounded" })
      const statuses = [a.status, b.status].sort()
      expect(statuses).toEqual([200, 401])
      const survivor = a.status === 200 ? root : other.token
      const items = yield* listStaff(survivor)
      const superadmins = items.filter((i) => i.role === "superadmin" && i.status === "active")
      expect(superadmins).toHaveLength(1)
      // the survivor cannot now demote or deactivate themselves: an active superadmin always remains
      const survivorId = superadmins[0].id as string
      expectFailure(yield* changeRole(survivorId, "admin", survivor), 403, /your own role/, "Admin")
      expectFailure(yield* deactivate(survivorId, survivor), 403, /your own role/, "Admin")
    }))

  it.effect("the same race, again and again: exactly one of the two stays an active superadmin each time", () =>
    Effect.gen(function*() {
      for (let round = 0; round < 4; round++) {
        const a = yield* member("superadmin")
        const b = yield* member("superadmin")
        const replies = yield* Effect.all([deactivate(b.id, a.token), changeRole(a.id, "support", b.token)], { concurrency: "unbounded" })
        expect(replies.map((r) => r.status).sort(), `round ${round}`).toEqual([200, 401])
        const winner = replies[0]!.status === 200 ? a : b
        const items = yield* listStaff(winner.token)
        const standing = [a, b].filter((m) => items.some((i) => i.id === m.id && i.role === "superadmin" && i.status === "active"))
        expect(standing.map((m) => m.id), `round ${round}`).toEqual([winner.id])
      }
    }))
})
