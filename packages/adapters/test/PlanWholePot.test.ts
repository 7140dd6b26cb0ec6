/**
 * Migration 0029 against a real database (PGlite, or PostgreSQL when TEST_DATABASE_URL is set): a
 * plan's paid_before_kobo and NIP fee caps round-trip through PlanRepo, and a plan edited under the
 * old meaning (its terms describing only the replaced schedule) is brought to the whole-plan meaning
 * (docs/decisions/plan-patch-after-paid-cycles.md).
 */
import { expect, layer } from "@effect/vitest"
import { CustomerId, Instalment, Plan, PlanId, PlanRepo, Plans } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { backfillWholePlans } from "../src/migrations/0029_plan_whole_pot_and_fee_caps.js"
import { newCustomer as newCustomerOf } from "../src/testing/Customers.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"

const Repos = () => adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const at = new Date("2026-01-01T10:00:00.000Z")
const newCustomer = newCustomerOf("whole-pot", "32", at)

const plan = (customerId: CustomerId, overrides: Partial<ConstructorParameters<typeof Plan>[0]> = {}) =>
  new Plan({
    id: PlanId.make(randomUUID()),
    customerId,
    totalAmountKobo: 700_000n,
    durationDays: 7,
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
    cycleCount: 7,
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

const paidInstalment = (planId: PlanId, cycle: number, amountKobo: bigint) =>
  new Instalment({
    planId,
    cycle,
    amountKobo,
    kind: "scheduled",
    status: "paid",
    attempts: 0,
    transactionId: null,
    dueAt: new Date(at.getTime() + cycle * 86_400_000),
    paidAt: new Date(at.getTime() + cycle * 86_400_000),
    createdAt: at,
    updatedAt: at
  })

layer(Repos(), { timeout: "60 seconds" })(`plans' whole pot and fee caps (${describeBackend()})`, (it) => {
  it.effect("paid_before_kobo and the fee caps round-trip; a plan made without them reads 0 and null", () =>
    Effect.gen(function*() {
      const repo = yield* PlanRepo
      const customer = yield* newCustomer
      const plain = yield* repo.insert(plan(customer.id))
      expect(plain).toMatchObject({ paidBeforeKobo: 0n, payoutFeeCapKobo: null, lastPayoutFeeCapKobo: null })
      const saved = yield* repo.save(new Plan({
        ...plain,
        paidBeforeKobo: 900_719_925_474_099_312n,
        payoutFeeCapKobo: 1_075n,
        lastPayoutFeeCapKobo: 2_688n
      }))
      expect(saved).toMatchObject({ paidBeforeKobo: 900_719_925_474_099_312n, payoutFeeCapKobo: 1_075n, lastPayoutFeeCapKobo: 2_688n })
      expect(Option.getOrThrow(yield* repo.findById(plain.id))).toEqual(saved)
    }))

  it.effect("a plan edited before 0029 (3 paid, then a 14-day schedule of its own pot) shows its whole pot and length", () =>
    Effect.gen(function*() {
      const repo = yield* PlanRepo
      const customer = yield* newCustomer
      // as the old edit left it: ₦7,000 over 14 new cycles after the 3 paid
      const legacy = yield* repo.insert(plan(customer.id, { durationDays: 14, cycleCount: 14, cycleBase: 3, nextCycle: 2 }))
      for (const cycle of [0, 1, 2]) yield* repo.ensureInstalment(paidInstalment(legacy.id, cycle, 100_000n))
      for (const cycle of [3, 4]) yield* repo.ensureInstalment(paidInstalment(legacy.id, cycle, 50_000n))
      yield* backfillWholePlans
      const migrated = Option.getOrThrow(yield* repo.findById(legacy.id))
      expect(migrated).toMatchObject({ paidBeforeKobo: 300_000n, totalAmountKobo: 700_000n, durationDays: 17, cycleCount: 14 })
      expect(Plans.wholePotKobo(migrated)).toBe(1_000_000n)
      expect(Plans.wholeCycles(migrated)).toBe(17)
      expect(Plans.paidKobo(migrated)).toBe(400_000n)
      // idempotent: a second run changes nothing
      yield* backfillWholePlans
      expect(Option.getOrThrow(yield* repo.findById(legacy.id))).toEqual(migrated)
      // a plan never edited is left as it is
      const fresh = yield* repo.insert(plan((yield* newCustomer).id))
      yield* backfillWholePlans
      expect(Option.getOrThrow(yield* repo.findById(fresh.id))).toEqual(fresh)
    }))
})
