/**
 * Retrying a failed payout (`jobs failed --retry`), in the domain: in-memory ports, the fake bank and
 * the TestClock. A destination account ending 0003 is refused by the sandbox bank, so its payouts
 * fail and, after `maxAttempts`, pause the plan; the retry makes the plan due and the due-payout job
 * pays it through the saga.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Option, TestClock } from "effect"
import * as Banking from "../src/banking/index.js"
import { TestFunding } from "../src/banking/CoreBanking.js"
import { retryFailedPayout } from "../src/admin/JobRetry.js"
import { activeStaff as staff } from "./support/StaffFixtures.js"
import { AccountRepo } from "../src/account/Ports.js"
import { Plan } from "../src/plans/Model.js"
import * as Plans from "../src/plans/index.js"
import { PlanRepo } from "../src/plans/Ports.js"
import { TransactionRepo } from "../src/transactions/Ports.js"
import { bankedAda, inMemory } from "./support/Fixtures.js"
import { FakeBank } from "./support/FakeBank.js"
import { AuditRows, InMemoryAuditLive } from "./support/InMemoryAudit.js"
import { InMemoryPlansLive, PlanStore } from "./support/InMemoryPlans.js"
import { InMemoryTransfersLive, TransferStore } from "./support/InMemoryTransfers.js"
import { CustomerId, TransactionId } from "../src/shared/Ids.js"

const withPlans = <A, E>(effect: Effect.Effect<A, E, any>) =>
  inMemory(Effect.provide(effect, Layer.mergeAll(InMemoryPlansLive.pipe(Layer.provideMerge(InMemoryTransfersLive)), InMemoryAuditLive)))

const ADMIN = staff("admin", 1)
const SUPPORT = staff("support", 2)

/** 2026-11-21 06:00 UTC, 07:00 in Lagos. */
const START = Date.UTC(2026, 10, 21, 6, 0)

/** Ada, ₦10,000 in her wallet, and a daily plan of `days` × ₦1,000 to a destination the bank refuses (0003). */
const failingPlan = (days: number) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(START)
    const ada = yield* bankedAda
    yield* (yield* TestFunding).deposit({ accountNumber: ada.accountNumber, amountKobo: 1_000_000n })
    yield* Banking.syncDeposits(ada.accountId)
    const customerId = Option.getOrThrow(yield* (yield* AccountRepo).findById(ada.accountId)).customer.id
    yield* Plans.upsertPlan(ada.accountId, {
      totalAmountKobo: BigInt(days) * 100_000n,
      durationDays: days,
      frequency: "daily",
      withdrawalAccountNumber: "0123450003",
      withdrawalBankCode: "000013",
      scheduledTime: "09:00",
      scheduledTimezone: "Africa/Lagos"
    })
    yield* TestClock.setTime(Date.parse("2026-11-21T08:00:00Z"))
    return { ...ada, customerId }
  })

const planOf = (customerId: CustomerId) => Effect.map(Effect.flatMap(PlanRepo, (r) => r.findForCustomer(customerId)), Option.getOrThrow)
const failedPayouts = Effect.map(TransferStore.all, (ts) => ts.filter((t) => t.purpose === "disbursement" && t.status === "failed"))
const nowDate = Effect.map(TestClock.currentTimeMillis, (ms) => new Date(ms))
/** The bank fixed its routing to the customer's account: the destination now works (a test device). */
const destinationWorks = (customerId: CustomerId) =>
  Effect.flatMap(planOf(customerId), (plan) => Effect.flatMap(PlanRepo, (r) => r.save(new Plan({ ...plan, withdrawalAccountNumber: "0123450001" }))))

describe("jobs failed --retry", () => {
  it.effect("a plan paused after its attempts: active and due now, attempts from 0, audited; the next run pays it through the saga; then refused as paid", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* failingPlan(3)
      for (let i = 0; i < 3; i++) {
        expect((yield* Plans.processDuePayouts()).failed).toBe(1)
        yield* TestClock.adjust(Duration.hours(1))
      }
      const paused = yield* planOf(ada.customerId)
      expect(paused.state).toBe("paused")
      expect((yield* PlanStore.instalments(paused.id))[0]!.attempts).toBe(3)
      const failed = yield* failedPayouts
      expect(failed).toHaveLength(3)
      const last = failed.at(-1)!

      const denied = yield* Effect.flip(retryFailedPayout(SUPPORT, last.id))
      expect(denied).toMatchObject({ _tag: "PermissionDenied", permission: "jobs:retry" })

      yield* destinationWorks(ada.customerId)
      const at = yield* nowDate
      const retried = yield* retryFailedPayout(ADMIN, last.id)
      expect(retried).toEqual({ transactionId: last.id, planId: paused.id, cycle: 0, stateBefore: "paused", state: "active", nextDueAt: at })
      const resumed = yield* planOf(ada.customerId)
      expect(resumed).toMatchObject({ state: "active", nextDueAt: at })
      expect((yield* PlanStore.instalments(paused.id))[0]).toMatchObject({ status: "open", attempts: 0, transactionId: null })
      const row = (yield* AuditRows.all).find((r) => r.action === "job.retry")!
      expect(row).toMatchObject({ actorKind: "staff", actorId: ADMIN.id, targetKind: "plan", targetId: paused.id })
      expect(row.before).toMatchObject({ state: "paused", nextDueAt: null, attempts: 3 })
      expect(row.after).toMatchObject({ state: "active", attempts: 0, transactionId: last.id, cycle: 0 })

      // no money moved by the retry itself: the due-payout job pays it
      expect((yield* FakeBank.state).paidOutKobo).toBe(0n)
      expect(yield* Plans.processDuePayouts()).toEqual({ plans: 1, paid: 1, failed: 0 })
      expect((yield* FakeBank.state).paidOutKobo).toBe(100_000n)
      expect(yield* FakeBank.conserved).toBe(true)
      expect((yield* planOf(ada.customerId)).nextCycle).toBe(1)

      const again = yield* Effect.flip(retryFailedPayout(ADMIN, failed[0]!.id))
      expect(again).toMatchObject({ _tag: "JobRetryRefused", message: "instalment 0 has since been paid" })
    })))

  it.effect("an active plan waiting for its retry hour is due at once; a failure then counts as one more attempt", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* failingPlan(3)
      expect((yield* Plans.processDuePayouts()).failed).toBe(1)
      const waiting = yield* planOf(ada.customerId)
      expect(waiting.nextDueAt?.toISOString()).toBe("2026-11-21T09:00:00.000Z")
      yield* TestClock.adjust(Duration.minutes(10))
      const retried = yield* retryFailedPayout(ADMIN, (yield* failedPayouts)[0]!.id)
      expect(retried).toMatchObject({ stateBefore: "active", state: "active", nextDueAt: yield* nowDate })
      expect((yield* PlanStore.instalments(waiting.id))[0]!.attempts).toBe(1)
      // the destination still refuses: the retry went through the saga and failed again
      expect(yield* Plans.processDuePayouts()).toEqual({ plans: 1, paid: 0, failed: 1 })
      expect((yield* PlanStore.instalments(waiting.id))[0]!.attempts).toBe(2)
      expect((yield* planOf(ada.customerId)).nextDueAt?.toISOString()).toBe("2026-11-21T09:10:00.000Z")
      expect(yield* FakeBank.conserved).toBe(true)
    })))

  it.effect("refused: a completed plan, a transaction that is not a payout, a payout that did not fail; unknown ids not found", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* failingPlan(1)
      expect((yield* Plans.processDuePayouts()).failed).toBe(1)
      const failed = (yield* failedPayouts)[0]!
      yield* destinationWorks(ada.customerId)
      yield* TestClock.adjust(Duration.hours(1))
      expect((yield* Plans.processDuePayouts()).paid).toBe(1)
      expect((yield* planOf(ada.customerId)).state).toBe("completed")
      expect(yield* Effect.flip(retryFailedPayout(ADMIN, failed.id))).toMatchObject({ _tag: "JobRetryRefused", message: "the plan is completed" })

      const confirmed = (yield* TransferStore.all).find((t) => t.status === "confirmed")!
      expect((yield* Effect.flip(retryFailedPayout(ADMIN, confirmed.id))).message).toContain("is not a failed payout (disbursement, confirmed)")
      const deposit = (yield* (yield* TransactionRepo).listForCustomer(ada.customerId, { page: 1, pageSize: 10 })).items[0]!
      expect(yield* Effect.flip(retryFailedPayout(ADMIN, deposit.id))).toMatchObject({ _tag: "JobRetryRefused", message: `transaction ${deposit.id} is not a payout (deposit)` })
      expect((yield* Effect.flip(retryFailedPayout(ADMIN, TransactionId.make("00000000-0000-4000-8000-0000000000ff"))))._tag).toBe("AdminTransactionNotFound")
      expect((yield* AuditRows.all).filter((r) => r.action === "job.retry")).toEqual([])
    })))
})
