/**
 * PlanRepoSql, NoticeRepoSql, TransactionRepo.listForCustomerByPurpose and Transfer.reserveKobo
 * against a real database: PGlite, or PostgreSQL when TEST_DATABASE_URL is set. On PostgreSQL the
 * concurrency tests really run statements in parallel on several connections.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { CustomerId, Instalment, Notice, NoticeRepo, Plan, PlanConflict, PlanId, PlanRepo, TransactionId, TransactionRepo, Transfer, TransferRepo, UnitOfWork, newTransfer, type TransactionPurpose } from "@app/domain"
import { Effect, Either, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"
import { newCustomer as newCustomerOf } from "../src/testing/Customers.js"

const Repos = () => adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const at = new Date("2026-01-01T10:00:00.000Z")
const later = (ms: number) => new Date(at.getTime() + ms)

const newCustomer = newCustomerOf("plan", "31", at)

type PlanFields = ConstructorParameters<typeof Plan>[0]

/** An active daily plan of 30 cycles, next due at `at`, unless overridden. */
const plan = (customerId: CustomerId, overrides: Partial<PlanFields> = {}) =>
  new Plan({
    id: PlanId.make(randomUUID()),
    customerId,
    totalAmountKobo: 3_000_000n,
    durationDays: 30,
    frequency: "daily",
    weekDay: null,
    scheduledTime: "09:00",
    timeZone: "Africa/Lagos",
    withdrawalAccountNumber: "0123456789",
    withdrawalBankCode: "000013",
    withdrawalBankName: "Guaranty Trust Bank",
    withdrawalAccountName: "ADA OBI",
    nameEnquirySessionId: "000013260101100000123456789012",
    state: "active",
    cycleCount: 30,
    cycleBase: 0,
    nextCycle: 0,
    anchorDate: "2026-01-01",
    nextDueAt: at,
    borrowCount: 0,
    leaseUntil: null,
    version: 0,
    activatedAt: at,
    completedAt: null,
    createdAt: at,
    updatedAt: at,
    ...overrides
  })

const instalment = (planId: PlanId, cycle: number, overrides: Partial<ConstructorParameters<typeof Instalment>[0]> = {}) =>
  new Instalment({
    planId,
    cycle,
    amountKobo: 100_000n,
    kind: "scheduled",
    status: "open",
    attempts: 0,
    transactionId: null,
    dueAt: later(cycle * 86_400_000),
    paidAt: null,
    createdAt: at,
    updatedAt: at,
    ...overrides
  })

/** A fresh movement of the customer (in flight: one at a time per customer). */
const transfer = (
  customerId: CustomerId,
  fields: { planId?: PlanId | null; purpose?: TransactionPurpose; createdAt?: Date; reserveKobo?: bigint } = {}
) =>
  newTransfer({
    id: TransactionId.make(randomUUID()),
    customerId,
    sourceAccountNumber: "3000000001",
    planId: fields.planId ?? null,
    purpose: fields.purpose ?? "disbursement",
    amountKobo: 100_000n,
    feeKobo: 1_075n,
    destinationAccountNumber: "0123456789",
    destinationBankCode: "000013",
    destinationBankName: "Guaranty Trust Bank",
    destinationAccountName: "ADA OBI",
    nameEnquirySessionId: "000013260101100000123456789012",
    narration: "payout",
    idempotencyKey: randomUUID(),
    requestHash: "hash-1",
    createdAt: fields.createdAt ?? at,
    ...(fields.reserveKobo === undefined ? {} : { reserveKobo: fields.reserveKobo })
  })

/** Creates the movement and puts its account back, so the customer may start another. */
const settledTransfer = (t: Transfer, status: "pending" | "confirmed" | "failed" = "confirmed") =>
  Effect.gen(function*() {
    const repo = yield* TransferRepo
    const result = yield* repo.create(t)
    expect(result.created).toBe(true)
    return yield* repo.update(t, { status, restored: true, ...(status === "failed" ? { failureReason: "x" } : {}) }, t.createdAt)
  })

/** wall-clock time (it.effect runs on the TestClock, whose sleeps never wake on their own) */
const realDelay = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

layer(Repos(), { timeout: "60 seconds" })(`PlanRepo (${describeBackend()})`, (it) => {
  describe("insert, find and save", () => {
    it.effect("round-trips every field: a bigint total above 2^53, nullable dates and fields", () =>
      Effect.gen(function*() {
        const repo = yield* PlanRepo
        const customer = yield* newCustomer
        const full = plan(customer.id, {
          totalAmountKobo: 900_719_925_474_099_312n,
          frequency: "weekly",
          weekDay: "friday",
          cycleBase: 4,
          nextCycle: 2,
          borrowCount: 1,
          leaseUntil: later(30_000),
          version: 7,
          createdAt: later(1),
          updatedAt: later(2)
        })
        const inserted = yield* repo.insert(full)
        expect(inserted).toEqual(full)
        expect(inserted).toBeInstanceOf(Plan)
        expect(Option.getOrThrow(yield* repo.findById(full.id))).toEqual(full)
        expect(Option.getOrThrow(yield* repo.findForCustomer(customer.id))).toEqual(full)

        const other = yield* newCustomer
        const awaiting = plan(other.id, {
          state: "awaiting_funds",
          anchorDate: null,
          nextDueAt: null,
          activatedAt: null
        })
        expect(yield* repo.insert(awaiting)).toEqual(awaiting)
        expect(Option.getOrThrow(yield* repo.findById(awaiting.id))).toEqual(awaiting)

        expect(Option.isNone(yield* repo.findById(randomUUID()))).toBe(true)
        expect(Option.isNone(yield* repo.findForCustomer(CustomerId.make(randomUUID())))).toBe(true)
        expect(Option.isNone(yield* repo.lock(randomUUID()))).toBe(true)
      }))

    it.effect("one open plan per customer: a second is PlanConflict, allowed once the first is completed", () =>
      Effect.gen(function*() {
        const repo = yield* PlanRepo
        const customer = yield* newCustomer
        const first = yield* repo.insert(plan(customer.id))
        for (const state of ["awaiting_funds", "active", "depleted", "paused"] as const) {
          const refused = yield* Effect.either(repo.insert(plan(customer.id, { state, createdAt: later(10) })))
          expect(refused).toEqual(Either.left(new PlanConflict()))
        }
        // a completed plan may always be added (history), and does not count as open
        const oldCompleted = plan(customer.id, { state: "completed", completedAt: later(-1), createdAt: later(-10) })
        yield* repo.insert(oldCompleted)
        expect(Option.getOrThrow(yield* repo.findForCustomer(customer.id)).id).toBe(first.id)

        const completed = yield* repo.save(new Plan({ ...first, state: "completed", nextDueAt: null, completedAt: later(100), updatedAt: later(100) }))
        expect(completed).toMatchObject({ state: "completed", version: 1 })
        // the most recently created of the completed ones when none is open
        expect(Option.getOrThrow(yield* repo.findForCustomer(customer.id)).id).toBe(first.id)

        const second = yield* repo.insert(plan(customer.id, { createdAt: later(200), updatedAt: later(200) }))
        // the open one is preferred, even over a completed one created later
        const third = plan(customer.id, { state: "completed", createdAt: later(300), updatedAt: later(300) })
        yield* repo.insert(third)
        expect(Option.getOrThrow(yield* repo.findForCustomer(customer.id)).id).toBe(second.id)
        expect(Either.isLeft(yield* Effect.either(repo.insert(plan(customer.id))))).toBe(true)
      }))

    it.effect("a refused insert inside a unit of work does not abort it", () =>
      Effect.gen(function*() {
        const repo = yield* PlanRepo
        const uow = yield* UnitOfWork
        const customer = yield* newCustomer
        const first = yield* repo.insert(plan(customer.id))
        const found = yield* uow.atomically(Effect.gen(function*() {
          const refused = yield* Effect.either(repo.insert(plan(customer.id)))
          expect(Either.isLeft(refused)).toBe(true)
          return yield* repo.findById(first.id)
        }))
        expect(Option.getOrThrow(found)).toEqual(first)
      }))

    it.effect("save writes every field but id, customerId, createdAt and leaseUntil, and increments the version", () =>
      Effect.gen(function*() {
        const repo = yield* PlanRepo
        const customer = yield* newCustomer
        const original = yield* repo.insert(plan(customer.id, { leaseUntil: later(5_000) }))
        const changed = new Plan({
          ...original,
          customerId: CustomerId.make(randomUUID()),
          totalAmountKobo: 900_719_925_474_099_312n,
          durationDays: 60,
          frequency: "monthly",
          weekDay: "monday",
          scheduledTime: "18:30",
          timeZone: "America/New_York",
          withdrawalAccountNumber: "9999999999",
          withdrawalBankCode: "000014",
          withdrawalBankName: "Access Bank",
          withdrawalAccountName: "ADA O OBI",
          nameEnquirySessionId: "session-2",
          state: "depleted",
          cycleCount: 2,
          cycleBase: 3,
          nextCycle: 1,
          anchorDate: "2026-02-01",
          nextDueAt: null,
          borrowCount: 2,
          leaseUntil: null,
          activatedAt: later(1),
          completedAt: later(2),
          createdAt: later(3),
          updatedAt: later(4)
        })
        const saved = yield* repo.save(changed)
        const expected = new Plan({
          ...changed,
          customerId: original.customerId,
          createdAt: original.createdAt,
          leaseUntil: original.leaseUntil,
          version: original.version + 1
        })
        expect(saved).toEqual(expected)
        expect(Option.getOrThrow(yield* repo.findById(original.id))).toEqual(expected)

        // and again, from what it returned
        const again = yield* repo.save(new Plan({ ...saved, state: "active", updatedAt: later(5) }))
        expect(again).toMatchObject({ state: "active", version: 2, updatedAt: later(5) })
      }))

    it.effect("save with a stale version is PlanConflict and changes nothing", () =>
      Effect.gen(function*() {
        const repo = yield* PlanRepo
        const customer = yield* newCustomer
        const original = yield* repo.insert(plan(customer.id))
        const winner = yield* repo.save(new Plan({ ...original, borrowCount: 1, updatedAt: later(1) }))
        const stale = yield* Effect.either(repo.save(new Plan({ ...original, state: "paused", updatedAt: later(2) })))
        expect(stale).toEqual(Either.left(new PlanConflict()))
        expect(Option.getOrThrow(yield* repo.findById(original.id))).toEqual(winner)
        // a version from the future, or an unknown plan, too
        expect(Either.isLeft(yield* Effect.either(repo.save(new Plan({ ...winner, version: 5 }))))).toBe(true)
        expect(Either.isLeft(yield* Effect.either(repo.save(plan(customer.id))))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findById(original.id))).toEqual(winner)
      }))

    it.effect("lock holds the row until the unit of work ends: a concurrent save waits, then conflicts", () =>
      Effect.gen(function*() {
        const repo = yield* PlanRepo
        const uow = yield* UnitOfWork
        const customer = yield* newCustomer
        const original = yield* repo.insert(plan(customer.id))
        const [locked, racer] = yield* Effect.all([
          uow.atomically(Effect.gen(function*() {
            const p = Option.getOrThrow(yield* repo.lock(original.id))
            yield* realDelay(300)
            return yield* repo.save(new Plan({ ...p, nextCycle: 1, updatedAt: later(1) }))
          })),
          Effect.zipRight(realDelay(100), Effect.either(repo.save(new Plan({ ...original, state: "paused", updatedAt: later(2) }))))
        ], { concurrency: "unbounded" })
        expect(locked).toMatchObject({ nextCycle: 1, version: 1, state: "active" })
        expect(racer).toEqual(Either.left(new PlanConflict()))
        expect(Option.getOrThrow(yield* repo.findById(original.id))).toEqual(locked)
      }), { timeout: 30_000 })
  })

  describe("instalments", () => {
    it.effect("ensureInstalment inserts once and returns the stored one; save and list", () =>
      Effect.gen(function*() {
        const repo = yield* PlanRepo
        const customer = yield* newCustomer
        const p = yield* repo.insert(plan(customer.id))
        const big = instalment(p.id, 1, { amountKobo: 900_719_925_474_099_312n })
        expect(yield* repo.ensureInstalment(big)).toEqual(big)
        // a second call with other values returns the stored one and changes nothing
        expect(yield* repo.ensureInstalment(instalment(p.id, 1, { amountKobo: 5n, kind: "borrow" }))).toEqual(big)
        expect(Option.getOrThrow(yield* repo.findInstalment(p.id, 1))).toEqual(big)
        expect(Option.isNone(yield* repo.findInstalment(p.id, 2))).toBe(true)

        const zero = yield* repo.ensureInstalment(instalment(p.id, 0))
        const two = yield* repo.ensureInstalment(instalment(p.id, 2, { kind: "borrow" }))
        expect(yield* repo.listInstalments(p.id)).toEqual([zero, big, two])
        expect(yield* repo.listInstalments(PlanId.make(randomUUID()))).toEqual([])

        const transactionId = TransactionId.make(randomUUID())
        const changed = new Instalment({
          ...zero,
          amountKobo: 123n,
          kind: "borrow",
          status: "paid",
          attempts: 2,
          transactionId,
          dueAt: later(7),
          paidAt: later(8),
          createdAt: later(9), // not written
          updatedAt: later(10)
        })
        const saved = yield* repo.saveInstalment(changed)
        expect(saved).toEqual(new Instalment({ ...changed, createdAt: zero.createdAt }))
        expect(Option.getOrThrow(yield* repo.findInstalment(p.id, 0))).toEqual(saved)
        // back to null
        const cleared = yield* repo.saveInstalment(new Instalment({ ...saved, status: "open", transactionId: null, paidAt: null }))
        expect(cleared).toMatchObject({ status: "open", transactionId: null, paidAt: null, attempts: 2 })
      }))

    it.effect("linkInstalment: made linked when missing, taken while open with no attempt, else nothing written", () =>
      Effect.gen(function*() {
        const repo = yield* PlanRepo
        const customer = yield* newCustomer
        const p = yield* repo.insert(plan(customer.id))
        // missing: inserted as given
        const first = instalment(p.id, 0, { transactionId: TransactionId.make(randomUUID()) })
        expect(yield* repo.linkInstalment(first)).toEqual(Option.some(first))
        expect(Option.getOrThrow(yield* repo.findInstalment(p.id, 0))).toEqual(first)

        // open with no attempt (an earlier attempt failed): attempt, amount, due date and updatedAt
        // become the given ones; kind, attempts, createdAt stay
        const free = yield* repo.ensureInstalment(instalment(p.id, 1, { kind: "borrow", attempts: 2 }))
        const retry = instalment(p.id, 1, { transactionId: TransactionId.make(randomUUID()), amountKobo: 777n, dueAt: later(50), createdAt: later(51), updatedAt: later(52) })
        const taken = new Instalment({ ...free, transactionId: retry.transactionId, amountKobo: 777n, dueAt: later(50), updatedAt: later(52) })
        expect(yield* repo.linkInstalment(retry)).toEqual(Option.some(taken))
        expect(Option.getOrThrow(yield* repo.findInstalment(p.id, 1))).toEqual(taken)

        // linked to an attempt, or paid: none, and the stored one is unchanged
        expect(yield* repo.linkInstalment(instalment(p.id, 1, { transactionId: TransactionId.make(randomUUID()), amountKobo: 1n }))).toEqual(Option.none())
        expect(Option.getOrThrow(yield* repo.findInstalment(p.id, 1))).toEqual(taken)
        const paid = yield* repo.saveInstalment(new Instalment({ ...first, status: "paid", transactionId: null, paidAt: later(60) }))
        expect(yield* repo.linkInstalment(instalment(p.id, 0, { transactionId: TransactionId.make(randomUUID()) }))).toEqual(Option.none())
        expect(Option.getOrThrow(yield* repo.findInstalment(p.id, 0))).toEqual(paid)
      }))

    it.effect("linkInstalment releases the plan's payout hold when it links, in the caller's unit of work; not when nothing is linked", () =>
      Effect.gen(function*() {
        const repo = yield* PlanRepo
        const sql = yield* SqlClient.SqlClient
        const held = (planId: PlanId) =>
          sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM payout_holds WHERE plan_id = ${planId}`.pipe(
            Effect.map((rows) => rows[0]!.n === 1)
          )
        const customer = yield* newCustomer
        const p = yield* repo.insert(plan(customer.id))
        yield* repo.holdForPayout(p.id, at)
        expect(yield* held(p.id)).toBe(true)
        // linked, then the unit of work rolls back: link and release undone
        const uow = yield* UnitOfWork
        const attempt = instalment(p.id, 0, { transactionId: TransactionId.make(randomUUID()) })
        const rolledBack = yield* uow.atomically(Effect.zipRight(repo.linkInstalment(attempt), Effect.fail("undo" as const))).pipe(Effect.either)
        expect(rolledBack).toEqual(Either.left("undo"))
        expect(yield* held(p.id)).toBe(true)
        // linked: released
        expect(Option.isSome(yield* repo.linkInstalment(attempt))).toBe(true)
        expect(yield* held(p.id)).toBe(false)
        // held again, and the instalment is not free: nothing linked, the hold stays
        yield* repo.holdForPayout(p.id, at)
        expect(yield* repo.linkInstalment(instalment(p.id, 0, { transactionId: TransactionId.make(randomUUID()) }))).toEqual(Option.none())
        expect(yield* held(p.id)).toBe(true)
      }))

    it.effect("concurrent ensureInstalment calls: one row, both return it", () =>
      Effect.gen(function*() {
        const repo = yield* PlanRepo
        const customer = yield* newCustomer
        const p = yield* repo.insert(plan(customer.id))
        for (let cycle = 0; cycle < 5; cycle++) {
          const candidates = Array.from({ length: 4 }, (_, k) => instalment(p.id, cycle, { attempts: k }))
          const results = yield* Effect.all(candidates.map((i) => repo.ensureInstalment(i)), { concurrency: "unbounded" })
          const stored = Option.getOrThrow(yield* repo.findInstalment(p.id, cycle))
          expect(results).toEqual(candidates.map(() => stored))
          expect(candidates).toContainEqual(stored)
        }
        expect((yield* repo.listInstalments(p.id)).map((i) => i.cycle)).toEqual([0, 1, 2, 3, 4])
      }))

    it.effect("concurrent ensureInstalment calls inside units of work: one row, both return it", () =>
      Effect.gen(function*() {
        const repo = yield* PlanRepo
        const uow = yield* UnitOfWork
        const customer = yield* newCustomer
        const p = yield* repo.insert(plan(customer.id))
        const a = instalment(p.id, 0, { attempts: 1 })
        const b = instalment(p.id, 0, { attempts: 2 })
        const [first, second] = yield* Effect.all([
          uow.atomically(Effect.zipLeft(repo.ensureInstalment(a), realDelay(300))),
          Effect.zipRight(realDelay(100), uow.atomically(repo.ensureInstalment(b)))
        ], { concurrency: "unbounded" })
        expect(first).toEqual(a)
        expect(second).toEqual(a)
      }), { timeout: 30_000 })
  })

  describe("markPaidAndSave", () => {
    /** A new plan and its cycle 0, open on a live attempt. */
    const planWithOpenInstalment = Effect.gen(function*() {
      const repo = yield* PlanRepo
      const customer = yield* newCustomer
      const p = yield* repo.insert(plan(customer.id))
      const transactionId = TransactionId.make(randomUUID())
      const open = yield* repo.ensureInstalment(instalment(p.id, 0, { transactionId }))
      return { repo, p, transactionId, open }
    })

    it.effect("marks the instalment paid and saves the plan, only while it is open on that movement and the plan unchanged", () =>
      Effect.gen(function*() {
        const { repo, p, transactionId, open } = yield* planWithOpenInstalment
        const moved = new Plan({ ...p, nextCycle: 1, updatedAt: later(6) })
        // another movement, another cycle, no such plan: none, and nothing changes
        expect(Option.isNone(yield* repo.markPaidAndSave(moved, 0, TransactionId.make(randomUUID()), later(5), later(6)))).toBe(true)
        expect(Option.isNone(yield* repo.markPaidAndSave(moved, 1, transactionId, later(5), later(6)))).toBe(true)
        expect(Option.isNone(yield* repo.markPaidAndSave(new Plan({ ...moved, id: PlanId.make(randomUUID()) }), 0, transactionId, later(5), later(6))))
          .toBe(true)
        expect(Option.getOrThrow(yield* repo.findInstalment(p.id, 0))).toEqual(open)
        expect(Option.getOrThrow(yield* repo.findById(p.id))).toEqual(p)

        const saved = Option.getOrThrow(yield* repo.markPaidAndSave(moved, 0, transactionId, later(5), later(6)))
        expect(saved).toEqual(new Plan({ ...moved, version: p.version + 1 }))
        expect(Option.getOrThrow(yield* repo.findById(p.id))).toEqual(saved)
        const paid = new Instalment({ ...open, status: "paid", paidAt: later(5), updatedAt: later(6) })
        expect(Option.getOrThrow(yield* repo.findInstalment(p.id, 0))).toEqual(paid)
        // paid already: none, and the first payment time stays
        expect(Option.isNone(yield* repo.markPaidAndSave(saved, 0, transactionId, later(7), later(8)))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findInstalment(p.id, 0))).toEqual(paid)
        expect(Option.getOrThrow(yield* repo.findById(p.id))).toEqual(saved)
      }))

    it.effect("a lease taken after the caller read the plan (no new version) comes back as stored, with the rest from the caller", () =>
      Effect.gen(function*() {
        const { repo, p, transactionId } = yield* planWithOpenInstalment
        expect(p.leaseUntil).toBeNull()
        yield* Effect.orDie(Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql`UPDATE disbursement_plans SET lease_until = now() + interval '5 minutes' WHERE id = ${p.id}`))
        const leased = Option.getOrThrow(yield* repo.findById(p.id))
        expect(leased.leaseUntil).toBeInstanceOf(Date)
        expect(leased.version).toBe(p.version)
        const saved = Option.getOrThrow(yield* repo.markPaidAndSave(new Plan({ ...p, nextCycle: 1, updatedAt: later(6) }), 0, transactionId, later(5), later(6)))
        expect(saved).toEqual(new Plan({ ...p, nextCycle: 1, updatedAt: later(6), version: p.version + 1, leaseUntil: leased.leaseUntil }))
        expect(Option.getOrThrow(yield* repo.findById(p.id))).toEqual(saved)
      }))

    it.effect("a plan saved meanwhile (another version): none, and the instalment stays open", () =>
      Effect.gen(function*() {
        const { repo, p, transactionId, open } = yield* planWithOpenInstalment
        const edited = yield* repo.save(new Plan({ ...p, withdrawalAccountName: "EDITED", updatedAt: later(3) }))
        const stale = new Plan({ ...p, nextCycle: 1, updatedAt: later(6) })
        expect(Option.isNone(yield* repo.markPaidAndSave(stale, 0, transactionId, later(5), later(6)))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findInstalment(p.id, 0))).toEqual(open)
        expect(Option.getOrThrow(yield* repo.findById(p.id))).toEqual(edited)
      }))

    it.effect("while another unit of work holds the plan's lock it waits, then sees the plan's new version: none", () =>
      Effect.gen(function*() {
        const uow = yield* UnitOfWork
        const { repo, p, transactionId, open } = yield* planWithOpenInstalment
        const [edited, attempt] = yield* Effect.all([
          uow.atomically(Effect.gen(function*() {
            const locked = Option.getOrThrow(yield* repo.lock(p.id))
            yield* realDelay(300)
            return yield* repo.save(new Plan({ ...locked, withdrawalAccountName: "EDITED", updatedAt: later(3) }))
          })),
          Effect.zipRight(realDelay(100), repo.markPaidAndSave(new Plan({ ...p, nextCycle: 1 }), 0, transactionId, later(5), later(6)))
        ], { concurrency: "unbounded" })
        expect(Option.isNone(attempt)).toBe(true)
        expect(Option.getOrThrow(yield* repo.findInstalment(p.id, 0))).toEqual(open)
        expect(Option.getOrThrow(yield* repo.findById(p.id))).toEqual(edited)
      }), { timeout: 30_000 })
  })

  describe("countMovements", () => {
    it.effect("counts the plan's transfers of the purpose that have not failed, since the given instant", () =>
      Effect.gen(function*() {
        const repo = yield* PlanRepo
        const customer = yield* newCustomer
        const p = yield* repo.insert(plan(customer.id))
        const other = yield* repo.insert(plan((yield* newCustomer).id))

        yield* settledTransfer(transfer(customer.id, { planId: p.id, purpose: "disbursement", createdAt: later(1_000) }))
        yield* settledTransfer(transfer(customer.id, { planId: p.id, purpose: "disbursement", createdAt: later(2_000) }), "pending")
        const failing = yield* settledTransfer(transfer(customer.id, { planId: p.id, purpose: "disbursement", createdAt: later(3_000) }))
        yield* settledTransfer(transfer(customer.id, { planId: p.id, purpose: "early_withdrawal", createdAt: later(4_000) }))
        // not the plan's
        yield* settledTransfer(transfer(customer.id, { planId: null, purpose: "disbursement", createdAt: later(5_000) }))
        yield* settledTransfer(transfer(other.customerId, { planId: other.id, purpose: "disbursement", createdAt: later(6_000) }))

        expect(yield* repo.countMovements(p.id, "disbursement", null)).toBe(3)
        yield* (yield* TransferRepo).update(failing, { status: "failed", failureReason: "x" }, later(3_500))
        expect(yield* repo.countMovements(p.id, "disbursement", null)).toBe(2)
        expect(yield* repo.countMovements(p.id, "disbursement", later(2_000))).toBe(1) // inclusive
        expect(yield* repo.countMovements(p.id, "disbursement", later(2_001))).toBe(0)
        expect(yield* repo.countMovements(p.id, "early_withdrawal", null)).toBe(1)
        expect(yield* repo.countMovements(p.id, "early_withdrawal", later(4_001))).toBe(0)
        expect(yield* repo.countMovements(p.id, "manual_transfer", null)).toBe(0)
        expect(yield* repo.countMovements(other.id, "disbursement", null)).toBe(1)
        expect(yield* repo.countMovements(PlanId.make(randomUUID()), "disbursement", null)).toBe(0)
      }))
  })
})

// A database of its own: claims look at every plan.
layer(Repos(), { timeout: "60 seconds" })(`PlanRepo claims (${describeBackend()})`, (it) => {
  const lease = 30_000
  const claimDueMine = (ids: ReadonlyArray<string>, now: Date) =>
    Effect.gen(function*() {
      const claimed = yield* (yield* PlanRepo).claimDue(now, new Date(now.getTime() + lease), 1_000)
      return claimed.filter((p) => ids.includes(p.id))
    })
  const claimInactiveMine = (ids: ReadonlyArray<string>, now: Date) =>
    Effect.gen(function*() {
      const claimed = yield* (yield* PlanRepo).claimInactive(now, new Date(now.getTime() + lease), 1_000)
      return claimed.filter((p) => ids.includes(p.id))
    })
  const inserted = (p: Plan) => Effect.flatMap(PlanRepo, (repo) => repo.insert(p))
  /** moves the plans' leases back by `interval`, as the database's clock running on would (order kept) */
  const shiftLeases = (ids: ReadonlyArray<string>, interval: string) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql`UPDATE disbursement_plans SET lease_until = lease_until - ${interval}::interval WHERE ${sql.in("id", ids)}`)
  const withCustomer = (overrides: Partial<PlanFields>) => Effect.flatMap(newCustomer, (c) => inserted(plan(c.id, overrides)))

  it.effect("claimDue takes active plans whose next cycle is due, sets the lease, keeps the version", () =>
    Effect.gen(function*() {
      const repo = yield* PlanRepo
      const due = yield* withCustomer({ nextDueAt: later(1_000), version: 3 })
      const notYet = yield* withCustomer({ nextDueAt: later(2_000) })
      const others = yield* Effect.all([
        withCustomer({ state: "awaiting_funds", nextDueAt: later(0) }),
        withCustomer({ state: "depleted", nextDueAt: later(0) }),
        withCustomer({ state: "paused", nextDueAt: later(0) }),
        withCustomer({ state: "completed", nextDueAt: later(0) }),
        withCustomer({ nextDueAt: null })
      ])
      const ids = [due.id, notYet.id, ...others.map((p) => p.id)]
      expect(yield* claimDueMine(ids, later(999))).toEqual([])
      const now = later(1_000)
      const before = Date.now()
      const claimed = yield* claimDueMine(ids, now)
      expect(claimed).toEqual([new Plan({ ...due, leaseUntil: claimed[0]!.leaseUntil })])
      // the lease runs from the database's now(), not from the caller's clock
      expect(Math.abs(claimed[0]!.leaseUntil!.getTime() - (before + lease))).toBeLessThan(5_000)
      expect(Option.getOrThrow(yield* repo.findById(due.id))).toEqual(claimed[0])

      // held by its lease until it expires, even for a caller whose clock runs far ahead; the
      // other one is due by now
      expect((yield* claimDueMine(ids, later(5_000))).map((p) => p.id)).toEqual([notYet.id])
      expect(yield* claimDueMine([due.id], new Date(Date.now() + 10 * lease))).toEqual([])
      yield* shiftLeases([due.id], "1 day")
      const reclaimed = yield* claimDueMine([due.id], later(6_000))
      expect(reclaimed.map((p) => p.id)).toEqual([due.id])

      // release clears the lease, version unchanged
      yield* repo.release(due.id)
      expect(Option.getOrThrow(yield* repo.findById(due.id))).toEqual(due)
      expect((yield* claimDueMine([due.id], later(1_000))).map((p) => p.id)).toEqual([due.id])

      // releaseMany clears several leases in one go, version unchanged; an empty list is nothing
      const second = yield* withCustomer({ nextDueAt: later(0) })
      // `due` is held again (claimed just above)
      expect((yield* claimDueMine([due.id, second.id], later(1_000))).map((p) => p.id)).toEqual([second.id])
      yield* repo.releaseMany([])
      expect(yield* claimDueMine([due.id, second.id], later(1_000))).toEqual([])
      yield* repo.releaseMany([due.id, second.id, randomUUID()])
      expect(Option.getOrThrow(yield* repo.findById(due.id))).toEqual(due)
      expect(Option.getOrThrow(yield* repo.findById(second.id))).toEqual(second)
      expect((yield* claimDueMine([due.id, second.id], later(1_000))).map((p) => p.id).sort()).toEqual([due.id, second.id].sort())

      // a lease written by insert (or left by save) is respected too
      const held = yield* withCustomer({ nextDueAt: later(0), leaseUntil: new Date(Date.now() + 10_000_000) })
      expect(yield* claimDueMine([held.id], later(9_000_000))).toEqual([])
      yield* shiftLeases([held.id], "1 day")
      expect((yield* claimDueMine([held.id], later(9_000_000))).map((p) => p.id)).toEqual([held.id])
    }))

  it.effect("claimDue takes a plan whose open instalment's payout is no longer pending", () =>
    Effect.gen(function*() {
      const repo = yield* PlanRepo
      const transfers = yield* TransferRepo
      const customer = yield* newCustomer
      const p = yield* inserted(plan(customer.id, { nextDueAt: later(100_000_000) }))
      const payout = yield* transfers.create(transfer(customer.id, { planId: p.id })).pipe(Effect.map((r) => r.transfer))
      yield* repo.ensureInstalment(instalment(p.id, 0, { transactionId: payout.id }))
      // pending, even restored: not yet
      expect(yield* claimDueMine([p.id], later(1_000))).toEqual([])
      yield* transfers.update(payout, { restored: true, transferState: "pending" }, later(1))
      expect(yield* claimDueMine([p.id], later(1_000))).toEqual([])

      yield* transfers.update(payout, { status: "confirmed", transferState: "successful" }, later(2))
      expect((yield* claimDueMine([p.id], later(1_000))).map((x) => x.id)).toEqual([p.id])
      yield* repo.release(p.id)

      // settled: the instalment is paid, nothing left to do
      yield* repo.saveInstalment(instalment(p.id, 0, { transactionId: payout.id, status: "paid", paidAt: later(3) }))
      expect(yield* claimDueMine([p.id], later(1_000))).toEqual([])

      // a failed payout waits to be settled too, but only while the plan is active
      const failed = yield* transfers.create(transfer(customer.id, { planId: p.id })).pipe(Effect.map((r) => r.transfer))
      yield* transfers.update(failed, { status: "failed", failureReason: "x", restored: true }, later(4))
      yield* repo.ensureInstalment(instalment(p.id, 1, { transactionId: failed.id }))
      expect((yield* claimDueMine([p.id], later(1_000))).map((x) => x.id)).toEqual([p.id])
      yield* repo.release(p.id)
      yield* repo.save(new Plan({ ...p, state: "paused", updatedAt: later(5) }))
      expect(yield* claimDueMine([p.id], later(1_000))).toEqual([])
    }))

  it.effect("claimDue: earliest due first, at most `limit`", () =>
    Effect.gen(function*() {
      const repo = yield* PlanRepo
      // due before every other plan of this database, so they come first
      const base = new Date("2000-01-01T00:00:00.000Z").getTime()
      const plans = yield* Effect.all([0, 1, 2].map((i) => withCustomer({ nextDueAt: new Date(base + (3 - i) * 1000) })))
      const now = later(200_000_000)
      const claimed = yield* repo.claimDue(now, new Date(now.getTime() + lease), 2)
      expect(claimed.map((p) => p.id)).toEqual([plans[2]!.id, plans[1]!.id])
      const rest = yield* repo.claimDue(now, new Date(now.getTime() + lease), 1)
      expect(rest.map((p) => p.id)).toEqual([plans[0]!.id])
    }))

  it.effect("concurrent claimDue calls never return the same plan", () =>
    Effect.gen(function*() {
      const repo = yield* PlanRepo
      const plans = yield* Effect.all(Array.from({ length: 30 }, (_, i) => withCustomer({ nextDueAt: later(i) })))
      const ids = plans.map((p) => p.id)
      const now = later(300_000_000)
      const rounds = yield* Effect.all(
        Array.from({ length: 6 }, () => repo.claimDue(now, new Date(now.getTime() + lease), 7)),
        { concurrency: "unbounded" }
      )
      const claimed = rounds.flat().map((p) => p.id)
      expect(rounds.every((r) => r.length <= 7)).toBe(true)
      expect(new Set(claimed).size).toBe(claimed.length)
      // each call's plans come earliest due first
      for (const r of rounds) {
        const dues = r.map((p) => p.nextDueAt!.getTime())
        expect(dues).toEqual([...dues].sort((a, b) => a - b))
      }
      const rest = (yield* repo.claimDue(now, new Date(now.getTime() + lease), 1_000)).map((p) => p.id)
      expect(rest.filter((id) => claimed.includes(id))).toEqual([])
      expect([...claimed, ...rest].filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort())
      expect(yield* repo.claimDue(now, new Date(now.getTime() + lease), 1_000)).toEqual([])
    }))

  it.effect("claimInactive takes plans awaiting funds or depleted: never claimed first, then oldest lease, then least recently updated", () =>
    Effect.gen(function*() {
      const repo = yield* PlanRepo
      const base = new Date("1999-01-01T00:00:00.000Z").getTime()
      const depleted = yield* withCustomer({ state: "depleted", updatedAt: new Date(base + 2_000), version: 4 })
      const awaiting = yield* withCustomer({ state: "awaiting_funds", nextDueAt: null, updatedAt: new Date(base + 1_000) })
      const others = yield* Effect.all([
        withCustomer({ state: "active", updatedAt: new Date(base) }),
        withCustomer({ state: "paused", updatedAt: new Date(base) }),
        withCustomer({ state: "completed", updatedAt: new Date(base) })
      ])
      const held = yield* withCustomer({ state: "depleted", updatedAt: new Date(base), leaseUntil: new Date(Date.now() + 60_000) })
      const ids = [depleted.id, awaiting.id, held.id, ...others.map((p) => p.id)]
      const now = later(1_000)
      const claimed = yield* claimInactiveMine(ids, now)
      const leaseUntil = claimed[0]!.leaseUntil
      expect(claimed).toEqual([new Plan({ ...awaiting, leaseUntil }), new Plan({ ...depleted, leaseUntil })])
      expect(yield* claimInactiveMine(ids, later(2_000))).toEqual([])

      // once every lease expired: the oldest lease first (held's was the latest), so a caller that
      // lets leases expire visits every plan in turn
      yield* shiftLeases(ids, "1 day")
      expect((yield* claimInactiveMine(ids, later(100_000))).map((p) => p.id)).toEqual([awaiting.id, depleted.id, held.id])

      yield* repo.release(depleted.id)
      expect(Option.getOrThrow(yield* repo.findById(depleted.id))).toEqual(depleted)
    }))
})

layer(Repos(), { timeout: "60 seconds" })(`NoticeRepo, TransactionRepo and TransferRepo additions (${describeBackend()})`, (it) => {
  it.effect("notices: record and list newest first, per customer", () =>
    Effect.gen(function*() {
      const repo = yield* NoticeRepo
      const customer = yield* newCustomer
      const other = yield* newCustomer
      const planId = PlanId.make(randomUUID())
      const old = new Notice({
        id: randomUUID(),
        customerId: customer.id,
        planId,
        transactionId: TransactionId.make(randomUUID()),
        kind: "disbursement_failed",
        message: "Your payout could not be sent",
        createdAt: later(1)
      })
      const recent = new Notice({
        id: randomUUID(),
        customerId: customer.id,
        planId: null,
        transactionId: null,
        kind: "plan_depleted",
        message: "Fund your wallet",
        createdAt: later(2)
      })
      yield* repo.record(old)
      yield* repo.record(recent)
      yield* repo.record(new Notice({ ...recent, id: randomUUID(), customerId: other.id }))
      const listed = yield* repo.listForCustomer(customer.id)
      expect(listed).toEqual([recent, old])
      expect(listed[0]).toBeInstanceOf(Notice)
      expect(yield* repo.listForCustomer(CustomerId.make(randomUUID()))).toEqual([])
    }))

  it.effect("listForCustomerByPurpose: every row of the purpose, newest first", () =>
    Effect.gen(function*() {
      const transactions = yield* TransactionRepo
      const customer = yield* newCustomer
      const a = yield* settledTransfer(transfer(customer.id, { purpose: "early_withdrawal", createdAt: later(1_000) }), "failed")
      const b = yield* settledTransfer(transfer(customer.id, { purpose: "early_withdrawal", createdAt: later(3_000) }))
      yield* settledTransfer(transfer(customer.id, { purpose: "disbursement", createdAt: later(2_000) }))
      const c = yield* settledTransfer(transfer(customer.id, { purpose: "early_withdrawal", createdAt: later(3_000) }), "pending")
      yield* settledTransfer(transfer((yield* newCustomer).id, { purpose: "early_withdrawal", createdAt: later(2_000) }))
      yield* transactions.recordDeposit({
        id: randomUUID(),
        customerId: customer.id,
        amountKobo: 5_000n,
        providerReference: "dep-1",
        postedAt: later(4_000),
        now: later(4_000)
      })

      const listed = yield* transactions.listForCustomerByPurpose(customer.id, "early_withdrawal")
      const sameInstant = [b.id, c.id].sort().reverse()
      expect(listed.map((t) => t.id)).toEqual([...sameInstant, a.id])
      expect(listed.map((t) => t.status)).toContain("failed")
      expect((yield* transactions.listForCustomerByPurpose(customer.id, "deposit")).map((t) => t.amountKobo)).toEqual([5_000n])
      expect(yield* transactions.listForCustomerByPurpose(customer.id, "manual_transfer")).toEqual([])
    }))

  it.effect("reserveKobo round-trips through TransferRepo (above 2^53), and defaults to 0", () =>
    Effect.gen(function*() {
      const repo = yield* TransferRepo
      const customer = yield* newCustomer
      const reserved = transfer(customer.id, { purpose: "early_withdrawal", reserveKobo: 900_719_925_474_099_312n })
      expect((yield* repo.create(reserved)).transfer).toEqual(reserved)
      expect(Option.getOrThrow(yield* repo.findById(reserved.id)).reserveKobo).toBe(900_719_925_474_099_312n)
      const updated = yield* repo.update(reserved, { restored: true, status: "confirmed" }, later(1))
      expect(updated.reserveKobo).toBe(900_719_925_474_099_312n)
      // the idempotent replay returns it too
      const replay = yield* repo.create(new Transfer({ ...reserved, id: TransactionId.make(randomUUID()) }))
      expect(replay.created).toBe(false)
      expect(replay.transfer.reserveKobo).toBe(900_719_925_474_099_312n)

      const plain = transfer(customer.id)
      expect(plain.reserveKobo).toBe(0n)
      yield* repo.create(plain)
      expect(Option.getOrThrow(yield* repo.findById(plain.id)).reserveKobo).toBe(0n)
    }))
})
