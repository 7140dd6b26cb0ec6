/**
 * FreezeRepoSql, ApprovalRepoSql and the movement change trigger against a real database: PGlite,
 * or PostgreSQL when TEST_DATABASE_URL is set (where concurrent claims really race on connections).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { ApprovalId, CustomerId, FreezeId, StaffAccess, StaffId, StaffMember, StaffRepo } from "@app/domain"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"
import { newCustomer } from "../src/testing/Customers.js"

const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))
const { Approval, ApprovalRepo } = StaffAccess.Approvals
const { CustomerFreeze, FreezeRepo } = StaffAccess.Freezes

const at = new Date("2026-03-01T09:00:00.000Z")
const later = (ms: number) => new Date(at.getTime() + ms)

const staffMember = Effect.gen(function*() {
  const member = new StaffMember({
    id: StaffId.make(randomUUID()),
    email: `repo-${randomUUID().slice(0, 8)}@kobo.test`,
    firstName: "Staff",
    lastName: "Member",
    role: "admin",
    status: "invited",
    passwordHash: null,
    createdAt: at,
    updatedAt: at
  })
  yield* (yield* StaffRepo).create(member)
  return member
})

const pendingFreeze = (customerId: CustomerId, staffId: StaffId) =>
  new CustomerFreeze({
    id: FreezeId.make(randomUUID()),
    customerId,
    staffId,
    reason: "repository test",
    previousStatus: "active",
    state: "pending_provider",
    providerReference: null,
    requestedAt: at,
    updatedAt: at,
    liftedAt: null,
    liftedBy: null
  })

layer(Repos, { timeout: "60 seconds" })(`freezes, approvals and the movement feed (${describeBackend()})`, (it) => {
  describe("FreezeRepoSql", () => {
    it.effect("one open freeze per customer; a pending one is claimed once, leased, then again once the lease passes", () =>
      Effect.gen(function*() {
        const repo = yield* FreezeRepo
        const staff = yield* staffMember
        const customer = yield* newCustomer("freeze", "61", at)
        const freeze = pendingFreeze(customer.id, staff.id)
        yield* repo.insert(freeze)
        expect(Option.getOrThrow(yield* repo.findOpen(customer.id))).toEqual(freeze)
        const twin = yield* Effect.exit(repo.insert(pendingFreeze(customer.id, staff.id)))
        expect(twin._tag).toBe("Failure")

        const claims = yield* Effect.all(
          Array.from({ length: 6 }, () => repo.claimPending(freeze.id, later(1000), later(61_000), 10)),
          { concurrency: "unbounded" }
        )
        expect(claims.map((c) => c.length).reduce((a, b) => a + b, 0)).toBe(1)
        expect(yield* repo.claimPending(undefined, later(30_000), later(90_000), 10)).toEqual([])
        const again = yield* repo.claimPending(undefined, later(62_000), later(122_000), 10)
        expect(again.map((f) => f.id)).toContain(freeze.id)

        const frozen = new CustomerFreeze({ ...freeze, state: "frozen", providerReference: "FRZ1", updatedAt: later(70_000) })
        yield* repo.save(frozen)
        expect(Option.getOrThrow(yield* repo.findOpen(customer.id))).toEqual(frozen)
        expect(yield* repo.claimPending(undefined, later(600_000), later(660_000), 10)).toEqual([])
        yield* repo.save(new CustomerFreeze({ ...frozen, liftedAt: later(80_000), liftedBy: staff.id }))
        expect(yield* repo.findOpen(customer.id)).toEqual(Option.none())
        // lifted, a new freeze may open
        yield* repo.insert(pendingFreeze(customer.id, staff.id))
      }))
  })

  describe("ApprovalRepoSql", () => {
    it.effect("round-trips both kinds; a transition happens once however many race; lists by kind and status with totals", () =>
      Effect.gen(function*() {
        const repo = yield* ApprovalRepo
        const staff = yield* staffMember
        const approval = (action: StaffAccess.Approvals.ApprovalAction, minutes: number) =>
          new Approval({
            id: ApprovalId.make(randomUUID()),
            action,
            status: "pending",
            requestedBy: staff.id,
            requestedAt: later(minutes * 60_000),
            decidedBy: null,
            decidedAt: null,
            note: null
          })
        const setting = approval({ _tag: "settings.update", key: "fees.nip", value: { tiers: [{ upToKobo: null, feeKobo: "5000" }] } }, 1)
        const unfreeze = approval({ _tag: "customer.unfreeze", customerId: CustomerId.make(randomUUID()), freezeId: FreezeId.make(randomUUID()) }, 2)
        yield* repo.insert(setting)
        yield* repo.insert(unfreeze)
        expect(Option.getOrThrow(yield* repo.find(setting.id))).toEqual(setting)
        expect(Option.getOrThrow(yield* repo.find(unfreeze.id))).toEqual(unfreeze)
        expect(yield* repo.find(ApprovalId.make(randomUUID()))).toEqual(Option.none())
        // a request filed before unfreezes were bound to a freeze reads as bound to none
        const legacyId = ApprovalId.make(randomUUID())
        const sql = yield* SqlClient.SqlClient
        yield* sql`
          INSERT INTO staff_approvals (id, kind, action, status, requested_by, requested_at)
          VALUES (${legacyId}, 'customer.unfreeze', ${JSON.stringify({ _tag: "customer.unfreeze", customerId: unfreeze.id })},
            'pending', ${staff.id}, ${later(0)})`
        expect(Option.getOrThrow(yield* repo.find(legacyId)).action).toEqual({ _tag: "customer.unfreeze", customerId: unfreeze.id, freezeId: null })

        const wins = yield* Effect.all(
          Array.from({ length: 6 }, () => repo.transition(unfreeze.id, "pending", "approved", staff.id, later(600_000), null)),
          { concurrency: "unbounded" }
        )
        expect(wins.filter(Boolean).length).toBe(1)
        expect(Option.getOrThrow(yield* repo.find(unfreeze.id))).toMatchObject({ status: "approved", decidedBy: staff.id })

        const both = yield* repo.list({ kinds: ["settings.update", "customer.unfreeze"] }, { page: 1, pageSize: 1 })
        expect(both.total).toBeGreaterThanOrEqual(2)
        expect(both.items).toHaveLength(1)
        const pendingSettings = yield* repo.list({ kinds: ["settings.update"], status: "pending" }, { page: 1, pageSize: 50 })
        expect(pendingSettings.items.map((a) => a.id)).toContain(setting.id)
        expect(pendingSettings.items.every((a) => a.action._tag === "settings.update" && a.status === "pending")).toBe(true)
      }))
  })

  describe("the movement change trigger", () => {
    /** A new customer's pending deposit of ₦1,500, inserted as a row (the trigger sees the insert). */
    const pendingDeposit = (tag: string, accountPrefix: string) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const customer = yield* newCustomer(tag, accountPrefix, at)
        const id = randomUUID()
        yield* sql`
          INSERT INTO transactions (id, customer_id, type, purpose, amount_kobo, status, created_at, updated_at)
          VALUES (${id}, ${customer.id}, 'credit', 'deposit', 150000, 'pending', ${at}, ${at})`
        return { customer, id }
      })

    it.effect("an inserted row and each state change are captured with before and after; other updates are not", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { customer, id } = yield* pendingDeposit("feed", "62")
        yield* sql`UPDATE transactions SET narration = 'no state change', updated_at = ${later(1)} WHERE id = ${id}`
        yield* sql`UPDATE transactions SET status = 'confirmed', updated_at = ${later(2)} WHERE id = ${id}`
        const rows = yield* sql<{ before: any; after: any }>`
          SELECT before, after FROM movement_changes WHERE transaction_id = ${id} ORDER BY id`
        // exactly these keys and values: the trigger's function was rewritten (0023) to cost less
        const state = (status: string) => ({
          status,
          debitState: "none",
          transferState: "none",
          reversalState: "none",
          pndLifted: false,
          lienPlaced: false,
          restored: true,
          failureReason: null
        })
        expect(rows).toEqual([
          {
            before: null,
            after: { ...state("pending"), type: "credit", purpose: "deposit", amountKobo: "150000", feeKobo: "0", planId: null }
          },
          { before: state("pending"), after: state("confirmed") }
        ])
        expect(JSON.stringify(rows)).not.toContain(customer.coreAccountNumber!)

        // folded into the chain once, in order; the feed is emptied and the chain verifies
        const folded = yield* StaffAccess.MovementAudit.foldMovementChanges
        expect(folded).toBeGreaterThanOrEqual(2)
        expect(yield* sql`SELECT 1 FROM movement_changes WHERE transaction_id = ${id}`).toHaveLength(0)
        const audit = yield* (yield* StaffAccess.Audit.AuditRepo).list({ targetKind: "transaction", targetId: id }, { page: 1, pageSize: 10 })
        expect(audit.items.map((e) => e.action).reverse()).toEqual(["movement.created", "movement.changed"])
        expect(yield* StaffAccess.Audit.verify).toMatchObject({ ok: true })
      }))

    it.effect("a change of any one of the eight state columns is captured; lease and epoch alone are not", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { id } = yield* pendingDeposit("feed8", "63")
        // what the saga writes with every step: no state change
        yield* sql`UPDATE transactions SET lease_until = ${later(5)}, epoch = epoch + 1, updated_at = ${later(5)} WHERE id = ${id}`
        const changes = [
          sql`UPDATE transactions SET pnd_lifted = true WHERE id = ${id}`,
          sql`UPDATE transactions SET lien_placed = true WHERE id = ${id}`,
          sql`UPDATE transactions SET debit_state = 'attempted' WHERE id = ${id}`,
          sql`UPDATE transactions SET transfer_state = 'attempted' WHERE id = ${id}`,
          sql`UPDATE transactions SET reversal_state = 'attempted' WHERE id = ${id}`,
          sql`UPDATE transactions SET restored = false WHERE id = ${id}`,
          sql`UPDATE transactions SET failure_reason = 'x' WHERE id = ${id}`,
          sql`UPDATE transactions SET status = 'failed' WHERE id = ${id}`
        ]
        for (const change of changes) yield* change
        const rows = yield* sql<{ before: any; after: any }>`
          SELECT before, after FROM movement_changes WHERE transaction_id = ${id} ORDER BY id`
        // the insert, then one row per change, each differing from the one before in its column only
        expect(rows).toHaveLength(1 + changes.length)
        const changed = rows.slice(1).map((r) =>
          Object.keys(r.after).filter((k) => JSON.stringify(r.after[k]) !== JSON.stringify(r.before[k])))
        expect(changed).toEqual([
          ["pndLifted"],
          ["lienPlaced"],
          ["debitState"],
          ["transferState"],
          ["reversalState"],
          ["restored"],
          ["failureReason"],
          ["status"]
        ])
      }))
  })
})
