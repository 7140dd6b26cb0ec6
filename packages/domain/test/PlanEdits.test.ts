/**
 * Editing a plan after some of its cycles are paid (docs/decisions/plan-patch-after-paid-cycles.md):
 * the terms describe the whole plan, so whatever sequence of payouts, Borrows and edits a customer
 * makes, the payouts never add up to more than the totalAmountKobo the plan shows, and exactly to it
 * once the plan completes. Property tests on the pot arithmetic (Pot.ts) and on the use cases
 * (in-memory ports, the fake bank and the TestClock), and the NIP fee caps (nip-fee-raised-mid-plan.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, FastCheck as fc, Layer, Option, TestClock, TestContext } from "effect"
import * as Banking from "../src/banking/index.js"
import { TestFunding } from "../src/banking/CoreBanking.js"
import { AccountRepo } from "../src/account/Ports.js"
import { Plan } from "../src/plans/Model.js"
import * as Plans from "../src/plans/index.js"
import { PlanRepo } from "../src/plans/Ports.js"
import * as Schedule from "../src/plans/Schedule.js"
import * as Settings from "../src/settings/Settings.js"
import * as Fees from "../src/transfers/Fees.js"
import { bankedAda, inMemory } from "./support/Fixtures.js"
import { FakeBank } from "./support/FakeBank.js"
import { InMemoryPlansLive, PlanStore } from "./support/InMemoryPlans.js"
import { InMemoryTransfersLive } from "./support/InMemoryTransfers.js"
import { CustomerId, PlanId } from "../src/shared/Ids.js"

const PlansLayer = InMemoryPlansLive.pipe(Layer.provideMerge(InMemoryTransfersLive))
const withPlans = <A, E>(effect: Effect.Effect<A, E, any>) => inMemory(Effect.provide(effect, PlansLayer))

const LIMITS: Settings.PlanLimits = Settings.PlanLimitsSetting.defaultValue
const FEE_SMALL = 1_075n // NIP ₦10 + 7.5% VAT, for payouts up to ₦5,000

/** 2026-11-21 06:00 UTC, 07:00 in Lagos: a Saturday. */
const START = Date.UTC(2026, 10, 21, 6, 0)
const AT = new Date(START)

/** A plan of `total` over `cycles` daily cycles, `paid` of them paid, never edited. */
const planOf = (total: bigint, cycles: number, paid = 0) =>
  new Plan({
    id: PlanId.make("p"),
    customerId: CustomerId.make("c"),
    totalAmountKobo: total,
    durationDays: cycles,
    frequency: "daily",
    weekDay: null,
    scheduledTime: "09:00",
    timeZone: "Africa/Lagos",
    withdrawalAccountNumber: "0123450001",
    withdrawalBankCode: "000013",
    withdrawalBankName: "GTBank",
    withdrawalAccountName: "ADA OBI",
    nameEnquirySessionId: "s",
    state: "active",
    cycleCount: cycles,
    cycleBase: 0,
    nextCycle: paid,
    anchorDate: "2026-11-21",
    nextDueAt: null,
    borrowCount: 0,
    leaseUntil: null,
    version: 0,
    activatedAt: AT,
    completedAt: null,
    createdAt: AT,
    updatedAt: AT
  })

type Step =
  | { readonly kind: "pay"; readonly times: number }
  | { readonly kind: "edit"; readonly total: bigint; readonly cycles: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("pay" as const), times: fc.integer({ min: 1, max: 5 }) }),
  fc.record({
    kind: fc.constant("edit" as const),
    total: fc.bigInt({ min: 0n, max: 3_000_000n }),
    cycles: fc.integer({ min: 1, max: 20 })
  })
)

describe("the pot arithmetic of edits (Pot.replan)", () => {
  it("across any sequence of payouts and edits, what is paid never exceeds the pot shown, and equals it at the end", () =>
    fc.assert(
      fc.property(fc.bigInt({ min: 100_000n, max: 3_000_000n }), fc.integer({ min: 1, max: 20 }), fc.array(step, { maxLength: 12 }), (total, cycles, steps) => {
        let plan = planOf(total, cycles)
        const payouts: Array<bigint> = []
        const sum = () => payouts.reduce((a, b) => a + b, 0n)
        const payOne = () => {
          payouts.push(Schedule.amountOfCycle(plan.totalAmountKobo, plan.cycleCount, plan.nextCycle))
          plan = new Plan({ ...plan, nextCycle: plan.nextCycle + 1 })
        }
        for (const s of steps) {
          if (s.kind === "pay") {
            for (let i = 0; i < s.times && plan.nextCycle < plan.cycleCount; i++) payOne()
          } else {
            const paid = sum()
            const result = Plans.replan(plan, s.total, s.cycles, LIMITS)
            if (Either.isLeft(result)) {
              // refused only when the whole plan leaves nothing (or too little) for the cycles left
              const left = s.cycles - payouts.length
              expect(left < 1 || s.total < paid + LIMITS.minInstalmentKobo * BigInt(left)).toBe(true)
            } else {
              plan = new Plan({ ...plan, ...result.right, durationDays: s.cycles, nextCycle: 0 })
              expect(Plans.wholePotKobo(plan)).toBe(s.total)
              expect(Plans.wholeCycles(plan)).toBe(s.cycles)
            }
          }
          expect(sum()).toBeLessThanOrEqual(Plans.wholePotKobo(plan))
          expect(Plans.paidKobo(plan)).toBe(sum())
          expect(Plans.cyclesPaid(plan)).toBe(payouts.length)
          expect(Plans.paidKobo(plan) + Plans.leftKobo(plan)).toBe(Plans.wholePotKobo(plan))
        }
        while (plan.nextCycle < plan.cycleCount) payOne()
        expect(sum()).toBe(Plans.wholePotKobo(plan))
        expect(payouts.length).toBe(Plans.wholeCycles(plan))
      }),
      { numRuns: 500 }
    ))

  it("₦7,000 / 7 days with 3 paid, made 14 days: ₦4,000 over the 11 cycles left; refusals name their field", () => {
    const plan = planOf(700_000n, 7, 3)
    expect(Plans.replan(plan, 700_000n, 14, LIMITS)).toEqual(
      Either.right({ paidBeforeKobo: 300_000n, totalAmountKobo: 400_000n, cycleCount: 11, cycleBase: 3 })
    )
    const short = Plans.replan(plan, 299_999n, 7, LIMITS)
    expect(Either.isLeft(short) && Object.keys(short.left.fieldErrors)).toEqual(["totalAmountKobo"])
    const over = Plans.replan(plan, 700_000n, 3, LIMITS)
    expect(Either.isLeft(over) && Object.keys(over.left.fieldErrors)).toEqual(["durationDays"])
  })
})

describe("the fee caps of a funded plan (payoutFee, reservedFor)", () => {
  const doubled: Fees.NipFeeSchedule = { tiers: [{ upToKobo: null, feeKobo: 2_000n }], vatBasisPoints: 750n }
  const halved: Fees.NipFeeSchedule = { tiers: [{ upToKobo: null, feeKobo: 500n }], vatBasisPoints: 750n }

  it("a payout is charged the current fee, never more than the one the plan was funded for; the reserve follows", () => {
    const plan = new Plan({ ...planOf(300_001n, 3), payoutFeeCapKobo: FEE_SMALL, lastPayoutFeeCapKobo: FEE_SMALL })
    expect(Plans.payoutFee(plan, 0, 100_000n, doubled)).toBe(FEE_SMALL)
    expect(Plans.payoutFee(plan, 0, 100_000n, halved)).toBe(538n)
    expect(Plans.reservedFor(plan, doubled)).toBe(300_001n + 3n * FEE_SMALL)
    expect(Plans.reservedFor(plan, halved)).toBe(300_001n + 3n * 538n)
    // not funded yet: the current fee
    expect(Plans.reservedFor(planOf(300_001n, 3), doubled)).toBe(300_001n + 3n * 2_150n)
  })
})

// ---------------------------------------------------------------------------------------------
// The use cases: payouts (the due-payout job on the TestClock), Borrows and edits, in any order
// ---------------------------------------------------------------------------------------------

type Op =
  | { readonly kind: "pay" }
  | { readonly kind: "borrow" }
  | { readonly kind: "edit"; readonly total: bigint; readonly durationDays: number; readonly frequency: Schedule.Frequency }

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.constant({ kind: "pay" as const }), weight: 3 },
  { arbitrary: fc.constant({ kind: "borrow" as const }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("edit" as const),
      total: fc.bigInt({ min: 50_000n, max: 2_000_000n }),
      durationDays: fc.integer({ min: 1, max: 30 }),
      frequency: fc.constantFrom<Schedule.Frequency>("daily", "daily", "weekly")
    }),
    weight: 2
  }
)

const input = (total: bigint, durationDays: number, frequency: Schedule.Frequency): Plans.PlanInput => ({
  totalAmountKobo: total,
  durationDays,
  frequency,
  weekDay: frequency === "weekly" ? "monday" : undefined,
  withdrawalAccountNumber: "0123450001",
  withdrawalBankCode: "000013",
  scheduledTime: "09:00",
  scheduledTimezone: "Africa/Lagos"
})

const scenario = (ops: ReadonlyArray<Op>) =>
  withPlans(Effect.gen(function*() {
    yield* TestClock.setTime(START)
    const ada = yield* bankedAda
    yield* (yield* TestFunding).deposit({ accountNumber: ada.accountNumber, amountKobo: 100_000_000n })
    yield* Banking.syncDeposits(ada.accountId)
    const customerId = Option.getOrThrow(yield* (yield* AccountRepo).findById(ada.accountId)).customer.id
    const stored = Effect.map(Effect.flatMap(PlanRepo, (r) => r.findForCustomer(customerId)), Option.getOrThrow)
    const paidOut = Effect.map(FakeBank.state, (s) => s.paidOutKobo)

    const first = yield* Plans.upsertPlan(ada.accountId, input(700_000n, 7, "daily"))
    expect(first.state).toBe("active")
    let borrows = 0

    /** Stands at the next due time and runs the job. */
    const payNext = Effect.gen(function*() {
      const plan = yield* stored
      if (plan.state !== "active" || plan.nextDueAt === null) return
      yield* TestClock.setTime(Math.max(plan.nextDueAt.getTime(), yield* TestClock.currentTimeMillis))
      yield* Plans.processDuePayouts()
    })

    const check = Effect.gen(function*() {
      const plan = yield* stored
      const paid = yield* paidOut
      expect(paid).toBeLessThanOrEqual(Plans.wholePotKobo(plan))
      expect(paid).toBe(Plans.paidKobo(plan))
      // every instalment paid falls on a later local day than the one before: no period paid twice
      const days = (yield* PlanStore.instalments(plan.id)).filter((i) => i.status === "paid").map((i) =>
        Schedule.localDate(i.dueAt, "Africa/Lagos"))
      for (let i = 1; i < days.length; i++) expect(days[i]! > days[i - 1]!).toBe(true)
      expect(days.length).toBe(Plans.cyclesPaid(plan))
      // a Borrow advances one period at most: never two payouts made for periods still ahead
      const now = yield* TestClock.currentTimeMillis
      const ahead = (yield* PlanStore.instalments(plan.id)).filter((i) => i.status === "paid" && i.dueAt.getTime() > now)
      expect(ahead.length).toBeLessThanOrEqual(1)
    })

    for (const o of ops) {
      const plan = yield* stored
      if (plan.state === "completed") break
      if (o.kind === "pay") yield* payNext
      else if (o.kind === "borrow") {
        const outcome = yield* Effect.either(Plans.borrow(ada.accountId, `borrow-${++borrows}`))
        if (Either.isLeft(outcome)) expect(outcome.left._tag).toBe("BorrowNotEligible")
      } else {
        const before = yield* stored
        const edited = yield* Effect.either(Plans.upsertPlan(ada.accountId, input(o.total, o.durationDays, o.frequency)))
        if (Either.isLeft(edited)) {
          expect(edited.left._tag).toBe("InvalidPlanTerms")
          expect(yield* stored).toEqual(before)
        } else {
          expect(Plans.wholePotKobo(edited.right)).toBe(o.total)
          expect(edited.right.state).toBe("active")
        }
      }
      yield* check
    }
    for (let guard = 0; guard < 200 && (yield* stored).state !== "completed"; guard++) {
      yield* payNext
      yield* check
    }
    const done = yield* stored
    expect(done.state).toBe("completed")
    expect(yield* paidOut).toBe(Plans.wholePotKobo(done))
    expect(yield* FakeBank.conserved).toBe(true)
  }))

describe("payouts, Borrows and edits in any order (the use cases)", () => {
  it("the payouts never exceed the totalAmountKobo shown, equal it at completion, and never pay a day twice", () =>
    fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), (ops) =>
        Effect.runPromise(Effect.provide(scenario(ops), TestContext.TestContext))),
      { numRuns: 20 }
    ), 120_000)

  it("a Borrow then an edit: the new schedule's first payout is the day after the borrowed one was due", () =>
    Effect.runPromise(Effect.provide(scenario([{ kind: "pay" }, { kind: "borrow" }, { kind: "edit", total: 700_000n, durationDays: 14, frequency: "daily" }]), TestContext.TestContext)))

  it("a Borrow, an edit, a Borrow: the second is refused, the period after the borrowed one is not advanced too", () =>
    Effect.runPromise(Effect.provide(scenario([{ kind: "borrow" }, { kind: "edit", total: 700_000n, durationDays: 14, frequency: "daily" }, { kind: "borrow" }]), TestContext.TestContext)))
})
