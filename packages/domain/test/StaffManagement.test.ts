/**
 * Staff management in the domain, under the TestClock: the list's last sign-in and pending invite
 * (expired after 72 hours), and the actor re-checked inside the unit of work: a member object held
 * from before their own demotion or sign-out acts as nobody (StaffUnauthenticated).
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Option, Redacted, TestClock } from "effect"
import * as StaffAccess from "../src/admin/StaffAccess.js"
import * as StaffManagement from "../src/admin/StaffManagement.js"
import { StaffRepo } from "../src/admin/StaffPorts.js"
import { StaffId } from "../src/shared/Ids.js"
import { InMemoryLayer, Sent } from "./support/InMemory.js"
import { AuditRows, InMemoryAuditLive } from "./support/InMemoryAudit.js"
import { InMemoryStaffLive } from "./support/InMemoryStaff.js"

const withStaff = <A, E>(self: Effect.Effect<A, E, any>): Effect.Effect<A, E> =>
  Effect.provide(self, Layer.mergeAll(InMemoryLayer, InMemoryStaffLive, InMemoryAuditLive)) as Effect.Effect<A, E>

const failure = <A, E>(self: Effect.Effect<A, E, any>) => Effect.flip(self) as Effect.Effect<E, A, any>
const find = (id: string) => Effect.flatMap(StaffRepo, (r) => r.findById(id)).pipe(Effect.map(Option.getOrThrow))

/** The bootstrapped superadmin, and a member of `role` invited by them who set a password. */
const setUp = Effect.gen(function*() {
  yield* TestClock.setTime(Date.parse("2026-05-01T08:00:00Z"))
  yield* StaffAccess.bootstrapSuperadmin("root@example.com", Redacted.make("a long root password"))
  const root = Option.getOrThrow(yield* (yield* StaffRepo).findByEmail("root@example.com"))
  const join = (email: string, role: "superadmin" | "admin" | "officer") =>
    Effect.gen(function*() {
      const invited = yield* StaffAccess.invite(root, { email, firstName: "Ada", lastName: "Obi", role })
      yield* StaffAccess.useLink(yield* Sent.lastCode("staff_invite"), Redacted.make(`${role} long password`))
      return yield* find(invited.id)
    })
  return { root, join }
})

describe("staff management", () => {
  it.effect("the list: last sign-in once known; a pending invite, expired after its 72 hours", () =>
    withStaff(Effect.gen(function*() {
      const { join, root } = yield* setUp
      const officer = yield* join("officer@example.com", "officer")
      yield* TestClock.adjust(Duration.hours(1))
      const pending = yield* StaffAccess.invite(root, { email: "new@example.com", firstName: "Chioma", lastName: "Nwosu", role: "admin" })
      const list = (yield* StaffManagement.listStaff(root))
      const of = (id: string) => list.find((e) => e.id === id)!
      expect(of(root.id)).toMatchObject({ role: "superadmin", status: "active", lastSignInAt: null, pendingInvite: null })
      expect(of(officer.id)).toMatchObject({ status: "active", lastSignInAt: new Date("2026-05-01T08:00:00Z"), pendingInvite: null })
      expect(of(pending.id).pendingInvite).toEqual({
        sentAt: new Date("2026-05-01T09:00:00Z"),
        expiresAt: new Date("2026-05-04T09:00:00Z"),
        expired: false
      })
      yield* TestClock.adjust(Duration.hours(72))
      expect((yield* StaffManagement.listStaff(root)).find((e) => e.id === pending.id)!.pendingInvite?.expired).toBe(true)
      // a password sign-in is recorded too
      yield* StaffAccess.signIn({ email: "root@example.com", password: Redacted.make("a long root password"), client: "203.0.113.7" })
      expect((yield* StaffManagement.listStaff(root)).find((e) => e.id === root.id)!.lastSignInAt).toEqual(new Date("2026-05-04T09:00:00Z"))
      // only a superadmin lists
      expect(yield* failure(StaffManagement.listStaff(officer))).toMatchObject({ _tag: "PermissionDenied", permission: "staff:read" })
    })))

  it.effect("an actor demoted (or signed out) since they were read acts as nobody; the target is untouched", () =>
    withStaff(Effect.gen(function*() {
      const { join, root } = yield* setUp
      const second = yield* join("second@example.com", "superadmin")
      const target = yield* join("target@example.com", "admin")
      yield* StaffManagement.changeRole(root, second.id, "admin")
      // `second` as read before the demotion still says superadmin: the permission check passes, the lock does not
      expect((yield* failure(StaffManagement.deactivate(second, target.id)))._tag).toBe("StaffUnauthenticated")
      expect((yield* failure(StaffManagement.changeRole(second, root.id, "officer")))._tag).toBe("StaffUnauthenticated")
      // a superadmin who signed out since: same
      const third = yield* join("third@example.com", "superadmin")
      yield* StaffAccess.signOut(third)
      expect((yield* failure(StaffManagement.deactivate(third, target.id)))._tag).toBe("StaffUnauthenticated")
      expect(yield* find(target.id)).toMatchObject({ role: "admin", status: "active" })
      expect(yield* find(root.id)).toMatchObject({ role: "superadmin", status: "active" })
      // one audit row for the one change made
      expect((yield* AuditRows.all).filter((r) => r.action === "staff.role_changed")).toHaveLength(1)
    })))

  it.effect("nobody changes their own role or deactivates themselves; unknown ids are StaffNotFound", () =>
    withStaff(Effect.gen(function*() {
      const { root } = yield* setUp
      expect(yield* failure(StaffManagement.changeRole(root, root.id, "admin"))).toMatchObject({ _tag: "OwnStaffChange", action: "change_role" })
      expect(yield* failure(StaffManagement.deactivate(root, root.id))).toMatchObject({ _tag: "OwnStaffChange", action: "deactivate" })
      const missing = StaffId.make("00000000-0000-4000-8000-000000000000")
      expect((yield* failure(StaffManagement.reactivate(root, missing)))._tag).toBe("StaffNotFound")
      expect(yield* find(root.id)).toMatchObject({ role: "superadmin", status: "active" })
    })))
})
