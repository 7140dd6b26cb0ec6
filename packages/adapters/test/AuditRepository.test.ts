/**
 * AuditRepoSql against a real database: concurrent appends (from many connections on PostgreSQL)
 * form one unbroken chain; a rolled-back action leaves no row; list filters and pages.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { StaffAccess, UnitOfWork } from "@app/domain"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"

const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))
const { Audit } = StaffAccess

const note = (targetId: string, n: number) =>
  Audit.record({ actorKind: "staff", actorId: "staff-1", action: "test.note", targetKind: "thing", targetId, after: { n, big: 10n ** 20n } })

layer(Repos, { timeout: "60 seconds" })(`AuditRepoSql (${describeBackend()})`, (it) => {
  it.effect("30 concurrent appends make one chain 1..N that verifies; before/after read back as written", () =>
    Effect.gen(function*() {
      const target = randomUUID()
      yield* Effect.all(Array.from({ length: 30 }, (_, n) => note(target, n)), { concurrency: "unbounded" })
      const result = yield* Audit.verify
      expect(result).toMatchObject({ ok: true })
      const page = yield* (yield* StaffAccess.Audit.AuditRepo).list({ targetId: target }, { page: 1, pageSize: 100 })
      expect(page.total).toBe(30)
      expect(page.items.map((e) => (e.after as any).n).sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n))
      expect((page.items[0]!.after as any).big).toBe("100000000000000000000")
      const seqs = page.items.map((e) => e.seq)
      expect(seqs).toEqual([...seqs].sort((a, b) => b - a))
    }))

  it.effect("a row recorded in a unit of work that fails is rolled back with it, and the chain stays whole", () =>
    Effect.gen(function*() {
      const target = randomUUID()
      const uow = yield* UnitOfWork
      yield* Effect.either(uow.atomically(Effect.zipRight(note(target, 1), Effect.fail("boom"))))
      yield* note(randomUUID(), 2)
      const page = yield* (yield* StaffAccess.Audit.AuditRepo).list({ targetId: target }, { page: 1, pageSize: 10 })
      expect(page.total).toBe(0)
      expect(yield* Audit.verify).toMatchObject({ ok: true })
    }))

  it.effect("list: filters by actor, action and time, pages newest first", () =>
    Effect.gen(function*() {
      const actor = `actor-${randomUUID()}`
      for (let n = 0; n < 5; n++) {
        yield* Audit.record({ actorKind: "staff", actorId: actor, action: n % 2 === 0 ? "a.even" : "a.odd", targetKind: "t", targetId: "x" })
      }
      const repo = yield* StaffAccess.Audit.AuditRepo
      const page2 = yield* repo.list({ actorId: actor }, { page: 2, pageSize: 2 })
      expect(page2.total).toBe(5)
      expect(page2.items).toHaveLength(2)
      expect((yield* repo.list({ actorId: actor, action: "a.even" }, { page: 1, pageSize: 10 })).total).toBe(3)
      expect((yield* repo.list({ actorId: actor, until: new Date(0) }, { page: 1, pageSize: 10 })).total).toBe(0)
      const sql = yield* SqlClient.SqlClient
      const head = yield* sql<{ seq: string | number }>`SELECT seq FROM audit_head`
      const max = yield* sql<{ seq: string | number }>`SELECT max(seq) AS seq FROM audit_log`
      expect(Number(head[0]!.seq)).toBe(Number(max[0]!.seq))
    }))
})
