/**
 * Staff sessions and invites under attack (issue 37, items 3 and 7), over HTTP:
 * - an admin holding send-link tries to route a pending invite to their own address (to become that
 *   member and approve their own four-eyes requests): refused, nothing sent, the member untouched;
 *   changing a member's email is a superadmin's PATCH /admin/staff/{id}/email, audited before and
 *   after, which voids outstanding links and ends the member's sessions;
 * - a staff token dies with a password reset, an email change and a sign-out (a version on the staff
 *   row, checked on every request; role and status changes move it too: StaffRepository.test.ts).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminGet, adminServer, adminSignIn, member, rootToken } from "./support/AdminFixtures.js"
import { api, expectFailure, expectSuccess, expectValidation, post, uniqueEmail } from "./support/Fixtures.js"
import { lastCode, outbox } from "./support/TestServer.js"

const ME = "/api/v1/admin/auth/me"
const changeEmail = (id: string, email: string, token?: string) => api("PATCH", `/api/v1/admin/staff/${id}/email`, { email }, token)

const invitePending = (role: "admin" | "officer" | "support") =>
  Effect.gen(function*() {
    const email = uniqueEmail(`pending-${role}`)
    const invited = expectSuccess(
      yield* post("/api/v1/admin/admins", { email, firstName: "Victim", lastName: "Member", role }, yield* rootToken),
      { status: 201, apiObject: "Admin" }
    )
    return { id: invited.id as string, email }
  })

layer(adminServer({ adminFourEyes: true }), { excludeTestServices: true, timeout: "90 seconds" })("staff hardening", (it) => {
  describe("a pending invite cannot be hijacked", () => {
    it.effect("send-link with another email is a 400 naming email; no link reaches that address; the victim's invite still works", () =>
      Effect.gen(function*() {
        const attacker = yield* member("admin")
        const victim = yield* invitePending("admin")
        const mine = uniqueEmail("attacker-inbox")
        const refused = expectValidation(
          yield* post(`/api/v1/admin/officers/${victim.id}/send-link`, { email: mine, firstName: "Victim" }, attacker.token),
          { fields: ["email"], apiObject: "Admin" }
        )
        expect(refused.fieldErrors.email[0]).toMatch(/never changes it/)
        expect(outbox().filter((m) => m.to === mine)).toEqual([])
        // the same email (any case) is fine, and the link goes to the victim
        const again = expectSuccess(
          yield* post(`/api/v1/admin/officers/${victim.id}/send-link`, { email: victim.email.toUpperCase() }, attacker.token),
          { apiObject: "Admin" }
        )
        expect(again).toMatchObject({ purpose: "invite", admin: { email: victim.email } })
        const link = expectSuccess(yield* adminGet(`/api/v1/admin/auth/links/${lastCode(victim.email, "staff_invite")}`), { apiObject: "Admin" })
        expect(link).toMatchObject({ purpose: "invite", email: victim.email })
        // an admin cannot change the email either: that is a superadmin's action
        const denied = expectFailure(yield* changeEmail(victim.id, mine, attacker.token), 403, "Your role does not allow this", "Admin")
        expect(denied).toEqual({ code: "PERMISSION_DENIED", permission: "staff:change_email" })
        expect(outbox().filter((m) => m.to === mine)).toEqual([])
      }))

    it.effect("a superadmin changes the email: audited before and after; the old links are void; send-link reaches the new address", () =>
      Effect.gen(function*() {
        const root = yield* rootToken
        const victim = yield* invitePending("officer")
        const oldLink = lastCode(victim.email, "staff_invite")
        const next = uniqueEmail("corrected")
        const changed = expectSuccess(yield* changeEmail(victim.id, next.toUpperCase(), root), { apiObject: "Admin", message: "Email changed." })
        expect(changed).toMatchObject({ id: victim.id, email: next, status: "invited" })
        expect(expectFailure(yield* adminGet(`/api/v1/admin/auth/links/${oldLink}`), 410, /expired/, "Admin").code).toBe("LINK_GONE")
        expectFailure(yield* post(`/api/v1/admin/auth/links/${oldLink}`, { password: "a long enough password" }), 410, /expired/, "Admin")
        const audit = expectSuccess(
          yield* adminGet(`/api/v1/admin/audit?action=staff.email_changed&targetId=${victim.id}`, root),
          { apiObject: "Admin" }
        )
        expect(audit.items).toHaveLength(1)
        const [oldLocal, oldDomain] = victim.email.split("@")
        expect(audit.items[0].before.email).toMatch(new RegExp(`^${oldLocal![0]}.*@${oldDomain}$`))
        expect(audit.items[0].before.email).not.toBe(victim.email)
        expect(audit.items[0].after.email).toMatch(/@example\.com$/)
        expect(audit.items[0].after.email).not.toBe(audit.items[0].before.email)
        // a taken email is a 409; an unknown member 404
        expect(expectFailure(yield* changeEmail(victim.id, "root@kobo.test", root), 409, /already/, "Admin").code).toBe("STAFF_EMAIL_TAKEN")
        expectFailure(yield* changeEmail("00000000-0000-4000-8000-000000000000", uniqueEmail("x"), root), 404, /not found/, "Admin")
        // the invite now goes to the new address only
        expectSuccess(yield* post(`/api/v1/admin/officers/${victim.id}/send-link`, undefined, root), { apiObject: "Admin" })
        const session = expectSuccess(yield* post(`/api/v1/admin/auth/links/${lastCode(next, "staff_invite")}`, { password: "the officer's password" }), {
          apiObject: "Admin"
        })
        expect(session.admin.email).toBe(next)
      }))
  })

  describe("staff tokens end", () => {
    it.effect("with a password reset: the 8-hour token taken before the reset is refused; the link's own session works", () =>
      Effect.gen(function*() {
        const support = yield* member("support")
        const before = expectSuccess(yield* adminSignIn(support.email, support.password), { apiObject: "Admin" }).token
        expectSuccess(yield* adminGet(ME, before), { apiObject: "Admin" })
        expectSuccess(yield* post(`/api/v1/admin/officers/${support.id}/send-link`, undefined, yield* rootToken), { apiObject: "Admin" })
        const after = expectSuccess(
          yield* post(`/api/v1/admin/auth/links/${lastCode(support.email, "staff_password_reset")}`, { password: "a brand new password" }),
          { apiObject: "Admin" }
        ).token
        for (const token of [before, support.token]) expectFailure(yield* adminGet(ME, token), 401, "Authentication required", "Admin")
        expectSuccess(yield* adminGet(ME, after), { apiObject: "Admin" })
      }))

    it.effect("with a sign-out: every session of the member, not only the one signing out", () =>
      Effect.gen(function*() {
        const officer = yield* member("officer")
        const second = expectSuccess(yield* adminSignIn(officer.email, officer.password), { apiObject: "Admin" }).token
        expectSuccess(yield* post("/api/v1/admin/auth/sign-out", undefined, officer.token), { apiObject: "Admin", message: "Signed out." })
        for (const token of [officer.token, second]) expectFailure(yield* adminGet(ME, token), 401, "Authentication required", "Admin")
        expectFailure(yield* post("/api/v1/admin/auth/sign-out", undefined, officer.token), 401, "Authentication required", "Admin")
        // signing in again works
        const fresh = expectSuccess(yield* adminSignIn(officer.email, officer.password), { apiObject: "Admin" }).token
        expectSuccess(yield* adminGet(ME, fresh), { apiObject: "Admin" })
      }))

    it.effect("with an email change", () =>
      Effect.gen(function*() {
        const admin = yield* member("admin")
        expectSuccess(yield* changeEmail(admin.id, uniqueEmail("renamed"), yield* rootToken), { apiObject: "Admin" })
        expectFailure(yield* adminGet(ME, admin.token), 401, "Authentication required", "Admin")
      }))
  })
})
