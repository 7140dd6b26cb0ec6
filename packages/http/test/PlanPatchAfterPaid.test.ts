/**
 * Editing a plan after some of its cycles are paid (docs/decisions/plan-patch-after-paid-cycles.md),
 * end to end: the body of a PATCH describes the WHOLE plan (totalAmountKobo the whole pot,
 * durationDays the whole length), the instalments already paid count towards it, and what is left of
 * the pot is spread over the cycles left. The payouts made under a plan never exceed the
 * totalAmountKobo it shows, the response says what the wallet lacks (fundingNeededKobo), and a
 * Borrow followed by a PATCH does not pay the borrowed period again. The sandbox's books balance
 * after each test.
 */
import { PlanId, Plans } from "@app/domain"
import { conservation } from "@app/sandbox"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { actionOtp, get } from "./support/BankingFixtures.js"
import { expectFailure, expectSuccess, expectValidation, post } from "./support/Fixtures.js"
import {
  balanceOf,
  BORROW,
  deposit,
  DISBURSEMENT,
  getPlan,
  HISTORY,
  makeDue,
  nipFee,
  patchPlan,
  planCustomer
} from "./support/PlanFixtures.js"
import { TestServer } from "./support/TestServer.js"

const DAY = 24 * 3600_000
/** the default plan: ₦7,000 over 7 days, 7 × ₦1,000 */
const POT = 700_000n
const FEE = nipFee(100_000n)

const booksBalance = Effect.map(conservation, (check) => expect(check.problems).toEqual([]))

const history = (token: string) => Effect.map(get(HISTORY, token), (r) => expectSuccess(r, { apiObject: DISBURSEMENT }) as Array<any>)

/** What the plan's confirmed payouts add up to (scheduled and Borrow). */
const paidOut = (token: string) =>
  Effect.map(history(token), (rows) => rows.filter((r) => r.status === "confirmed").reduce((sum, r) => sum + BigInt(r.amountKobo), 0n))

/** Pays the plan's next cycle now (made due, then the due-payout job), `times` times. */
const payCycles = (planId: PlanId, times: number) =>
  Effect.gen(function*() {
    for (let i = 0; i < times; i++) {
      yield* makeDue(planId)
      expect((yield* Plans.processDuePayouts()).paid).toBe(1)
    }
  })

/** A PATCH behind a fresh OTP; the reply. */
const patchWithOtp = (c: { accessToken: string; email: string }, body: Record<string, unknown>) =>
  Effect.flatMap(actionOtp(c.accessToken, c.email), (otp) => patchPlan(c.accessToken, { ...body, ...otp }))

/**
 * Pays every cycle left, checking after each that what was paid stays within the totalAmountKobo
 * the plan shows; the plan is then completed and has paid exactly that.
 */
const payToTheEnd = (c: { accessToken: string }, planId: PlanId) =>
  Effect.gen(function*() {
    for (let guard = 0; guard < 40; guard++) {
      const plan = yield* getPlan(c.accessToken)
      const paid = yield* paidOut(c.accessToken)
      expect(paid).toBeLessThanOrEqual(BigInt(plan.totalAmountKobo))
      if (plan.status === "completed") {
        expect(paid).toBe(BigInt(plan.totalAmountKobo))
        expect(plan.cyclesPaid).toBe(plan.cyclesTotal)
        return plan
      }
      expect(plan.status).toBe("active")
      yield* payCycles(planId, 1)
    }
    throw new Error("the plan did not complete")
  })

layer(TestServer, { excludeTestServices: true, timeout: "180 seconds" })("PATCH after paid cycles", (it) => {
  it.effect("₦7,000 / 7 days, 3 paid, PATCHed to 14 days: still ₦7,000 in all, the ₦4,000 left over the 11 cycles left", () =>
    Effect.gen(function*() {
      const c = yield* planCustomer("patch-longer")
      yield* payCycles(c.plan.id, 3)
      const patched = expectSuccess(yield* patchWithOtp(c, { ...c.body, durationDays: 14 }), { apiObject: DISBURSEMENT })
      expect(patched).toMatchObject({
        id: c.plan.id,
        totalAmountKobo: String(POT),
        durationDays: 14,
        cyclesTotal: 14,
        cyclesPaid: 3,
        // ⌊₦4,000 / 11⌋; the last instalment carries the remainder
        amount: "36363",
        status: "active",
        active: true,
        fundingNeededKobo: "0"
      })
      expect(yield* getPlan(c.accessToken)).toMatchObject({ totalAmountKobo: String(POT), cyclesPaid: 3, fundingNeededKobo: "0" })
      yield* payToTheEnd(c, c.plan.id)
      const amounts = (yield* history(c.accessToken)).map((r) => r.amountKobo).reverse()
      expect(amounts).toEqual([...Array(3).fill("100000"), ...Array(10).fill("36363"), String(400_000 - 10 * 36_363)])
      yield* booksBalance
    }), 150_000)

  it.effect("a wallet funded for the old plan: the PATCH says it lacks only the fees of the extra payouts, and the plan waits for that alone", () =>
    Effect.gen(function*() {
      const c = yield* planCustomer("patch-exact", { fundKobo: Number(POT + 7n * FEE) })
      yield* payCycles(c.plan.id, 3)
      expect(yield* balanceOf(c.accessToken)).toBe(400_000n + 4n * FEE)
      const patched = expectSuccess(yield* patchWithOtp(c, { ...c.body, durationDays: 14 }), { apiObject: DISBURSEMENT })
      // ₦4,000 and 11 fees are needed; ₦4,000 and 4 fees are there
      expect(patched).toMatchObject({ totalAmountKobo: String(POT), status: "awaiting_funds", fundingNeededKobo: String(7n * FEE) })
      expect(yield* getPlan(c.accessToken)).toMatchObject({ status: "awaiting_funds", fundingNeededKobo: String(7n * FEE) })
      yield* deposit(c.accessToken, Number(7n * FEE))
      expect(yield* getPlan(c.accessToken)).toMatchObject({ status: "active", fundingNeededKobo: "0" })
      yield* payToTheEnd(c, c.plan.id)
      expect(yield* balanceOf(c.accessToken)).toBe(0n)
      yield* booksBalance
    }), 150_000)

  it.effect("a bigger pot after 3 paid: the customer is told to add exactly the difference", () =>
    Effect.gen(function*() {
      const c = yield* planCustomer("patch-bigger", { fundKobo: Number(POT + 7n * FEE) })
      yield* payCycles(c.plan.id, 3)
      const patched = expectSuccess(yield* patchWithOtp(c, { ...c.body, totalAmountKobo: 1_000_000 }), { apiObject: DISBURSEMENT })
      // ₦7,000 of the ₦10,000 is left for the 4 cycles left, with as many fees as before
      expect(patched).toMatchObject({
        totalAmountKobo: "1000000",
        cyclesTotal: 7,
        cyclesPaid: 3,
        amount: "175000",
        status: "awaiting_funds",
        fundingNeededKobo: "300000"
      })
      yield* deposit(c.accessToken, 300_000)
      yield* payToTheEnd(c, c.plan.id)
      expect(yield* paidOut(c.accessToken)).toBe(1_000_000n)
      yield* booksBalance
    }), 150_000)

  it.effect("a pot below what is paid, or a duration with no cycle left after those paid: 400 by field, the plan unchanged", () =>
    Effect.gen(function*() {
      const c = yield* planCustomer("patch-refused")
      yield* payCycles(c.plan.id, 3)
      const before = yield* getPlan(c.accessToken)
      const pot = expectValidation(yield* patchWithOtp(c, { ...c.body, totalAmountKobo: 300_000 }), {
        fields: ["totalAmountKobo"],
        apiObject: DISBURSEMENT
      })
      expect(pot.fieldErrors.totalAmountKobo[0]).toMatch(/₦3,000\.00 is paid already/)
      const duration = expectValidation(yield* patchWithOtp(c, { ...c.body, durationDays: 3 }), {
        fields: ["durationDays"],
        apiObject: DISBURSEMENT
      })
      expect(duration.fieldErrors.durationDays[0]).toMatch(/3 instalments are paid already/)
      expect(yield* getPlan(c.accessToken)).toEqual(before)
      yield* booksBalance
    }), 150_000)

  it.effect("a Borrow, then a PATCH: the new schedule starts after the borrowed period, never in it", () =>
    Effect.gen(function*() {
      const c = yield* planCustomer("patch-borrow")
      const firstDue = Date.parse(c.plan.nextDueAt)
      // the first period's payout, now
      const borrowed = expectSuccess(yield* post(BORROW, { idempotencyKey: randomUUID() }, c.accessToken), { apiObject: DISBURSEMENT })
      expect(borrowed).toMatchObject({ status: "confirmed", amountKobo: "100000" })
      expect(yield* getPlan(c.accessToken)).toMatchObject({ cyclesPaid: 1, borrowCount: 1 })
      const patched = expectSuccess(yield* patchWithOtp(c, { ...c.body, durationDays: 14 }), { apiObject: DISBURSEMENT })
      expect(patched).toMatchObject({ status: "active", cyclesPaid: 1, cyclesTotal: 14, borrowCount: 1, totalAmountKobo: String(POT) })
      // the borrowed cycle was due at firstDue: the next payout is the day after, as without the edit
      expect(Date.parse(patched.nextDueAt)).toBe(firstDue + DAY)
      // and the new schedule's first cycle (the period after the borrowed one) cannot be borrowed now too
      expectFailure(
        yield* post(BORROW, { idempotencyKey: randomUUID() }, c.accessToken),
        400,
        "You have already borrowed or been paid this period",
        DISBURSEMENT
      )
      yield* payToTheEnd(c, c.plan.id)
      expect(yield* history(c.accessToken)).toHaveLength(14)
      yield* booksBalance
    }), 150_000)
})
