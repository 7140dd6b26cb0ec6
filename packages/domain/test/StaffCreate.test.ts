/**
 * A staff member created active with a password (the CLI's `admin create`), in the domain: who may,
 * the password rule, a taken email, the audit row, and signing in with the password afterwards.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import * as StaffAccess from "../src/admin/StaffAccess.js"
import { createWithPassword } from "../src/admin/StaffCreate.js"
import { StaffRepo } from "../src/admin/StaffPorts.js"
import { InMemoryLayer, Sent } from "./support/InMemory.js"
import { AuditRows, InMemoryAuditLive } from "./support/InMemoryAudit.js"
import { InMemoryStaffLive } from "./support/InMemoryStaff.js"

const withStaff = <A, E>(self: Effect.Effect<A, E, any>): Effect.Effect<A, E> =>
  Effect.provide(self, Layer.mergeAll(InMemoryLayer, InMemoryStaffLive, InMemoryAuditLive)) as Effect.Effect<A, E>

const ROOT = { email: "root@example.com", password: "a long root password" }
const byEmail = (email: string) => Effect.flatMap(StaffRepo, (r) => r.findByEmail(email))
const root = Effect.gen(function*() {
  yield* StaffAccess.bootstrapSuperadmin(ROOT.email, Redacted.make(ROOT.password))
  return Option.getOrThrow(yield* byEmail(ROOT.email))
})
const input = (overrides: Partial<{ email: string; password: string; role: "admin" | "support" }> = {}) => ({
  email: overrides.email ?? "Ngozi@Example.com",
  firstName: "Ngozi",
  lastName: "Eze",
  role: overrides.role ?? "admin",
  password: Redacted.make(overrides.password ?? "twelve chars")
})

describe("admin create", () => {
  it.effect("a superadmin creates an active member who signs in with the password at once; no email is sent; audited without the password", () =>
    withStaff(Effect.gen(function*() {
      const actor = yield* root
      const created = yield* createWithPassword(actor, input())
      expect(created).toMatchObject({ email: "ngozi@example.com", firstName: "Ngozi", role: "admin", status: "active" })
      expect(created).not.toHaveProperty("passwordHash")
      const stored = Option.getOrThrow(yield* byEmail("ngozi@example.com"))
      expect(stored.passwordHash).toBe("hash:twelve chars") // through the PasswordHasher port
      expect((yield* Sent.all).filter((m) => m.kind === "staff_invite")).toEqual([])
      const signedIn = yield* StaffAccess.signIn({ email: "ngozi@example.com", password: Redacted.make("twelve chars"), client: "203.0.113.7" })
      expect(signedIn.admin).toMatchObject({ id: created.id, role: "admin" })
      const row = (yield* AuditRows.all).find((r) => r.action === "staff.create")!
      expect(row).toMatchObject({ actorKind: "staff", actorId: actor.id, targetKind: "staff", targetId: created.id })
      expect(row.after).toEqual({ email: "n***@example.com", role: "admin", status: "active" })
      expect(JSON.stringify(yield* AuditRows.all)).not.toContain("twelve chars")
    })))

  it.effect("only a superadmin (staff:invite); a taken email is refused whatever its case, and nothing is stored or audited", () =>
    withStaff(Effect.gen(function*() {
      const actor = yield* root
      const admin = yield* createWithPassword(actor, input())
      const asAdmin = Option.getOrThrow(yield* Effect.flatMap(StaffRepo, (r) => r.findById(admin.id)))
      const denied = yield* Effect.flip(createWithPassword(asAdmin, input({ email: "other@example.com" })))
      expect(denied).toMatchObject({ _tag: "PermissionDenied", permission: "staff:invite" })
      const taken = yield* Effect.flip(createWithPassword(actor, input({ email: "NGOZI@example.com ", role: "support" })))
      expect(taken._tag).toBe("StaffEmailTaken")
      expect(yield* Effect.flatMap(StaffRepo, (r) => r.count)).toBe(2)
      expect((yield* AuditRows.all).filter((r) => r.action === "staff.create")).toHaveLength(1)
    })))

  it.effect("a password of 12 to 128 characters and a valid email, else InvalidStaffInput", () =>
    withStaff(Effect.gen(function*() {
      const actor = yield* root
      for (const [email, password] of [["a@example.com", "x".repeat(11)], ["b@example.com", "x".repeat(129)], ["not-an-email", "x".repeat(12)]] as const) {
        const refused = yield* Effect.flip(createWithPassword(actor, input({ email, password })))
        expect(refused._tag).toBe("InvalidStaffInput")
      }
      expect((yield* createWithPassword(actor, input({ email: "c@example.com", password: "x".repeat(128) }))).status).toBe("active")
      expect(yield* Effect.flatMap(StaffRepo, (r) => r.count)).toBe(2)
    })))
})
