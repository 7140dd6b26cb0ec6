/**
 * TransferRepoSql against a real database: PGlite, or PostgreSQL when TEST_DATABASE_URL is set. On
 * PostgreSQL the concurrency tests really run statements in parallel on several connections.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { CustomerId, MovementInFlight, MovementLost, PlanId, TransactionId, TransactionRepo, Transfer, TransferRepo, UnitOfWork, newTransfer, type TransferPatch } from "@app/domain"
import { referencesOf } from "@app/domain/transfers/Saga"
import { Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"
import { newCustomer as newCustomerOf } from "../src/testing/Customers.js"

const Repos = () => adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const at = new Date("2026-01-01T10:00:00.000Z")
const later = (ms: number) => new Date(at.getTime() + ms)

const newCustomer = newCustomerOf("transfer", "30", at)

/** A fresh saga (nothing done yet, in flight) unless overridden. */
const transfer = (customerId: CustomerId, overrides: Partial<ConstructorParameters<typeof Transfer>[0]> = {}) =>
  new Transfer({
    ...newTransfer({
    id: TransactionId.make(randomUUID()),
    customerId,
    sourceAccountNumber: "3000000001",
    planId: null,
    purpose: "manual_transfer",
    amountKobo: 150_000n,
    feeKobo: 1_075n,
    destinationAccountNumber: "0123456789",
    destinationBankCode: "000013",
    destinationBankName: "Guaranty Trust Bank",
    destinationAccountName: "ADA OBI",
    nameEnquirySessionId: "000013260101100000123456789012",
    narration: "rent",
    idempotencyKey: randomUUID(),
    requestHash: "hash-1",
    createdAt: at
    }),
    ...overrides
  })

/** wall-clock time (it.effect runs on the TestClock, whose sleeps never wake on their own) */
const realDelay = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

const created = (t: Transfer) =>
  Effect.gen(function*() {
    const result = yield* (yield* TransferRepo).create(t)
    expect(result.created).toBe(true)
    return result.transfer
  })

layer(Repos(), { timeout: "60 seconds" })(`TransferRepo (${describeBackend()})`, (it) => {
  describe("create and findById", () => {
    it.effect("round-trips every field: bigint amounts above 2^53, nullable dates and ids", () =>
      Effect.gen(function*() {
        const repo = yield* TransferRepo
        const customer = yield* newCustomer
        const full = transfer(customer.id, {
          planId: PlanId.make(randomUUID()),
          purpose: "disbursement",
          amountKobo: 9_007_199_254_740_993n,
          feeKobo: 9_007_199_254_740_995n,
          status: "failed",
          failureReason: "transfer failed: 51 insufficient funds",
          pndLifted: true,
          lienPlaced: true,
          debitState: "applied",
          transferState: "failed",
          reversalState: "applied",
          restored: true,
          retryCount: 5,
          nextAttemptAt: later(60_000),
          leaseUntil: later(30_000),
          createdAt: later(1),
          updatedAt: later(2)
        })
        const result = yield* repo.create(full)
        expect(result).toEqual({ created: true, transfer: full })
        expect(result.transfer).toBeInstanceOf(Transfer)
        expect(Option.getOrThrow(yield* repo.findById(full.id))).toEqual(full)

        const fresh = transfer(customer.id)
        expect((yield* repo.create(fresh)).transfer).toEqual(fresh)
        const found = Option.getOrThrow(yield* repo.findById(fresh.id))
        expect(found).toEqual(fresh)
        expect(found).toMatchObject({ planId: null, failureReason: null, nextAttemptAt: null, leaseUntil: null })

        expect(Option.isNone(yield* repo.findById(randomUUID()))).toBe(true)
      }))

    it.effect("a transfer is a Transaction row of type transfer with its debit and transfer references; deposits are not transfers", () =>
      Effect.gen(function*() {
        const repo = yield* TransferRepo
        const transactions = yield* TransactionRepo
        const customer = yield* newCustomer
        const t = yield* created(transfer(customer.id, { amountKobo: 500_000n, feeKobo: 2_688n }))
        const row = Option.getOrThrow(yield* transactions.findById(t.id))
        expect(row).toMatchObject({
          id: t.id,
          customerId: customer.id,
          type: "transfer",
          purpose: "manual_transfer",
          amountKobo: 500_000n,
          feeKobo: 2_688n,
          status: "pending",
          retrievalReference: referencesOf(t.id).debit,
          transferReference: referencesOf(t.id).transfer,
          providerReference: null,
          retryCount: 0
        })
        expect((yield* transactions.listForCustomer(customer.id, { page: 1, pageSize: 10 })).items.map((x) => x.id))
          .toEqual([t.id])

        // a deposit (existing rows keep working) is not a transfer, and is not in flight
        const depositId = randomUUID()
        expect(
          yield* transactions.recordDeposit({
            id: depositId,
            customerId: customer.id,
            amountKobo: 1_000n,
            providerReference: "NIP-T-1",
            postedAt: at,
            now: at
          })
        ).toBe(true)
        expect(Option.isNone(yield* repo.findById(depositId))).toBe(true)
      }))

    it.effect("createFresh inserts with no lookup; another movement in flight is MovementInFlight and aborts the caller's unit of work", () =>
      Effect.gen(function*() {
        const repo = yield* TransferRepo
        const uow = yield* UnitOfWork
        const customer = yield* newCustomer
        const fresh = transfer(customer.id, { idempotencyKey: "plan-payout:fresh" })
        const stored = yield* repo.createFresh(fresh)
        expect(stored).toEqual(fresh)
        expect(Option.getOrThrow(yield* repo.findById(fresh.id))).toEqual(fresh)

        // inside a unit of work: the refusal fails it, and nothing it wrote before stays
        const other = yield* newCustomer
        const blocked = yield* Effect.flip(uow.atomically(Effect.gen(function*() {
          yield* repo.createFresh(transfer(other.id))
          return yield* repo.createFresh(transfer(customer.id))
        })))
        expect(blocked).toBeInstanceOf(MovementInFlight)
        expect(yield* repo.hasMovementInFlight(other.id)).toBe(false)
      }))

    it.effect("the same key returns the original, whatever its state; another key while one is in flight is MovementInFlight", () =>
      Effect.gen(function*() {
        const repo = yield* TransferRepo
        const customer = yield* newCustomer
        const first = yield* created(transfer(customer.id, { idempotencyKey: "key-1" }))

        expect(yield* repo.hasMovementInFlight(customer.id)).toBe(true)

        // a retry (even with another body and id) gets the original back
        const retry = yield* repo.create(transfer(customer.id, { idempotencyKey: "key-1", requestHash: "other", amountKobo: 1n }))
        expect(retry).toEqual({ created: false, transfer: first })

        // another movement while the first is in flight
        const blocked = yield* Effect.flip(repo.create(transfer(customer.id, { idempotencyKey: "key-2" })))
        expect(blocked).toBeInstanceOf(MovementInFlight)
        expect(Option.isNone(yield* repo.findById(first.id))).toBe(false)

        // the journal moves on: still pending, but the account is restored (awaiting the transfer's outcome)
        yield* repo.update(first, { debitState: "applied", transferState: "pending", restored: true }, later(5))
        expect(yield* repo.hasMovementInFlight(customer.id)).toBe(false)
        const second = yield* created(transfer(customer.id, { idempotencyKey: "key-2" }))
        expect((yield* Effect.flip(repo.create(transfer(customer.id, { idempotencyKey: "key-3" }))))._tag).toBe("MovementInFlight")

        // finished (failed, account restored): a new one may start
        yield* repo.update(second, { status: "failed", failureReason: "refused", restored: true }, later(6))
        expect(yield* repo.hasMovementInFlight(customer.id)).toBe(false)
        yield* created(transfer(customer.id, { idempotencyKey: "key-3" }))
        expect(yield* repo.hasMovementInFlight(customer.id)).toBe(true)

        // the key of a finished movement still returns it
        const again = yield* repo.create(transfer(customer.id, { idempotencyKey: "key-2" }))
        expect(again.created).toBe(false)
        expect(again.transfer.id).toBe(second.id)
        expect(again.transfer.status).toBe("failed")

        // keys and the in-flight guard are per customer
        const other = yield* newCustomer
        expect(yield* repo.hasMovementInFlight(other.id)).toBe(false)
        const othersFirst = yield* created(transfer(other.id, { idempotencyKey: "key-1" }))

        // findByIdempotencyKey: only the customer's own
        expect(yield* repo.findByIdempotencyKey(customer.id, "key-1")).toEqual(yield* repo.findById(first.id))
        expect(Option.getOrThrow(yield* repo.findByIdempotencyKey(other.id, "key-1"))).toEqual(othersFirst)
        expect(Option.isNone(yield* repo.findByIdempotencyKey(other.id, "key-2"))).toBe(true)
        expect(Option.isNone(yield* repo.findByIdempotencyKey(customer.id, "key-9"))).toBe(true)
      }))

    it.effect("a finished movement (not pending) does not block a new one", () =>
      Effect.gen(function*() {
        const repo = yield* TransferRepo
        const customer = yield* newCustomer
        const first = yield* created(transfer(customer.id))
        yield* repo.update(first, { status: "confirmed", transferState: "successful", debitState: "applied", restored: true }, later(1))
        const second = yield* created(transfer(customer.id))
        expect(second.id).not.toBe(first.id)
      }))

    it.effect("MovementInFlight inside a unit of work does not abort it", () =>
      Effect.gen(function*() {
        const repo = yield* TransferRepo
        const uow = yield* UnitOfWork
        const customer = yield* newCustomer
        const first = yield* created(transfer(customer.id))
        const outcome = yield* uow.atomically(Effect.gen(function*() {
          const blocked = yield* Effect.either(repo.create(transfer(customer.id)))
          // the transaction is still usable after the failed insert
          const updated = yield* repo.update(first, { pndLifted: true }, later(1))
          return [blocked._tag, updated.pndLifted] as const
        }))
        expect(outcome).toEqual(["Left", true])
        expect(Option.getOrThrow(yield* repo.findById(first.id)).pndLifted).toBe(true)
      }))

    it.effect("20 concurrent creates with one key: exactly one created, all return the same movement (15 rounds)", () =>
      Effect.gen(function*() {
        const repo = yield* TransferRepo
        const sql = yield* SqlClient.SqlClient
        const customer = yield* newCustomer
        for (let round = 0; round < 15; round++) {
          const key = `same-key-${round}`
          const results = yield* Effect.all(
            Array.from({ length: 20 }, () => repo.create(transfer(customer.id, { idempotencyKey: key }))),
            { concurrency: "unbounded" }
          )
          expect(results.filter((r) => r.created)).toHaveLength(1)
          expect(new Set(results.map((r) => r.transfer.id)).size).toBe(1)
          const counted = yield* sql<{ n: string | number }>`
            SELECT count(*) AS n FROM transactions WHERE customer_id = ${customer.id} AND idempotency_key = ${key}`
          expect(Number(counted[0]!.n)).toBe(1)
          // finish it, so the next round may start a movement
          yield* repo.update(results[0]!.transfer, { status: "confirmed", restored: true }, later(round))
        }
      }))

    it.effect("a create racing an identical, not yet committed one waits for it and returns it", () =>
      Effect.gen(function*() {
        const repo = yield* TransferRepo
        const uow = yield* UnitOfWork
        const customer = yield* newCustomer
        const original = transfer(customer.id, { idempotencyKey: "slow-key" })
        const [first, second] = yield* Effect.all([
          uow.atomically(Effect.zipLeft(repo.create(original), realDelay(300))),
          Effect.zipRight(realDelay(100), repo.create(transfer(customer.id, { idempotencyKey: "slow-key" })))
        ], { concurrency: "unbounded" })
        expect(first).toEqual({ created: true, transfer: original })
        expect(second).toEqual({ created: false, transfer: original })
      }), { timeout: 30_000 })

    it.effect("10 concurrent creates with different keys: exactly one created, the rest MovementInFlight", () =>
      Effect.gen(function*() {
        const repo = yield* TransferRepo
        const customer = yield* newCustomer
        const results = yield* Effect.all(
          Array.from({ length: 10 }, () => Effect.either(repo.create(transfer(customer.id)))),
          { concurrency: "unbounded" }
        )
        const rights = results.flatMap((r) => r._tag === "Right" ? [r.right] : [])
        const lefts = results.flatMap((r) => r._tag === "Left" ? [r.left] : [])
        expect(rights).toHaveLength(1)
        expect(rights[0]!.created).toBe(true)
        expect(lefts).toHaveLength(9)
        expect(lefts.every((e) => e instanceof MovementInFlight)).toBe(true)
      }))

    it.effect("the database itself refuses a second movement in flight and a reused key", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const customer = yield* newCustomer
        const first = yield* created(transfer(customer.id, { idempotencyKey: "db-key" }))
        const insertRaw = (key: string) =>
          sql`
            INSERT INTO transactions (id, customer_id, type, purpose, amount_kobo, status, source_account_number,
              destination_account_number, destination_bank_code, destination_bank_name, destination_account_name,
              name_enquiry_session_id, narration, idempotency_key, request_hash, restored, created_at, updated_at)
            VALUES (${randomUUID()}, ${customer.id}, 'transfer', 'manual_transfer', 1, 'pending', 's', 'd', 'b', 'n',
              'a', 'e', 'x', ${key}, 'h', false, ${at}, ${at})`
        const inFlight = yield* Effect.flip(insertRaw("db-key-2"))
        expect(String((inFlight.cause as { message?: string }).message ?? inFlight.message)).toMatch(/transactions_one_in_flight_key/)
        yield* (yield* TransferRepo).update(first, { restored: true }, later(1))
        const reused = yield* Effect.flip(insertRaw("db-key"))
        expect(String((reused.cause as { message?: string }).message ?? reused.message)).toMatch(
          /transactions_customer_idempotency_key/
        )
      }))
  })

  describe("update", () => {
    /** The journal writes both tests make: a flag; most columns with a lease; back to null, final. */
    const steps = {
      flag: { pndLifted: true },
      midway: {
        lienPlaced: true,
        debitState: "applied",
        transferState: "pending",
        retryCount: 2,
        nextAttemptAt: later(120_000),
        leaseUntil: later(30_020)
      },
      final: {
        status: "failed",
        failureReason: "transfer failed",
        transferState: "failed",
        reversalState: "applied",
        restored: true,
        nextAttemptAt: null,
        leaseUntil: null
      }
    } as const satisfies Record<string, TransferPatch>

    it.effect("writes only the given journal fields and updatedAt, and returns the record", () =>
      Effect.gen(function*() {
        const repo = yield* TransferRepo
        const customer = yield* newCustomer
        const original = yield* created(transfer(customer.id))

        const step1 = yield* repo.update(original, steps.flag, later(10))
        const expected1 = new Transfer({ ...original, pndLifted: true, updatedAt: later(10) })
        expect(step1).toEqual(expected1)
        expect(Option.getOrThrow(yield* repo.findById(original.id))).toEqual(expected1)

        const leasedAt = Date.now()
        const step2 = yield* repo.update(original, steps.midway, later(20))
        // a lease of 30 s: it runs from the database's now(), not from the writer's clock
        expect(Math.abs(step2.leaseUntil!.getTime() - (leasedAt + 30_000))).toBeLessThan(5_000)
        const expected2 = new Transfer({
          ...expected1,
          lienPlaced: true,
          debitState: "applied",
          transferState: "pending",
          retryCount: 2,
          nextAttemptAt: later(120_000),
          leaseUntil: step2.leaseUntil,
          updatedAt: later(20)
        })
        expect(step2).toEqual(expected2)

        // back to null, and the final state
        const step3 = yield* repo.update(original, steps.final, later(30))
        const expected3 = new Transfer({
          ...expected2,
          status: "failed",
          failureReason: "transfer failed",
          transferState: "failed",
          reversalState: "applied",
          restored: true,
          nextAttemptAt: null,
          leaseUntil: null,
          updatedAt: later(30)
        })
        expect(step3).toEqual(expected3)
        expect(Option.getOrThrow(yield* repo.findById(original.id))).toEqual(expected3)

        // an empty patch only touches updatedAt
        expect(yield* repo.update(original, {}, later(40))).toEqual(new Transfer({ ...expected3, updatedAt: later(40) }))
      }))

    it.effect("updateCurrent writes what update writes, and returns the writer's record with the patch applied, equal to the row as stored", () =>
      Effect.gen(function*() {
        const repo = yield* TransferRepo
        const stored = (id: string) => Effect.map(repo.findById(id), Option.getOrThrow)
        // one movement written with update, one with updateCurrent (a customer each: one in flight per customer)
        let viaUpdate = yield* created(transfer((yield* newCustomer).id))
        let current = yield* created(transfer((yield* newCustomer).id))
        /** What the two must agree on: everything but the movement's own identity, and the lease (from each write's now()). */
        const journal = ({ id: _i, customerId: _c, idempotencyKey: _k, leaseUntil: _l, ...rest }: Transfer) => rest
        let stepAt = 0
        for (const patch of [steps.flag, steps.midway, { nameEnquirySessionId: "000013260101100000999999999999", nameEnquiryAt: later(15) }, steps.final]) {
          const at = later(10 * ++stepAt)
          const before = current
          viaUpdate = yield* repo.update(viaUpdate, patch, at)
          current = yield* repo.updateCurrent(current, patch, at)
          // a lease in the patch is set (from the database's clock), cleared with null; none keeps it
          const lease = !("leaseUntil" in patch) ? before.leaseUntil : patch.leaseUntil === null ? null : expect.any(Date)
          expect(current).toMatchObject({ ...patch, updatedAt: at, leaseUntil: lease })
          expect(journal(current)).toEqual(journal(viaUpdate))
          expect(current.leaseUntil === null).toBe(viaUpdate.leaseUntil === null)
          expect(yield* stored(current.id)).toEqual(current)
        }
        expect(current.status).toBe("failed")

        // fenced like update: a write under another epoch than the movement's changes nothing
        const lost = yield* Effect.flip(repo.updateCurrent(new Transfer({ ...current, epoch: 7 }), { pndLifted: false }, later(90)))
        expect(lost).toEqual(new MovementLost({ transferId: current.id, epoch: 7 }))
        expect(yield* stored(current.id)).toEqual(current)
      }))

    it.effect("updating an unknown transfer fails with MovementLost", () =>
      Effect.gen(function*() {
        const repo = yield* TransferRepo
        const id = randomUUID()
        const lost = yield* Effect.flip(repo.update({ id, epoch: 0 }, { pndLifted: true }, at))
        expect(lost).toEqual(new MovementLost({ transferId: id, epoch: 0 }))
      }))

    it.effect("is fenced: a claim bumps the epoch, and a write under an older epoch changes nothing", () =>
      Effect.gen(function*() {
        const repo = yield* TransferRepo
        const customer = yield* newCustomer
        const original = yield* created(transfer(customer.id))
        expect(original.epoch).toBe(0)
        // the creator's lease has expired: another process claims the movement
        const claimed = (yield* repo.claimDue(later(10_000_000), later(10_030_000), 10_000)).find((t) => t.id === original.id)!
        expect(claimed.epoch).toBe(1)
        const lost = yield* Effect.flip(repo.update(original, { transferState: "failed", failureReason: "stale" }, later(10_000_001)))
        expect(lost).toEqual(new MovementLost({ transferId: original.id, epoch: 0 }))
        expect(Option.getOrThrow(yield* repo.findById(original.id))).toEqual(claimed)
        // the claimer's writes go through
        const step = yield* repo.update(claimed, { pndLifted: true }, later(10_000_002))
        expect(step).toEqual(new Transfer({ ...claimed, pndLifted: true, updatedAt: later(10_000_002) }))
      }))
  })
})

// A database of its own: claimDue looks at every customer's movements.
layer(Repos(), { timeout: "60 seconds" })(`TransferRepo.claimDue (${describeBackend()})`, (it) => {
  const lease = 30_000
  /** lets the movement's lease run out on the database's clock */
  const expireLease = (id: string) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE transactions SET lease_until = now() - interval '1 millisecond' WHERE id = ${id}`)
  /** a lease `ms` from the database's now(), read on this machine's clock (the same one here) */
  const expectLeaseAbout = (leaseUntil: Date | null, expectedMs: number) => {
    expect(leaseUntil).not.toBeNull()
    expect(Math.abs(leaseUntil!.getTime() - expectedMs)).toBeLessThan(5_000)
  }
  /** claims with a large limit and keeps the rows of `ids` */
  const claimMine = (ids: ReadonlyArray<string>, now: Date) =>
    Effect.gen(function*() {
      const claimed = yield* (yield* TransferRepo).claimDue(now, new Date(now.getTime() + lease), 1_000)
      return claimed.filter((t) => ids.includes(t.id))
    })

  it.effect("a fresh saga is claimable; a claimed one only once its lease expired, on the database's clock", () =>
    Effect.gen(function*() {
      const repo = yield* TransferRepo
      const customer = yield* newCustomer
      const t = yield* created(transfer(customer.id))
      const now = later(1_000)
      const before = Date.now()
      const claimed = yield* claimMine([t.id], now)
      expect(claimed.map((x) => ({ ...x, leaseUntil: null }))).toEqual([new Transfer({ ...t, leaseUntil: null, epoch: 1 })])
      // the lease runs `lease` ms from the database's now(), whatever the caller's clock says
      expectLeaseAbout(claimed[0]!.leaseUntil, before + lease)
      expect(Option.getOrThrow(yield* repo.findById(t.id)).leaseUntil).toEqual(claimed[0]!.leaseUntil)

      // held: even by a caller whose clock runs far ahead (its `now` is not the lease's judge)
      expect(yield* claimMine([t.id], later(2_000))).toEqual([])
      expect(yield* claimMine([t.id], new Date(Date.now() + 10 * lease))).toEqual([])
      yield* expireLease(t.id)
      const reclaimed = yield* claimMine([t.id], later(3_000))
      expect(reclaimed.map((x) => [x.id, x.epoch])).toEqual([[t.id, 2]])

      // a live driver's lease (renewed by update) is respected too, and expires on the same clock
      const renewed = yield* repo.update(reclaimed[0]!, { leaseUntil: later(3_000 + 10 * lease) }, later(3_000))
      expectLeaseAbout(renewed.leaseUntil, Date.now() + 10 * lease)
      expect(yield* claimMine([t.id], new Date(Date.now() + 100 * lease))).toEqual([])
      yield* expireLease(t.id)
      expect((yield* claimMine([t.id], later(4_000))).map((x) => x.id)).toEqual([t.id])
    }))

  it.effect("a restored pending transfer is claimable only when its requery is due", () =>
    Effect.gen(function*() {
      const customer = yield* newCustomer
      const awaiting = yield* created(transfer(customer.id, {
        pndLifted: true,
        lienPlaced: true,
        debitState: "applied",
        transferState: "pending",
        restored: true,
        nextAttemptAt: later(60_000)
      }))
      // restored but not awaiting a pending transfer, or with no requery planned: nothing to claim
      const noRequery = yield* created(transfer(customer.id, { debitState: "applied", transferState: "pending", restored: true }))
      const ids = [awaiting.id, noRequery.id]
      // the requery's due time is the domain's (the caller's clock)
      expect(yield* claimMine(ids, later(59_999))).toEqual([])
      const due = yield* claimMine(ids, later(60_000))
      expect(due.map((x) => x.id)).toEqual([awaiting.id])
      // held by its lease, even though still due
      expect(yield* claimMine(ids, later(60_001))).toEqual([])
      yield* expireLease(awaiting.id)
      expect((yield* claimMine(ids, later(60_002))).map((x) => x.id)).toEqual([awaiting.id])
      // a live lease on a due requery holds it as well
      expect(yield* claimMine(ids, later(60_003))).toEqual([])
    }))

  it.effect("confirmed and failed movements are never claimed", () =>
    Effect.gen(function*() {
      const customer = yield* newCustomer
      const rows = [
        transfer(customer.id, { status: "confirmed", debitState: "applied", transferState: "successful", restored: true }),
        transfer(customer.id, { status: "confirmed", debitState: "applied", transferState: "pending", restored: true, nextAttemptAt: at }),
        transfer(customer.id, { status: "failed", failureReason: "x", restored: true, transferState: "pending", nextAttemptAt: at }),
        transfer(customer.id, { status: "failed", failureReason: "x", restored: false }),
        transfer(customer.id, { status: "confirmed", restored: false })
      ]
      for (const t of rows) yield* created(t)
      expect(yield* claimMine(rows.map((t) => t.id), later(100_000_000))).toEqual([])
    }))

  it.effect("oldest first, at most `limit`", () =>
    Effect.gen(function*() {
      const repo = yield* TransferRepo
      // older than every other row of this database, so they come first
      const base = new Date("2000-01-01T00:00:00.000Z").getTime()
      const customers = yield* Effect.all([newCustomer, newCustomer, newCustomer])
      const rows = customers.map((c, i) => transfer(c.id, { createdAt: new Date(base + (3 - i) * 1000) }))
      for (const t of rows) yield* created(t)
      const now = later(200_000_000)
      const claimed = yield* repo.claimDue(now, new Date(now.getTime() + lease), 2)
      expect(claimed.map((t) => t.id)).toEqual([rows[2]!.id, rows[1]!.id])
      const rest = yield* repo.claimDue(now, new Date(now.getTime() + lease), 1)
      expect(rest.map((t) => t.id)).toEqual([rows[0]!.id])
    }))

  it.effect("concurrent claimDue calls never return the same movement", () =>
    Effect.gen(function*() {
      const repo = yield* TransferRepo
      // 10 sagas in flight (one per customer) and 20 due requeries of one customer
      const customers = yield* Effect.all(Array.from({ length: 10 }, () => newCustomer))
      const sagas = customers.map((c) => transfer(c.id))
      const requeries = Array.from({ length: 20 }, () =>
        transfer(customers[0]!.id, { debitState: "applied", transferState: "pending", restored: true, nextAttemptAt: at }))
      const all = [...sagas, ...requeries]
      for (const t of all) yield* created(t)
      const ids = all.map((t) => t.id)

      const now = later(300_000_000)
      const rounds = yield* Effect.all(
        Array.from({ length: 6 }, () => repo.claimDue(now, new Date(now.getTime() + lease), 7)),
        { concurrency: "unbounded" }
      )
      const claimed = rounds.flat().map((t) => t.id)
      expect(rounds.every((r) => r.length <= 7)).toBe(true)
      expect(new Set(claimed).size).toBe(claimed.length)
      // whatever the concurrent calls did not take, a later call at the same instant takes, once
      const rest = (yield* repo.claimDue(now, new Date(now.getTime() + lease), 1_000)).map((t) => t.id)
      expect(rest.filter((id) => claimed.includes(id))).toEqual([])
      expect([...claimed, ...rest].filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort())
      expect(yield* repo.claimDue(now, new Date(now.getTime() + lease), 1_000)).toEqual([])
    }))
})
