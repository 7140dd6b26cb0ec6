/**
 * The audit log's hash chain: rows link to their predecessor, `verify` passes an intact chain and
 * names the first row of an edited, deleted or inserted one.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import * as Audit from "../src/admin/Audit.js"
import { AuditEntry, GENESIS_HASH } from "../src/admin/Audit.js"
import { InMemoryLayer } from "./support/InMemory.js"
import { AuditRows, InMemoryAuditLive, sha256Hex } from "./support/InMemoryAudit.js"

const withAudit = <A, E>(self: Effect.Effect<A, E, any>): Effect.Effect<A, E> =>
  Effect.provide(self, Layer.merge(InMemoryLayer, InMemoryAuditLive)) as Effect.Effect<A, E>

const freeze = (n: number) =>
  Audit.record({
    actorKind: "staff",
    actorId: "staff-1",
    action: "customer.freeze",
    targetKind: "customer",
    targetId: `customer-${n}`,
    before: { status: "active" },
    after: { status: "suspended", reason: `case ${n}` }
  })

const three = Effect.gen(function*() {
  yield* TestClock.setTime(Date.parse("2026-06-01T09:00:00Z"))
  for (let n = 1; n <= 3; n++) {
    yield* freeze(n)
    yield* TestClock.adjust("1 minute")
  }
})

describe("the test SHA-256", () => {
  it("matches the standard vectors", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    expect(sha256Hex("a".repeat(1000))).toBe("41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    expect(sha256Hex("₦")).toBe(sha256Hex("\u20a6"))
  })
})

describe("Audit.record", () => {
  it.effect("appends rows 1, 2, 3, each hashing its predecessor's hash and its canonical content", () =>
    withAudit(Effect.gen(function*() {
      yield* three
      const rows = yield* AuditRows.all
      expect(rows.map((e) => e.seq)).toEqual([1, 2, 3])
      expect(rows[0]!.prevHash).toBe(GENESIS_HASH)
      expect(rows[1]!.prevHash).toBe(rows[0]!.hash)
      expect(rows[2]!.prevHash).toBe(rows[1]!.hash)
      expect(rows[0]!.at.toISOString()).toBe("2026-06-01T09:00:00.000Z")
      expect(rows[0]!.hash).toBe(sha256Hex(`${GENESIS_HASH}\n${Audit.canonical(rows[0]!)}`))
      expect(yield* Audit.verify).toEqual({ ok: true, rows: 3, lastHash: rows[2]!.hash })
    })))

  it("the canonical row does not depend on key order, and renders dates and bigints as text", () => {
    const base = { seq: 1, at: new Date(0), actorKind: "staff" as const, actorId: "a", action: "x", targetKind: "t", targetId: "1" }
    expect(Audit.canonical({ ...base, before: { b: 1, a: { d: 2, c: 3 } }, after: null }))
      .toBe(Audit.canonical({ ...base, before: { a: { c: 3, d: 2 }, b: 1 }, after: null }))
    expect(Audit.canonical({ ...base, before: null, after: { amount: 5n, at: new Date(0) } })).toContain(
      "\"after\":{\"amount\":\"5\",\"at\":\"1970-01-01T00:00:00.000Z\"}"
    )
  })
})

describe("Audit.verify", () => {
  it.effect("an empty log is intact", () =>
    withAudit(Effect.map(Audit.verify, (r) => expect(r).toEqual({ ok: true, rows: 0, lastHash: GENESIS_HASH }))))

  it.effect("an edited after-value is caught at that row", () =>
    withAudit(Effect.gen(function*() {
      yield* three
      yield* AuditRows.edit(2, (e) => new AuditEntry({ ...e, after: { status: "active" } }))
      expect(yield* Audit.verify).toEqual({ ok: false, rows: 1, brokenAt: 2, reason: "its content does not match its hash" })
    })))

  it.effect("an edited row whose hash is recomputed breaks the next row's link", () =>
    withAudit(Effect.gen(function*() {
      yield* three
      yield* AuditRows.edit(2, (e) => {
        const forged = { ...e, actorId: "someone-else" }
        return new AuditEntry({ ...forged, hash: sha256Hex(`${e.prevHash}\n${Audit.canonical(forged)}`) })
      })
      expect(yield* Audit.verify).toMatchObject({ ok: false, brokenAt: 3, reason: "its previous hash is not the previous row's hash" })
    })))

  it.effect("a deleted row is caught where it is missing; so is a changed first row", () =>
    withAudit(Effect.gen(function*() {
      yield* three
      yield* AuditRows.remove(2)
      expect(yield* Audit.verify).toMatchObject({ ok: false, brokenAt: 3, reason: "row 2 is missing" })
      yield* AuditRows.edit(1, (e) => new AuditEntry({ ...e, at: new Date(0) }))
      expect(yield* Audit.verify).toMatchObject({ ok: false, brokenAt: 1 })
    })))
})
