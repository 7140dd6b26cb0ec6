/**
 * The staff repositories against a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * unique emails, partial updates, single-use links under concurrency, failed sign-ins by key and
 * window, and the staff token's separation from customer tokens.
 */
import { AccessTokens, AccountId, SignInFailures, StaffId, StaffLink, StaffLinkRepo, StaffMember, StaffRepo, StaffTokens, UnitOfWork } from "@app/domain"
import { expect, layer } from "@effect/vitest"
import { Clock, Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"

const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))
const at = new Date("2026-01-01T10:00:00.000Z")
const later = (ms: number) => new Date(at.getTime() + ms)

const newMember = (overrides: Partial<ConstructorParameters<typeof StaffMember>[0]> = {}) =>
  new StaffMember({
    id: StaffId.make(randomUUID()),
    email: `${randomUUID()}@example.com`,
    firstName: "Ngozi",
    lastName: "Eze",
    role: "admin",
    status: "invited",
    passwordHash: null,
    createdAt: at,
    updatedAt: at,
    ...overrides
  })

const newLink = (staffId: StaffId, overrides: Partial<ConstructorParameters<typeof StaffLink>[0]> = {}) =>
  new StaffLink({
    id: randomUUID(),
    staffId,
    purpose: "invite",
    tokenHash: randomUUID(),
    expiresAt: later(3_600_000),
    usedAt: null,
    createdAt: at,
    ...overrides
  })

layer(Repos, { timeout: "60 seconds" })(`staff repositories (${describeBackend()})`, (it) => {
  it.effect("create, find by id and by email in any case; a second member with the email is StaffEmailTaken", () =>
    Effect.gen(function*() {
      const repo = yield* StaffRepo
      const m = newMember()
      yield* repo.create(m)
      expect(Option.getOrThrow(yield* repo.findById(m.id))).toEqual(m)
      expect(Option.getOrThrow(yield* repo.findByEmail(m.email.toUpperCase())).id).toBe(m.id)
      expect((yield* Effect.flip(repo.create(newMember({ email: m.email }))))._tag).toBe("StaffEmailTaken")
      expect(yield* repo.count).toBeGreaterThanOrEqual(1)
      expect(Option.isNone(yield* repo.findById(randomUUID()))).toBe(true)
    }))

  it.effect("update changes only the given fields; an unknown id is none; taking another's email is StaffEmailTaken", () =>
    Effect.gen(function*() {
      const repo = yield* StaffRepo
      const m = newMember()
      const other = newMember()
      yield* repo.create(m)
      yield* repo.create(other)
      const updated = Option.getOrThrow(yield* repo.update(m.id, { passwordHash: "argon2id$x", status: "active", updatedAt: later(1000) }))
      // a password (or status) change moves the token version on: every staff token of the member ends
      expect(updated).toEqual(new StaffMember({ ...m, passwordHash: "argon2id$x", status: "active", updatedAt: later(1000), tokenVersion: 1 }))
      expect(Option.isNone(yield* repo.update(randomUUID(), { firstName: "X", updatedAt: at }))).toBe(true)
      expect((yield* Effect.flip(repo.update(m.id, { email: other.email, updatedAt: at })))._tag).toBe("StaffEmailTaken")
    }))

  it.effect("the token version moves on with a password, email, role or status change and with revokeTokens; not with a name", () =>
    Effect.gen(function*() {
      const repo = yield* StaffRepo
      const m = newMember()
      yield* repo.create(m)
      const version = (patch: Omit<Parameters<typeof repo.update>[1], "updatedAt">) =>
        Effect.map(repo.update(m.id, { ...patch, updatedAt: at }), (u) => Option.getOrThrow(u).tokenVersion)
      expect(yield* version({ firstName: "Ada" })).toBe(0)
      expect(yield* version({ role: "officer" })).toBe(1)
      expect(yield* version({ status: "disabled" })).toBe(2)
      expect(yield* version({ email: `${randomUUID()}@example.com` })).toBe(3)
      expect(yield* version({ passwordHash: "argon2id$y" })).toBe(4)
      expect(yield* version({ revokeTokens: true })).toBe(5)
      expect(yield* version({ lastName: "Obi" })).toBe(5)
    }))

  it.effect("the list: each member with their last sign-in and newest unused invite link; signing in moves no token version", () =>
    Effect.gen(function*() {
      const repo = yield* StaffRepo
      const links = yield* StaffLinkRepo
      const invited = newMember()
      const active = newMember({ status: "active", passwordHash: "argon2id$z", role: "superadmin" })
      yield* repo.create(invited)
      yield* repo.create(active)
      yield* links.insert(newLink(invited.id, { createdAt: at, expiresAt: later(1000) }))
      yield* links.insert(newLink(invited.id, { createdAt: later(5000), expiresAt: later(9000) }))
      yield* links.insert(newLink(invited.id, { createdAt: later(9000), expiresAt: later(10_000), usedAt: later(9500) }))
      yield* links.insert(newLink(active.id, { purpose: "reset" }))
      yield* repo.recordSignIn(active.id, later(2000))
      const rows = yield* repo.list
      const of = (id: string) => rows.find((r) => r.member.id === id)!
      expect(of(invited.id)).toEqual({ member: invited, lastSignInAt: null, invite: { sentAt: later(5000), expiresAt: later(9000) } })
      expect(of(active.id)).toEqual({ member: active, lastSignInAt: later(2000), invite: null })
      // oldest first
      const created = rows.map((r) => r.member.createdAt.getTime())
      expect(created).toEqual([...created].sort((a, b) => a - b))
      // the active superadmins, inside a unit of work (rows locked until it ends)
      const ids = yield* (yield* UnitOfWork).atomically(repo.lockActiveSuperadmins)
      expect(ids).toContain(active.id)
      expect(ids).not.toContain(invited.id)
    }))

  it.effect("an active member must have a password (the database refuses otherwise)", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(Effect.flatMap(StaffRepo, (r) => r.create(newMember({ status: "active", passwordHash: null }))))
      expect(exit._tag).toBe("Failure")
    }))

  it.effect("links: found by digest; revokeOpen spends the open ones of that purpose only; of 10 concurrent uses exactly one wins", () =>
    Effect.gen(function*() {
      const links = yield* StaffLinkRepo
      const m = newMember()
      yield* (yield* StaffRepo).create(m)
      const invite = newLink(m.id)
      const reset = newLink(m.id, { purpose: "reset" })
      yield* links.insert(invite)
      yield* links.insert(reset)
      expect(Option.getOrThrow(yield* links.findByTokenHash(invite.tokenHash))).toEqual(invite)
      yield* links.revokeOpen(m.id, "invite", later(5))
      expect(Option.getOrThrow(yield* links.findByTokenHash(invite.tokenHash)).usedAt).toEqual(later(5))
      expect(Option.getOrThrow(yield* links.findByTokenHash(reset.tokenHash)).usedAt).toBeNull()
      const wins = yield* Effect.all(Array.from({ length: 10 }, () => links.markUsed(reset.id, later(6))), { concurrency: "unbounded" })
      expect(wins.filter((w) => w)).toHaveLength(1)
      expect(yield* links.markUsed(reset.id, later(7))).toBe(false)
    }))

  it.effect("failed sign-ins: counted strictly after `since` with the oldest; clear by key; purge at or before an instant", () =>
    Effect.gen(function*() {
      const failures = yield* SignInFailures
      const key = `ec:${randomUUID()}`
      const other = `c:${randomUUID()}`
      yield* failures.record([key, other], at)
      yield* failures.record([key], later(60_000))
      yield* failures.record([key], later(120_000))
      expect(yield* failures.since(key, later(-1))).toEqual({ count: 3, oldest: Option.some(at) })
      expect(yield* failures.since(key, at)).toEqual({ count: 2, oldest: Option.some(later(60_000)) })
      expect(yield* failures.since(`ec:${randomUUID()}`, at)).toEqual({ count: 0, oldest: Option.none() })
      yield* failures.clear(key)
      expect((yield* failures.since(key, later(-1))).count).toBe(0)
      expect((yield* failures.since(other, later(-1))).count).toBe(1)
      expect(yield* failures.purgeBefore(at)).toBeGreaterThanOrEqual(1)
      expect((yield* failures.since(other, later(-1))).count).toBe(0)
    }))

  it.effect("a staff token verifies as staff and not as a customer token; a customer token does not verify as staff", () =>
    Effect.gen(function*() {
      const staff = yield* StaffTokens
      const customers = yield* AccessTokens
      const id = StaffId.make(randomUUID())
      const { expiresAt, token } = yield* staff.issue(id, 0)
      expect(expiresAt.getTime() - (yield* Clock.currentTimeMillis)).toBe(8 * 3_600_000)
      expect(yield* staff.verify(token)).toEqual(Option.some({ staffId: id, tokenVersion: 0 }))
      expect(yield* staff.verify((yield* staff.issue(id, 3)).token)).toEqual(Option.some({ staffId: id, tokenVersion: 3 }))
      expect(Option.isNone(yield* customers.verify(token))).toBe(true)
      const customerToken = yield* customers.issue({ accountId: AccountId.make(id), sessionVersion: 0 })
      expect(Option.isNone(yield* staff.verify(customerToken))).toBe(true)
    }))
})
