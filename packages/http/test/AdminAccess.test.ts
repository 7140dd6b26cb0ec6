/**
 * Staff access over HTTP: the bootstrapped superadmin, sign-in and its throttle, the admin token
 * kept apart from customer tokens, /admin/auth/me, inviting staff, invite and reset links (410 once
 * used), and 403 for a role without the permission.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminGet, adminServer, adminSignIn, member, ROOT, rootToken } from "./support/AdminFixtures.js"
import { expectFailure, expectSuccess, expectValidation, post, uniqueEmail, verifiedAccount } from "./support/Fixtures.js"
import { lastCode, outbox } from "./support/TestServer.js"
import { StaffId } from "@app/domain"

/** Moves every link of the member one minute past its expiry (the server runs on the real clock). */
const expireLinks = (staffId: StaffId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE staff_links SET expires_at = now() - interval '1 minute' WHERE staff_id = ${staffId}`).pipe(Effect.orDie)

const Server = adminServer()
const signIn = adminSignIn
const get = adminGet

layer(Server, { excludeTestServices: true, timeout: "60 seconds" })("admin access", (it) => {
  describe("POST /admin/auth/sign-in", () => {
    it.effect("the bootstrapped superadmin signs in for 8 hours; the answer has no secret", () =>
      Effect.gen(function*() {
        const before = Date.now()
        const result = expectSuccess(yield* signIn(" ROOT@kobo.test ", ROOT.password), { apiObject: "Admin", message: "Signed in." })
        expect(result.admin).toMatchObject({ email: ROOT.email, role: "superadmin", status: "active" })
        expect(Object.keys(result.admin).sort()).toEqual(["createdAt", "email", "firstName", "id", "lastName", "role", "status"])
        const ttl = Date.parse(result.expiresAt) - before
        expect(ttl).toBeGreaterThan(8 * 3600_000 - 60_000)
        expect(ttl).toBeLessThanOrEqual(8 * 3600_000 + 1000)
      }))

    it.effect("a wrong password and an unknown email answer the same 401; bad input is a 400 naming the field", () =>
      Effect.gen(function*() {
        const wrong = expectFailure(yield* signIn(ROOT.email, "not the password"), 401, "Invalid credentials", "Admin")
        const unknown = expectFailure(yield* signIn("nobody@kobo.test", "not the password"), 401, "Invalid credentials", "Admin")
        expect(wrong).toEqual({ code: "INVALID_CREDENTIALS" })
        expect(unknown).toEqual(wrong)
        expectValidation(yield* post("/api/v1/admin/auth/sign-in", { email: "not-an-email" }), { fields: ["email", "password"], apiObject: "Admin" })
      }))

    it.effect("5 failures for one email from one client: 429 with Retry-After, even for the right password", () =>
      Effect.gen(function*() {
        const officer = yield* member("officer")
        for (let i = 0; i < 5; i++) expectFailure(yield* signIn(officer.email, "wrong password here"), 401, "Invalid credentials", "Admin")
        const throttled = yield* signIn(officer.email, officer.password)
        const error = expectFailure(throttled, 429, /Too many failed sign-in attempts/, "Admin")
        expect(error.code).toBe("SIGN_IN_THROTTLED")
        expect(error.retryAfterSeconds).toBeGreaterThan(14 * 60)
        expect(Number(throttled.headers["retry-after"])).toBe(Math.ceil(error.retryAfterSeconds))
        // another email from the same client is not locked by these failures
        expectSuccess(yield* signIn(ROOT.email, ROOT.password), { apiObject: "Admin" })
      }))
  })

  describe("tokens", () => {
    it.effect("GET /admin/auth/me: the member and their permissions; 401 without a token, with a customer token, or a forged one", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const me = expectSuccess(yield* get("/api/v1/admin/auth/me", token), { apiObject: "Admin" })
        expect(me).toMatchObject({ email: ROOT.email, role: "superadmin" })
        expect(me.permissions).toContain("settings:write")
        expect(me.permissions).toContain("staff:invite")
        expectFailure(yield* get("/api/v1/admin/auth/me"), 401, "Authentication required", "Admin")
        const customer = yield* verifiedAccount("admin-token")
        expectFailure(yield* get("/api/v1/admin/auth/me", customer.accessToken), 401, "Authentication required", "Admin")
        expectFailure(yield* get("/api/v1/admin/auth/me", `${token}x`), 401, "Authentication required", "Admin")
      }))

    it.effect("an admin token is refused on customer endpoints", () =>
      Effect.gen(function*() {
        expectFailure(yield* get("/api/v1/customers/me", yield* rootToken), 401, "Authentication required", "Customer")
      }))

    it.effect("a support member's permissions are the matrix's; an officer may not invite (403 PERMISSION_DENIED)", () =>
      Effect.gen(function*() {
        const support = yield* member("support")
        const me = expectSuccess(yield* get("/api/v1/admin/auth/me", support.token), { apiObject: "Admin" })
        expect(me.role).toBe("support")
        expect(me.permissions).toContain("support:reply")
        expect(me.permissions).not.toContain("customers:freeze")
        const officer = yield* member("officer")
        const error = expectFailure(
          yield* post("/api/v1/admin/admins", { email: uniqueEmail("x"), firstName: "A", lastName: "B" }, officer.token),
          403,
          "Your role does not allow this",
          "Admin"
        )
        expect(error).toEqual({ code: "PERMISSION_DENIED", permission: "staff:invite" })
      }))
  })

  describe("invites and links", () => {
    it.effect("POST /admin/admins emails a link; GET shows who it is for; POST sets the password once (410 after); a short password is a 400", () =>
      Effect.gen(function*() {
        const email = uniqueEmail("invitee")
        const invited = expectSuccess(
          yield* post("/api/v1/admin/admins", { email, firstName: "Bola", lastName: "Ade" }, yield* rootToken),
          { status: 201, apiObject: "Admin" }
        )
        expect(invited).toMatchObject({ email, role: "admin", status: "invited", firstName: "Bola" })
        const token = lastCode(email, "staff_invite")
        const link = expectSuccess(yield* get(`/api/v1/admin/auth/links/${token}`), { apiObject: "Admin" })
        expect(link).toMatchObject({ purpose: "invite", email, firstName: "Bola" })
        const ttl = Date.parse(link.expiresAt) - Date.now()
        expect(ttl).toBeGreaterThan(71 * 3600_000)
        expect(ttl).toBeLessThanOrEqual(72 * 3600_000)
        expectValidation(yield* post(`/api/v1/admin/auth/links/${token}`, { password: "short" }), { fields: ["password"], apiObject: "Admin" })
        const session = expectSuccess(yield* post(`/api/v1/admin/auth/links/${token}`, { password: "bola's long password" }), {
          apiObject: "Admin",
          message: "Password set."
        })
        expect(session.admin).toMatchObject({ email, status: "active", role: "admin" })
        expectFailure(yield* post(`/api/v1/admin/auth/links/${token}`, { password: "another long password" }), 410, /expired or was already used/, "Admin")
        expect(expectFailure(yield* get(`/api/v1/admin/auth/links/${token}`), 410, /expired/, "Admin").code).toBe("LINK_GONE")
        expectFailure(yield* get("/api/v1/admin/auth/links/not-a-real-token"), 410, /expired/, "Admin")
        expectSuccess(yield* signIn(email, "bola's long password"), { apiObject: "Admin" })
      }))

    it.effect("a link past its expiry is 410 for GET and POST (expiry moved in the database); a token over 200 characters is a 400", () =>
      Effect.gen(function*() {
        const email = uniqueEmail("late")
        const invited = expectSuccess(
          yield* post("/api/v1/admin/admins", { email, firstName: "Kemi", lastName: "Lawal" }, yield* rootToken),
          { status: 201, apiObject: "Admin" }
        )
        const token = lastCode(email, "staff_invite")
        expectSuccess(yield* get(`/api/v1/admin/auth/links/${token}`), { apiObject: "Admin" })
        yield* expireLinks(invited.id)
        expect(expectFailure(yield* get(`/api/v1/admin/auth/links/${token}`), 410, /expired/, "Admin").code).toBe("LINK_GONE")
        expect(expectFailure(yield* post(`/api/v1/admin/auth/links/${token}`, { password: "kemi's long password" }), 410, /expired/, "Admin").code)
          .toBe("LINK_GONE")
        // the expired link set nothing: the member is still invited (no password, cannot sign in)
        const [row] = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql<{ status: string; passwordHash: string | null }>`SELECT status, password_hash FROM staff WHERE id = ${invited.id}`).pipe(Effect.orDie)
        expect(row).toEqual({ status: "invited", passwordHash: null })
        const long = "a".repeat(201)
        expectValidation(yield* get(`/api/v1/admin/auth/links/${long}`), { fields: ["token"], apiObject: "Admin" })
        expectValidation(yield* post(`/api/v1/admin/auth/links/${long}`, { password: "kemi's long password" }), { fields: ["token"], apiObject: "Admin" })
        // 200 characters is within the limit (unknown, so gone)
        expectFailure(yield* get(`/api/v1/admin/auth/links/${"a".repeat(200)}`), 410, /expired/, "Admin")
      }))

    it.effect("send-link with an email other than the member's (here another member's) is a 400; the member and the other address are untouched", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const email = uniqueEmail("clash")
        const pending = expectSuccess(
          yield* post("/api/v1/admin/admins", { email, firstName: "Sade", lastName: "Adu", role: "support" }, token),
          { status: 201, apiObject: "Admin" }
        )
        const invitesToRoot = () => outbox().filter((m) => m.to === ROOT.email && m.kind === "staff_invite").length
        const before = invitesToRoot()
        // send-link never changes an email (StaffHardening.test.ts): a superadmin's PATCH /admin/staff/{id}/email does
        expectValidation(
          yield* post(`/api/v1/admin/officers/${pending.id}/send-link`, { email: ROOT.email, firstName: "Sadé" }, token),
          { fields: ["email"], apiObject: "Admin" }
        )
        expect(invitesToRoot()).toBe(before)
        // the member's first invite still works, under their own email and name
        const link = expectSuccess(yield* get(`/api/v1/admin/auth/links/${lastCode(email, "staff_invite")}`), { apiObject: "Admin" })
        expect(link).toMatchObject({ email, firstName: "Sade" })
      }))

    it.effect("inviting a taken email is 409; a bad role or email is a 400; without a token 401", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        expect(
          expectFailure(yield* post("/api/v1/admin/admins", { email: ROOT.email, firstName: "A", lastName: "B" }, token), 409, /already/, "Admin").code
        ).toBe("STAFF_EMAIL_TAKEN")
        expectValidation(yield* post("/api/v1/admin/admins", { email: "x", firstName: "", lastName: "B", role: "king" }, token), {
          fields: ["email", "firstName", "role"],
          apiObject: "Admin"
        })
        expectFailure(yield* post("/api/v1/admin/admins", { email: uniqueEmail("y"), firstName: "A", lastName: "B" }), 401, "Authentication required", "Admin")
      }))

    it.effect("send-link: a reset for a member with a password, an invite for one without; 404 unknown; 400 malformed id; an admin may not reach a superadmin", () =>
      Effect.gen(function*() {
        const admin = yield* member("admin")
        const support = yield* member("support")
        // no body at all: the spec's "otherwise none"
        const reset = expectSuccess(yield* post(`/api/v1/admin/officers/${support.id}/send-link`, undefined, admin.token), { apiObject: "Admin" })
        expect(reset.purpose).toBe("reset")
        const resetToken = lastCode(support.email, "staff_password_reset")
        expectSuccess(yield* post(`/api/v1/admin/auth/links/${resetToken}`, { password: "support's new password" }), { apiObject: "Admin" })
        expectFailure(yield* signIn(support.email, support.password), 401, "Invalid credentials", "Admin")
        expectSuccess(yield* signIn(support.email, "support's new password"), { apiObject: "Admin" })

        const email = uniqueEmail("pending")
        const pending = expectSuccess(
          yield* post("/api/v1/admin/admins", { email, firstName: "Tunde", lastName: "Bakare", role: "officer" }, yield* rootToken),
          { status: 201, apiObject: "Admin" }
        )
        const again = expectSuccess(yield* post(`/api/v1/admin/officers/${pending.id}/send-link`, { firstName: "Tunde A." }, admin.token), {
          apiObject: "Admin"
        })
        expect(again).toMatchObject({ purpose: "invite", admin: { firstName: "Tunde A.", email } })
        expectFailure(yield* post("/api/v1/admin/officers/00000000-0000-4000-8000-000000000000/send-link", {}, admin.token), 404, /not found/, "Admin")
        expectValidation(yield* post("/api/v1/admin/officers/not-a-uuid/send-link", {}, admin.token), { fields: ["id"], apiObject: "Admin" })
        const me = expectSuccess(yield* get("/api/v1/admin/auth/me", yield* rootToken), { apiObject: "Admin" })
        expectFailure(yield* post(`/api/v1/admin/officers/${me.id}/send-link`, {}, admin.token), 403, /role/, "Admin")
      }))
  })
})
