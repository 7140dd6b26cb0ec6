/**
 * ClosureRepoSql and AccountErasureSql against a real database: PGlite, or PostgreSQL when
 * TEST_DATABASE_URL is set.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { AccountClosure, AccountErasure, AccountRepo, ClosureRepo, CustomerId, DeletionId, DeletionRecord, UnitOfWork } from "@app/domain"
import { Effect, Exit, Layer, Option, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest, DevelopmentSecrets } from "../src/AppConfig.js"
import { OUTBOX_HOLD, readRetained } from "../src/lifecycle/AccountErasureSql.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"
import { newCustomer as newCustomerOf } from "../src/testing/Customers.js"

const Repos = () => adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const at = new Date("2026-01-01T10:00:00.000Z")
const newCustomer = newCustomerOf("lifecycle", "41", at)

const closure = (customerId: CustomerId, overrides: Partial<ConstructorParameters<typeof AccountClosure>[0]> = {}) =>
  new AccountClosure({
    id: randomUUID(),
    customerId,
    idempotencyKey: randomUUID(),
    requestHash: "h",
    transactionId: null,
    amountKobo: 0n,
    planId: null,
    status: "closing",
    freezeReference: null,
    deleteRequested: false,
    deleteVia: null,
    createdAt: at,
    updatedAt: at,
    closedAt: null,
    ...overrides
  })

const inAMinute = () => new Date(Date.now() + 60_000)

const KEY = Redacted.make(DevelopmentSecrets.RETENTION_KEY)

/** A customer with distinctive personal data (none of it can occur in base64 by chance: '-', ' ', '@'). */
const personalCustomer = Effect.gen(function*() {
  const c = yield* newCustomer
  const sql = yield* SqlClient.SqlClient
  const n = randomUUID().slice(0, 6)
  const person = {
    phone: `+23480${Math.floor(Math.random() * 1e8).toString().padStart(8, "0")}`,
    firstName: `Chiamaka-${n}`,
    lastName: `Okonkwo-${n}`,
    otherNames: `Ngozi-${n}`,
    address: `12 Adeola Odeku Street ${n}, Lagos`
  }
  yield* sql`
    UPDATE accounts SET phone = ${person.phone}, first_name = ${person.firstName}, last_name = ${person.lastName},
      other_names = ${person.otherNames}, address = ${person.address}
    WHERE id = ${c.accountId}`
  const [row] = yield* sql<{ email: string }>`SELECT email FROM accounts WHERE id = ${c.accountId}`
  return { ...c, ...person, email: row!.email }
})

/** Queues a message in notification_outbox (as OutboxQueueSql does), answering its id. */
const queued = (recipient: string, kind: string, status: "pending" | "sent" | "failed" = "pending") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = randomUUID()
    const payload = JSON.stringify({ channel: "email", to: recipient, kind, subject: "Hello", text: `Dear customer at ${recipient}` })
    yield* sql`
      INSERT INTO notification_outbox (id, channel, recipient, kind, payload, status, next_attempt_at, created_at)
      VALUES (${id}, 'email', ${recipient}, ${kind}, ${payload}, ${status}, ${at}, ${at})`
    return id
  })

layer(Repos(), { timeout: "60 seconds" })(`ClosureRepo and AccountErasure (${describeBackend()})`, (it) => {
  describe("ClosureRepo", () => {
    it.effect("one closing closure per customer; a key once per customer; claims are exclusive until saved", () =>
      Effect.gen(function*() {
        const repo = yield* ClosureRepo
        const c = yield* newCustomer
        const first = closure(c.id)
        expect(yield* repo.insert(first)).toBe(true)
        expect(Option.getOrThrow(yield* repo.findByKey(c.id, first.idempotencyKey)).id).toBe(first.id)
        expect(Option.getOrThrow(yield* repo.findOpen(c.id)).id).toBe(first.id)
        // a second closing one, or the same key again, is refused by the database (nothing stored)
        expect(yield* repo.insert(closure(c.id))).toBe(false)
        expect(yield* repo.insert(closure(c.id, { idempotencyKey: first.idempotencyKey, status: "failed" }))).toBe(false)
        // claims: exclusive while the lease is live; the claim job takes it too (no sweep: settled)
        const now = new Date()
        expect(Option.isSome(yield* repo.claim(first.id, now, inAMinute()))).toBe(true)
        expect(Option.isNone(yield* repo.claim(first.id, now, inAMinute()))).toBe(true)
        expect((yield* repo.claimSettled(now, inAMinute(), 100)).map((k) => k.id)).not.toContain(first.id)
        // a deletion asked for meanwhile is not lost by the holder's save
        yield* repo.requestDeletion(first.id, "web", now)
        yield* repo.save(first)
        const saved = Option.getOrThrow(yield* repo.findById(first.id))
        expect(saved).toMatchObject({ deleteRequested: true, deleteVia: "web" })
        expect((yield* repo.claimSettled(now, inAMinute(), 100)).map((k) => k.id)).toContain(first.id)
        // closed with the deletion asked for: still work while the customer is closed
        yield* repo.save(new AccountClosure({ ...saved, status: "closed", closedAt: now }))
        yield* (yield* AccountRepo).transitionStatus(c.accountId, "active", "closed", now)
        expect(Option.isSome(yield* repo.claim(first.id, now, inAMinute()))).toBe(true)
        yield* repo.save(new AccountClosure({ ...saved, status: "closed", closedAt: now }))
        yield* (yield* AccountRepo).transitionStatus(c.accountId, "closed", "deleted", now)
        expect(Option.isNone(yield* repo.claim(first.id, now, inAMinute()))).toBe(true)
      }))
  })

  describe("AccountErasure", () => {
    it.effect("erases once, tombstones the account, frees the BVN, retains the KYC record; purge after retainUntil", () =>
      Effect.gen(function*() {
        const erasure = yield* AccountErasure
        const c = yield* newCustomer
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE customers SET bvn_hash = ${`bvn-${c.id}`} WHERE id = ${c.id}`
        const deletionId = DeletionId.make(randomUUID())
        const retainUntil = new Date(Date.now() + 1000)
        const input = { customerId: c.id, accountId: c.accountId, deletionId, retainUntil, now: at, coreAccountDigest: null }
        const counts = yield* (yield* UnitOfWork).atomically(erasure.erase(input))
        expect(Option.getOrThrow(counts)).toMatchObject({ transactions: 0, beneficiaries: 0, plans: 0 })
        expect(Option.isNone(yield* erasure.erase({ ...input, deletionId: DeletionId.make(randomUUID()) }))).toBe(true)
        const found = Option.getOrThrow(yield* (yield* AccountRepo).findById(c.accountId))
        expect(found.account).toMatchObject({ email: `deleted-${c.accountId}@deleted.invalid`, phone: null, firstName: null })
        expect(found.customer).toMatchObject({ customerStatus: "deleted", bvnHash: null, coreAccountNumber: null })
        yield* erasure.recordDeletion(new DeletionRecord({
          id: deletionId,
          customerId: c.id,
          status: "pending_review",
          via: null,
          counts: Option.getOrThrow(counts),
          planId: null,
          lastBalanceKobo: 12n,
          retainUntil,
          createdAt: at
        }))
        expect(Option.getOrThrow(yield* erasure.findDeletion(c.id))).toMatchObject({ lastBalanceKobo: 12n, retainUntil })
        const kept = yield* sql<{ kind: string }>`SELECT kind FROM retained_records WHERE deletion_id = ${deletionId}`
        expect(kept.map((k) => k.kind)).toEqual(["kyc"])
        const [kyc] = yield* readRetained(KEY, deletionId)
        expect(kyc).toMatchObject({ kind: "kyc", record: { firstName: "Ada", bvnHash: `bvn-${c.id}`, customerId: c.id } })
        expect(yield* erasure.purgeRetained(new Date(retainUntil.getTime() - 1))).toBe(0)
        expect(yield* erasure.purgeRetained(new Date(retainUntil.getTime() + 1))).toBeGreaterThanOrEqual(1)
      }))

    it.effect("retained records are sealed (AES-256-GCM under RETENTION_KEY), keyed by the deletion only; the key opens them, no other", () =>
      Effect.gen(function*() {
        const erasure = yield* AccountErasure
        const sql = yield* SqlClient.SqlClient
        const c = yield* personalCustomer
        const deletionId = DeletionId.make(randomUUID())
        const retainUntil = new Date(Date.now() + 60_000)
        yield* (yield* UnitOfWork).atomically(erasure.erase({ customerId: c.id, accountId: c.accountId, deletionId, retainUntil, now: at, coreAccountDigest: null }))
        const stored = yield* sql<{ kind: string; text: string; keys: string }>`
          SELECT kind, payload::text AS text, (SELECT string_agg(k, ',' ORDER BY k) FROM jsonb_object_keys(payload) k) AS keys
          FROM retained_records WHERE deletion_id = ${deletionId}`
        expect(stored.map((r) => r.kind)).toEqual(["kyc"])
        // the row names no customer, and its stored text holds nothing personal: only the seal
        const columns = yield* sql<{ column_name: string }>`
          SELECT column_name FROM information_schema.columns WHERE table_name = 'retained_records' ORDER BY column_name`
        expect(columns.map((col: any) => col.columnName ?? col.column_name).sort()).toEqual(["deletion_id", "id", "kind", "payload", "retain_until"])
        for (const row of stored) {
          expect(row.keys).toBe("alg,ct,iv,tag,v")
          for (const personal of [c.email, c.phone, c.firstName, c.lastName, c.otherNames, c.address, c.id, c.accountId, "Chiamaka", "Okonkwo"]) {
            expect(row.text).not.toContain(personal)
          }
        }
        // RETENTION_KEY opens it: the KYC record as it was
        const [kyc] = yield* readRetained(KEY, deletionId)
        expect(kyc!.record).toMatchObject({
          email: c.email,
          phone: c.phone,
          firstName: c.firstName,
          lastName: c.lastName,
          otherNames: c.otherNames,
          address: c.address,
          customerId: c.id
        })
        // another key does not; nor does the same seal under another deletion id (authenticated data)
        const wrongKey = yield* Effect.exit(readRetained(Redacted.make("another-retention-key-of-at-least-32-chars"), deletionId))
        expect(Exit.isFailure(wrongKey)).toBe(true)
        const otherDeletion = randomUUID()
        yield* sql`UPDATE retained_records SET deletion_id = ${otherDeletion} WHERE deletion_id = ${deletionId}`
        expect(Exit.isFailure(yield* Effect.exit(readRetained(KEY, otherDeletion)))).toBe(true)
        yield* sql`UPDATE retained_records SET deletion_id = ${deletionId} WHERE deletion_id = ${otherDeletion}`
        expect(yield* readRetained(KEY, deletionId)).toHaveLength(1)
      }))

    it.effect("the outbox: the customer's messages go, except a pending closure statement, deleted by the purge once sent", () =>
      Effect.gen(function*() {
        const erasure = yield* AccountErasure
        const sql = yield* SqlClient.SqlClient
        const c = yield* personalCustomer
        const statement = yield* queued(c.email, "account_closed")
        const sentStatement = yield* queued(c.email, "account_closed", "sent")
        const reply = yield* queued(c.email, "support_reply")
        const failed = yield* queued(c.email, "plan_depleted", "failed")
        const sms = yield* queued(c.phone, "spending_report")
        const someoneElse = yield* queued(`someone-${randomUUID()}@example.com`, "account_closed")
        const deletionId = DeletionId.make(randomUUID())
        const retainUntil = new Date(Date.now() + 60_000)
        yield* (yield* UnitOfWork).atomically(erasure.erase({ customerId: c.id, accountId: c.accountId, deletionId, retainUntil, now: at, coreAccountDigest: null }))
        const ids = [statement, sentStatement, reply, failed, sms, someoneElse]
        const left = (yield* sql<{ id: string }>`SELECT id FROM notification_outbox WHERE id IN ${sql.in(ids)}`).map((r) => r.id).sort()
        expect(left).toEqual([statement, someoneElse].sort())
        const holds = yield* sql<{ payload: any; retainUntil: Date }>`
          SELECT payload, retain_until FROM retained_records WHERE deletion_id = ${deletionId} AND kind = ${OUTBOX_HOLD}`
        expect(holds.map((h) => (typeof h.payload === "string" ? JSON.parse(h.payload) : h.payload))).toEqual([{ outboxId: statement }])
        // not a retained record: not listed with them
        expect((yield* readRetained(KEY, deletionId)).map((r) => r.kind)).toEqual(["kyc"])
        // still pending: the purge leaves it (and its hold)
        yield* erasure.purgeRetained(new Date())
        expect(yield* sql`SELECT id FROM notification_outbox WHERE id = ${statement}`).toHaveLength(1)
        // sent: the next purge deletes it, then the hold; the retained records stay until retainUntil
        yield* sql`UPDATE notification_outbox SET status = 'sent', sent_at = now() WHERE id = ${statement}`
        expect(yield* erasure.purgeRetained(new Date())).toBe(0)
        expect(yield* sql`SELECT id FROM notification_outbox WHERE id = ${statement}`).toEqual([])
        expect(yield* sql`SELECT id FROM retained_records WHERE deletion_id = ${deletionId} AND kind = ${OUTBOX_HOLD}`).toEqual([])
        expect(yield* sql`SELECT id FROM notification_outbox WHERE id = ${someoneElse}`).toHaveLength(1)
        expect((yield* readRetained(KEY, deletionId)).map((r) => r.kind)).toEqual(["kyc"])
      }))

    it.effect("records stored in clear by an earlier version are sealed by the purge", () =>
      Effect.gen(function*() {
        const erasure = yield* AccountErasure
        const sql = yield* SqlClient.SqlClient
        const deletionId = DeletionId.make(randomUUID())
        const email = `legacy-${randomUUID()}@example.com`
        const plain = JSON.stringify({ email, firstName: "Legacy-Name" })
        yield* sql`
          INSERT INTO retained_records (deletion_id, kind, payload, retain_until)
          VALUES (${deletionId}, 'kyc', ${plain}, ${new Date(Date.now() + 60_000)})`
        yield* erasure.purgeRetained(new Date())
        const [row] = yield* sql<{ text: string }>`SELECT payload::text AS text FROM retained_records WHERE deletion_id = ${deletionId}`
        expect(row!.text).not.toContain(email)
        expect(row!.text).not.toContain("Legacy-Name")
        expect(yield* readRetained(KEY, deletionId)).toEqual([{ kind: "kyc", record: { email, firstName: "Legacy-Name" } }])
      }))
  })
})
