/**
 * Staff access in the domain: the permission matrix (every role × every permission), the first
 * superadmin, sign-in and its throttle under the TestClock, staff tokens, invite and reset links.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Either, Layer, Option, Redacted, TestClock } from "effect"
import * as StaffAccess from "../src/admin/StaffAccess.js"
import { allPermissions, can, type Permission, permissionMatrix } from "../src/admin/Permissions.js"
import { StaffMember, type StaffRole } from "../src/admin/StaffModel.js"
import { StaffRepo } from "../src/admin/StaffPorts.js"
import { HasherProbe, InMemoryLayer, Sent } from "./support/InMemory.js"
import { AuditRows, InMemoryAuditLive } from "./support/InMemoryAudit.js"
import { InMemoryStaffLive, StaffStore } from "./support/InMemoryStaff.js"
import { StaffId } from "../src/shared/Ids.js"

const withStaff = <A, E>(self: Effect.Effect<A, E, any>): Effect.Effect<A, E> =>
  Effect.provide(self, Layer.mergeAll(InMemoryLayer, InMemoryStaffLive, InMemoryAuditLive)) as Effect.Effect<A, E>

const pw = Redacted.make
const ROOT = { email: "Root@Example.com", password: "a long root password" }
const CLIENT = "203.0.113.7"
const ELSEWHERE = "198.51.100.9"

const bootstrap = StaffAccess.bootstrapSuperadmin(ROOT.email, pw(ROOT.password))
const root = Effect.flatMap(StaffRepo, (r) => r.findByEmail("root@example.com")).pipe(Effect.map(Option.getOrThrow))
const signIn = (email: string, password: string, client = CLIENT) => StaffAccess.signIn({ email, password: pw(password), client })
const failure = <A, E>(self: Effect.Effect<A, E, any>) => Effect.flip(self) as Effect.Effect<E, A, any>

/** A member of the role, active with a password ("<role> password 12"). */
const member = (role: StaffRole, email = `${role}@example.com`) =>
  Effect.gen(function*() {
    const at = new Date(0)
    const m = new StaffMember({
      id: StaffId.make(`00000000-0000-4000-8000-${role.padEnd(12, "0").slice(0, 12).replace(/[^0-9a-f]/g, "a")}`),
      email,
      firstName: role,
      lastName: "Staff",
      role,
      status: "active",
      passwordHash: `hash:${role} password 12`,
      createdAt: at,
      updatedAt: at
    })
    yield* (yield* StaffRepo).create(m)
    return m
  })

const EXPECTED: Record<StaffRole, ReadonlyArray<Permission>> = {
  superadmin: allPermissions,
  admin: allPermissions.filter((p) =>
    !["settings:write", "staff:invite", "staff:change_email", "staff:read", "staff:change_role", "staff:deactivate"].includes(p)
  ),
  support: [
    "overview:read", "customers:read", "transactions:read", "disbursements:read", "deletions:read",
    "support:read", "support:reply", "support:note", "support:assign", "support:resolve", "alerts:read"
  ],
  officer: ["overview:read", "customers:read", "transactions:read", "disbursements:read", "support:read", "support:reply", "support:note"]
}

describe("permission matrix", () => {
  for (const role of ["superadmin", "admin", "support", "officer"] as const) {
    for (const permission of allPermissions) {
      const expected = EXPECTED[role].includes(permission)
      it(`${role} ${expected ? "may" : "may not"} ${permission}`, () => {
        expect(can(role, permission)).toBe(expected)
      })
    }
  }
  it("only a superadmin changes settings or invites staff", () => {
    const holders = (p: Permission) => Object.entries(permissionMatrix).filter(([, ps]) => ps.includes(p)).map(([r]) => r)
    expect(holders("settings:write")).toEqual(["superadmin"])
    expect(holders("staff:invite")).toEqual(["superadmin"])
  })
  it("only a superadmin or an admin resolves a movement parked after a refused reversal", () => {
    const holders = (p: Permission) => Object.entries(permissionMatrix).filter(([, ps]) => ps.includes(p)).map(([r]) => r)
    expect(holders("transactions:resolve")).toEqual(["superadmin", "admin"])
  })
})

describe("bootstrap", () => {
  it.effect("creates the superadmin (email normalised, password hashed) only while no staff exists", () =>
    withStaff(Effect.gen(function*() {
      expect(yield* bootstrap).toBe(true)
      expect(yield* StaffAccess.bootstrapSuperadmin("other@example.com", pw("another long password"))).toBe(false)
      const { members } = yield* StaffStore.state
      expect(members.map((m) => [m.email, m.role, m.status, m.passwordHash])).toEqual([
        ["root@example.com", "superadmin", "active", `hash:${ROOT.password}`]
      ])
    })))
})

describe("sign-in", () => {
  it.effect("the right password gives an 8-hour token that authenticates the member, and me() lists the role's permissions", () =>
    withStaff(Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-05-01T08:00:00Z"))
      yield* bootstrap
      const signedIn = yield* signIn(" ROOT@example.com ", ROOT.password)
      expect(signedIn.expiresAt.toISOString()).toBe("2026-05-01T16:00:00.000Z")
      expect(signedIn.admin).not.toHaveProperty("passwordHash")
      const me = yield* StaffAccess.authenticate(signedIn.token)
      expect(StaffAccess.me(me)).toMatchObject({ email: "root@example.com", role: "superadmin", permissions: allPermissions })
      yield* TestClock.adjust(Duration.hours(8))
      expect((yield* failure(StaffAccess.authenticate(signedIn.token)))._tag).toBe("StaffUnauthenticated")
    })))

  it.effect("wrong password, unknown email and an invited member without a password are the same 401; unknown emails still spend a hash", () =>
    withStaff(Effect.gen(function*() {
      yield* bootstrap
      yield* StaffAccess.invite(yield* root, { email: "new@example.com", firstName: "New", lastName: "Hire", role: "support" })
      const before = yield* HasherProbe.dummyVerifyCalls
      for (const [email, password] of [["root@example.com", "wrong password!"], ["nobody@example.com", "whatever pass"], ["new@example.com", "anything at all"]]) {
        expect((yield* failure(signIn(email!, password!)))._tag).toBe("StaffInvalidCredentials")
      }
      expect((yield* HasherProbe.dummyVerifyCalls) - before).toBe(2)
    })))

  it.effect("a disabled member can neither sign in nor use a token issued before", () =>
    withStaff(Effect.gen(function*() {
      yield* bootstrap
      const { token } = yield* signIn(ROOT.email, ROOT.password)
      const r = yield* root
      yield* (yield* StaffRepo).update(r.id, { status: "disabled", updatedAt: new Date() })
      expect((yield* failure(StaffAccess.authenticate(token)))._tag).toBe("StaffUnauthenticated")
      expect((yield* failure(signIn(ROOT.email, ROOT.password)))._tag).toBe("StaffInvalidCredentials")
    })))
})

describe("sign-in throttle", () => {
  it.effect("5 failures for an email from one client: 429 (even with the right password) until the oldest leaves the 15-minute window", () =>
    withStaff(Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-05-01T08:00:00Z"))
      yield* bootstrap
      for (let i = 0; i < 5; i++) {
        expect((yield* failure(signIn(ROOT.email, "wrong password!")))._tag).toBe("StaffInvalidCredentials")
        yield* TestClock.adjust(Duration.minutes(1))
      }
      const throttled = yield* failure(signIn(ROOT.email, ROOT.password))
      expect(throttled).toMatchObject({ _tag: "StaffSignInThrottled", retryAfterSeconds: 10 * 60 })
      // the real admin elsewhere is not locked out by an attacker's failures
      expect((yield* signIn(ROOT.email, ROOT.password, ELSEWHERE)).admin.email).toBe("root@example.com")
      yield* TestClock.adjust(Duration.minutes(10))
      // the first failure left the window: one more try is allowed, and it succeeds
      expect((yield* signIn(ROOT.email, ROOT.password)).admin.role).toBe("superadmin")
    })))

  it.effect("unknown emails are throttled exactly like known ones (no enumeration)", () =>
    withStaff(Effect.gen(function*() {
      yield* bootstrap
      for (let i = 0; i < 5; i++) yield* failure(signIn("ghost@example.com", "wrong password!"))
      expect((yield* failure(signIn("ghost@example.com", "wrong password!")))._tag).toBe("StaffSignInThrottled")
    })))

  it.effect("a success clears that email's count for the client; 20 failures from one client throttle every email from it", () =>
    withStaff(Effect.gen(function*() {
      yield* bootstrap
      for (let i = 0; i < 4; i++) yield* failure(signIn(ROOT.email, "wrong password!"))
      yield* signIn(ROOT.email, ROOT.password)
      for (let i = 0; i < 4; i++) yield* failure(signIn(ROOT.email, "wrong password!"))
      expect((yield* signIn(ROOT.email, ROOT.password)).admin.role).toBe("superadmin")
      const sprayed = []
      for (let i = 0; i < 16; i++) sprayed.push((yield* failure(signIn(`spray${i}@example.com`, "wrong password!")))._tag)
      // 8 failures so far from CLIENT (the clears were per email): the 13th spray reaches 20
      expect(sprayed.filter((t) => t === "StaffInvalidCredentials")).toHaveLength(12)
      expect(sprayed.slice(12)).toEqual(Array(4).fill("StaffSignInThrottled"))
      expect((yield* failure(signIn(ROOT.email, ROOT.password)))._tag).toBe("StaffSignInThrottled")
      expect((yield* signIn(ROOT.email, ROOT.password, ELSEWHERE)).admin.role).toBe("superadmin")
      yield* TestClock.adjust(Duration.minutes(15))
      // 20 client rows, and the 12 sprays' email-and-client rows (root's were cleared)
      expect(yield* StaffAccess.purgeSignInFailures).toBe(32)
      expect((yield* signIn(ROOT.email, ROOT.password)).admin.role).toBe("superadmin")
    })))
})

describe("invite and reset links", () => {
  it.effect("a superadmin invites: the link (72 h) shows who it is for, sets the password once, and signs in", () =>
    withStaff(Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-05-01T08:00:00Z"))
      yield* bootstrap
      const invited = yield* StaffAccess.invite(yield* root, { email: "Ngozi@Example.com", firstName: "Ngozi", lastName: "Eze", role: "admin" })
      expect(invited).toMatchObject({ email: "ngozi@example.com", role: "admin", status: "invited" })
      const token = yield* Sent.lastCode("staff_invite")
      const mail = (yield* Sent.all).at(-1)!
      expect(mail).toMatchObject({ channel: "email", to: "ngozi@example.com" })
      expect(mail.text).toContain(`/admin/links/${token}`)
      // only the digest is stored
      expect((yield* StaffStore.state).links.map((l) => l.tokenHash)).toEqual([`staff-link|${token}`])
      expect(yield* StaffAccess.openLink(token)).toEqual({
        purpose: "invite",
        email: "ngozi@example.com",
        firstName: "Ngozi",
        expiresAt: new Date("2026-05-04T08:00:00Z")
      })
      const signedIn = yield* StaffAccess.useLink(token, pw("ngozi's long password"))
      expect(signedIn.admin).toMatchObject({ role: "admin", status: "active" })
      expect((yield* failure(StaffAccess.useLink(token, pw("another long password"))))._tag).toBe("LinkGone")
      expect((yield* failure(StaffAccess.openLink(token)))._tag).toBe("LinkGone")
      expect((yield* signIn("ngozi@example.com", "ngozi's long password")).admin.role).toBe("admin")
      // every step is in the audit log, the email masked
      const rows = yield* AuditRows.all
      expect(rows.map((e) => [e.actorKind, e.action])).toEqual([
        ["system", "staff.bootstrap"],
        ["staff", "staff.invite"],
        ["staff", "staff.password_set"],
        ["staff", "staff.sign_in"]
      ])
      expect(rows[1]).toMatchObject({ actorId: (yield* root).id, targetId: invited.id, after: { email: "n***@example.com", role: "admin" } })
    })))

  it.effect("an invite expires after 72 hours, a reset after 1 hour; a new link revokes the earlier one; unknown tokens are gone too", () =>
    withStaff(Effect.gen(function*() {
      yield* bootstrap
      const r = yield* root
      const invited = yield* StaffAccess.invite(r, { email: "late@example.com", firstName: "Late", lastName: "Comer", role: "officer" })
      const first = yield* Sent.lastCode("staff_invite")
      yield* TestClock.adjust(Duration.hours(72))
      expect((yield* failure(StaffAccess.openLink(first)))._tag).toBe("LinkGone")
      const again = yield* StaffAccess.sendLinkTo(r, invited.id, {})
      expect(again.purpose).toBe("invite")
      const second = yield* Sent.lastCode("staff_invite")
      yield* StaffAccess.sendLinkTo(r, invited.id, { firstName: "Latoya" })
      const third = yield* Sent.lastCode("staff_invite")
      expect((yield* failure(StaffAccess.openLink(second)))._tag).toBe("LinkGone")
      expect((yield* StaffAccess.openLink(third)).firstName).toBe("Latoya")
      yield* StaffAccess.useLink(third, pw("officer's long password"))
      // with a password, a link is a reset, valid for one hour
      expect((yield* StaffAccess.sendLinkTo(r, invited.id, {})).purpose).toBe("reset")
      const reset = yield* Sent.lastCode("staff_password_reset")
      yield* TestClock.adjust(Duration.minutes(59))
      expect((yield* StaffAccess.openLink(reset)).purpose).toBe("reset")
      yield* TestClock.adjust(Duration.minutes(1))
      expect((yield* failure(StaffAccess.useLink(reset, pw("a new long password"))))._tag).toBe("LinkGone")
      expect((yield* failure(StaffAccess.openLink("no-such-token")))._tag).toBe("LinkGone")
    })))

  it.effect("only a superadmin invites; an admin sends links but not to a superadmin; unknown ids and taken emails are refused", () =>
    withStaff(Effect.gen(function*() {
      yield* bootstrap
      const r = yield* root
      const admin = yield* member("admin")
      const support = yield* member("support")
      const input = { email: "x@example.com", firstName: "X", lastName: "Y", role: "officer" as const }
      expect(yield* failure(StaffAccess.invite(admin, input))).toMatchObject({ _tag: "PermissionDenied", permission: "staff:invite" })
      expect((yield* failure(StaffAccess.sendLinkTo(admin, r.id, {})))._tag).toBe("PermissionDenied")
      expect((yield* failure(StaffAccess.sendLinkTo(support, admin.id, {})))._tag).toBe("PermissionDenied")
      expect((yield* StaffAccess.sendLinkTo(admin, support.id, {})).purpose).toBe("reset")
      expect((yield* failure(StaffAccess.sendLinkTo(admin, StaffId.make("00000000-0000-4000-8000-0000000000ff"), {})))._tag).toBe("StaffNotFound")
      expect((yield* failure(StaffAccess.invite(r, { ...input, email: "ADMIN@example.com" })))._tag).toBe("StaffEmailTaken")
      const res = yield* Effect.either(StaffAccess.invite(r, input))
      expect(Either.isRight(res)).toBe(true)
    })))
})
