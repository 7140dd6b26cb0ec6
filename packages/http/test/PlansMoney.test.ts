/**
 * The money of disbursement plans end to end: scheduled payouts (the due-payout job run in the test
 * after the plan is made due in the database), their history, failures at the bank (reversed, retried,
 * paused) and a short wallet (depleted), Borrow and Extra Cash with their quotes, idempotency and caps.
 * The sandbox's books balance after every money test.
 */
import { Banking, CoreBanking, Plans } from "@app/domain"
import { conservation } from "@app/sandbox"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { actionOtp, bankCustomer, get, KOBO_STRING } from "./support/BankingFixtures.js"
import { expectFailure, expectSuccess, expectValidation, post } from "./support/Fixtures.js"
import {
  balanceOf,
  BORROW,
  BORROW_QUOTE,
  deposit,
  DISBURSEMENT,
  EXTRA_CASH,
  EXTRA_CASH_QUOTE,
  expectedMax,
  extraCashFees,
  extraCashYesterday,
  getPlan,
  HISTORY,
  makeDue,
  nipFee,
  planBody,
  planCustomer,
  savePlan,
  upsert
} from "./support/PlanFixtures.js"
import { outbox, TestServer } from "./support/TestServer.js"

const DAY = 24 * 3600_000
/** the default plan: 7 × ₦1,000 */
const INSTALMENT = 100_000n
const FEE = nipFee(INSTALMENT)

const booksBalance = Effect.gen(function*() {
  const check = yield* conservation
  expect(check.problems).toEqual([])
})

const history = (token: string) => Effect.map(get(HISTORY, token), (r) => expectSuccess(r, { apiObject: DISBURSEMENT }) as Array<any>)
const borrowQuote = (token: string) => get(BORROW_QUOTE, token)
const borrow = (token: string | undefined, idempotencyKey: string = randomUUID()) => post(BORROW, { idempotencyKey }, token)
const extraCashQuote = (token: string) => get(EXTRA_CASH_QUOTE, token)
const extraCash = (token: string, amountKobo: number | bigint, idempotencyKey: string = randomUUID()) =>
  post(EXTRA_CASH, { amountKobo: Number(amountKobo), idempotencyKey }, token)

const noticesTo = (email: string, kind: string) => outbox().filter((m) => m.to === email && m.kind === kind)

/** Runs the due-payout job (what the scheduler does) and returns its counts. */
const runPayouts = Plans.processDuePayouts()

layer(TestServer, { excludeTestServices: true, timeout: "120 seconds" })("disbursement plan money", (it) => {
  describe("scheduled payouts and GET /disbursements/history", () => {
    it.effect("a due instalment is paid once (two jobs at once), with its NIP fee; the schedule moves on", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("payout")
        expect(yield* history(c.accessToken)).toEqual([])
        // not due yet: the job does nothing
        yield* runPayouts
        expect((yield* getPlan(c.accessToken)).cyclesPaid).toBe(0)

        yield* makeDue(c.plan.id)
        const runs = yield* Effect.all([runPayouts, runPayouts], { concurrency: 2 })
        expect(runs[0].paid + runs[1].paid).toBe(1)
        yield* runPayouts

        const rows = yield* history(c.accessToken)
        expect(rows).toHaveLength(1)
        expect(rows[0]).toMatchObject({
          customerId: c.customerId,
          planId: c.plan.id,
          type: "transfer",
          purpose: "disbursement",
          amountKobo: String(INSTALMENT),
          feeKobo: String(FEE),
          status: "confirmed",
          failureReason: null
        })
        const plan = yield* getPlan(c.accessToken)
        expect(plan).toMatchObject({ cyclesPaid: 1, active: true, borrowCount: 0 })
        expect(Date.parse(plan.nextDueAt) - Date.parse(c.plan.nextDueAt)).toBe(DAY)
        expect(yield* balanceOf(c.accessToken)).toBe(2_000_000n - INSTALMENT - FEE)
        // the period is paid: no Borrow until the next one
        expect(expectSuccess(yield* borrowQuote(c.accessToken), { apiObject: DISBURSEMENT })).toEqual({
          eligible: false,
          amountKobo: String(INSTALMENT),
          reason: "You have already borrowed or been paid this period"
        })
        yield* booksBalance
      }))

    it.effect("the last instalment carries the remainder and completes the plan; a new POST then starts a new plan", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("complete", { body: { totalAmountKobo: 200_001, durationDays: 2 } })
        expect(c.plan.amount).toBe("100000")
        for (let cycle = 0; cycle < 2; cycle++) {
          yield* makeDue(c.plan.id)
          yield* runPayouts
        }
        const done = yield* getPlan(c.accessToken)
        expect(done).toMatchObject({ status: "completed", active: false, cyclesPaid: 2, nextDueAt: null })
        const rows = yield* history(c.accessToken)
        expect(rows.map((r) => r.amountKobo)).toEqual(["100001", "100000"])
        expect(Date.parse(rows[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(rows[1].createdAt))
        expect(noticesTo(c.email, "plan_completed")).toHaveLength(1)
        expect(expectFailure(yield* extraCashQuote(c.accessToken), 400, "No active disbursement plan", DISBURSEMENT)).toEqual({ code: "PLAN_NOT_ACTIVE" })

        const next = yield* upsert(c.accessToken, planBody())
        expect(next.id).not.toBe(c.plan.id)
        expect(next).toMatchObject({ active: true, cyclesPaid: 0, borrowCount: 0 })
        yield* booksBalance
      }))

    it.effect("0003: a payout the bank fails is reversed (disbursement_failed) and retried; after 3 failures the plan is paused until edited", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("payout-fail", { body: { withdrawalAccountNumber: "0123450003" } })
        yield* makeDue(c.plan.id)
        const run = yield* runPayouts
        expect(run.failed).toBe(1)
        expect(yield* balanceOf(c.accessToken)).toBe(2_000_000n)
        const rows = yield* history(c.accessToken)
        expect(rows).toHaveLength(1)
        expect(rows[0]).toMatchObject({ status: "failed", purpose: "disbursement" })
        expect(rows[0].failureReason).toEqual(expect.any(String))
        expect(noticesTo(c.email, "disbursement_failed")).toHaveLength(1)
        const retrying = yield* getPlan(c.accessToken)
        expect(retrying).toMatchObject({ active: true, cyclesPaid: 0, withdrawalBlocked: false })
        expect(Date.parse(retrying.nextDueAt)).toBeGreaterThan(Date.now() + 50 * 60_000)

        for (let attempt = 2; attempt <= 3; attempt++) {
          yield* makeDue(c.plan.id)
          yield* runPayouts
        }
        const paused = yield* getPlan(c.accessToken)
        expect(paused).toMatchObject({ status: "paused", active: false, withdrawalBlocked: true, nextDueAt: null, cyclesPaid: 0 })
        expect(noticesTo(c.email, "plan_paused")).toHaveLength(1)
        expect(yield* balanceOf(c.accessToken)).toBe(2_000_000n)

        // a new withdrawal account resumes it, on the same schedule; the next run pays the instalment
        const resumed = yield* upsert(c.accessToken, { ...c.body, withdrawalAccountNumber: "0123450001", ...(yield* actionOtp(c.accessToken, c.email)) })
        expect(resumed).toMatchObject({ status: "active", active: true, withdrawalBlocked: false, cyclesPaid: 0 })
        yield* makeDue(c.plan.id)
        expect((yield* runPayouts).paid).toBe(1)
        expect((yield* getPlan(c.accessToken)).cyclesPaid).toBe(1)
        expect(yield* balanceOf(c.accessToken)).toBe(2_000_000n - INSTALMENT - FEE)
        yield* booksBalance
      }))

    it.effect("0002: a pending payout holds the plan on its cycle; editing and Borrow wait for it", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("payout-pending", { body: { withdrawalAccountNumber: "0123450002" } })
        yield* makeDue(c.plan.id)
        yield* runPayouts
        const rows = yield* history(c.accessToken)
        expect(rows).toHaveLength(1)
        expect(rows[0].status).toBe("pending")
        expect((yield* getPlan(c.accessToken)).cyclesPaid).toBe(0)
        expectFailure(
          yield* savePlan(c.accessToken, { ...c.body, scheduledTime: "03:00" }),
          400,
          "A payout of your plan is in progress; try again shortly",
          DISBURSEMENT
        )
        expect(expectSuccess(yield* borrowQuote(c.accessToken), { apiObject: DISBURSEMENT })).toMatchObject({
          eligible: false,
          reason: "A payout of your plan is in progress"
        })
        expectFailure(yield* borrow(c.accessToken), 400, "A payout of your plan is in progress", DISBURSEMENT)
        yield* booksBalance
      }))

    it.effect("a wallet that cannot cover the payout: the plan is depleted (plan_depleted), nothing is debited; funded and saved again, it resumes", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("depleted", { fundKobo: 700_000 + 7 * Number(nipFee(100_000n)) })
        // the wallet falls short by other means than the service's (a charge taken at the bank): a
        // manual transfer cannot spend the plan's reserve (TransferReserve.test.ts)
        const bank = yield* CoreBanking
        yield* Effect.orDie(bank.deactivatePnd(c.accountNumber))
        yield* Effect.orDie(bank.debit({
          accountNumber: c.accountNumber,
          amountKobo: 650_000n + nipFee(650_000n),
          reference: `C${randomUUID().replaceAll("-", "").slice(0, 11)}`,
          narration: "Bank charge"
        }))
        yield* Effect.orDie(bank.activatePnd(c.accountNumber))
        // the service did not move this money: its balance cache learns of it as after any movement
        yield* (yield* Banking.BalanceCache).invalidate(c.accountNumber)
        const left = 700_000n + 7n * nipFee(100_000n) - 650_000n - nipFee(650_000n)
        expect(yield* balanceOf(c.accessToken)).toBe(left)
        yield* makeDue(c.plan.id)
        yield* runPayouts
        const depleted = yield* getPlan(c.accessToken)
        expect(depleted).toMatchObject({ status: "depleted", active: false, cyclesPaid: 0, nextDueAt: null })
        expect(noticesTo(c.email, "plan_depleted")).toHaveLength(1)
        expect(yield* balanceOf(c.accessToken)).toBe(left)

        yield* deposit(c.accessToken, 800_000)
        const resumed = yield* upsert(c.accessToken, c.body)
        expect(resumed).toMatchObject({ status: "active", active: true, cyclesPaid: 0 })
        // it keeps its anchor: the missed cycle's due date is the original one
        expect(resumed.nextDueAt).toBe(c.plan.nextDueAt)
        yield* makeDue(c.plan.id)
        expect((yield* runPayouts).paid).toBe(1)
        expect(yield* balanceOf(c.accessToken)).toBe(left + 800_000n - INSTALMENT - FEE)
        yield* booksBalance
      }))
  })

  describe("Borrow", () => {
    it.effect("quote: 404 without a plan; 'not active' while awaiting funds; the final period; the lifetime cap", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("bq")
        expectFailure(yield* borrowQuote(c.accessToken), 404, "No disbursement plan found", DISBURSEMENT)
        yield* deposit(c.accessToken, 10_000)
        expectFailure(yield* borrow(c.accessToken), 404, "No disbursement plan found", DISBURSEMENT)

        yield* upsert(c.accessToken, planBody())
        expect(expectSuccess(yield* borrowQuote(c.accessToken), { apiObject: DISBURSEMENT })).toEqual({
          eligible: false,
          amountKobo: "100000",
          reason: "Your plan is not active"
        })
        expectFailure(yield* borrow(c.accessToken), 400, "Your plan is not active", DISBURSEMENT)

        const single = yield* planCustomer("bq-final", { body: { durationDays: 1, totalAmountKobo: 100_000 } })
        expect(expectSuccess(yield* borrowQuote(single.accessToken), { apiObject: DISBURSEMENT })).toEqual({
          eligible: false,
          amountKobo: "100000",
          reason: "Borrow is not available for the final period of a plan"
        })

        const capped = yield* planCustomer("bq-cap")
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE disbursement_plans SET borrow_count = 3 WHERE id = ${capped.plan.id}`
        expect(expectSuccess(yield* borrowQuote(capped.accessToken), { apiObject: DISBURSEMENT })).toEqual({
          eligible: false,
          amountKobo: "100000",
          reason: "You have used all 3 borrows of this plan"
        })
        expectFailure(yield* borrow(capped.accessToken), 400, "You have used all 3 borrows of this plan", DISBURSEMENT)
      }))

    it.effect("pays the next instalment now: confirmed, borrowCount 1, the schedule one cycle on; the key replays; a second Borrow this period is refused", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("borrow")
        const quote = expectSuccess(yield* borrowQuote(c.accessToken), { apiObject: DISBURSEMENT })
        expect(quote).toEqual({ eligible: true, amountKobo: c.plan.amount })

        const key = randomUUID()
        const reply = yield* borrow(c.accessToken, key)
        const result = expectSuccess(reply, { apiObject: DISBURSEMENT, message: "Borrow processed." })
        expect(result).toMatchObject({
          status: "confirmed",
          transactionId: result.id,
          amountKobo: String(INSTALMENT),
          feeKobo: String(FEE),
          purpose: "disbursement",
          planId: c.plan.id,
          destinationAccountNumber: "0123450001"
        })
        expect(yield* balanceOf(c.accessToken)).toBe(2_000_000n - INSTALMENT - FEE)

        const plan = yield* getPlan(c.accessToken)
        expect(plan).toMatchObject({ borrowCount: 1, cyclesPaid: 1, active: true })
        expect(Date.parse(plan.nextDueAt) - Date.parse(c.plan.nextDueAt)).toBe(DAY)

        // the same key: the same movement, no second debit
        const again = expectSuccess(yield* borrow(c.accessToken, key), { apiObject: DISBURSEMENT })
        expect(again.transactionId).toBe(result.transactionId)
        expect(again.status).toBe("confirmed")
        // the key belongs to that Borrow: Extra Cash under it is a conflict
        expectFailure(yield* extraCash(c.accessToken, 10_000, key), 409, /already used/, DISBURSEMENT)

        // another key, same period
        const reason = "You have already borrowed or been paid this period"
        expectFailure(yield* borrow(c.accessToken), 400, reason, DISBURSEMENT)
        expect(expectSuccess(yield* borrowQuote(c.accessToken), { apiObject: DISBURSEMENT })).toMatchObject({ eligible: false, reason })
        expect(yield* balanceOf(c.accessToken)).toBe(2_000_000n - INSTALMENT - FEE)
        expect((yield* getPlan(c.accessToken)).borrowCount).toBe(1)

        // the Borrow is in the payout history; its scheduled payout is skipped (the cycle is paid)
        const rows = yield* history(c.accessToken)
        expect(rows.map((r) => r.id)).toEqual([result.transactionId])
        yield* makeDue(c.plan.id)
        yield* runPayouts
        expect((yield* history(c.accessToken)).map((r) => r.amountKobo)).toEqual([String(INSTALMENT), String(INSTALMENT)])
        expect((yield* getPlan(c.accessToken)).cyclesPaid).toBe(2)
        yield* booksBalance
      }))

    it.effect("concurrent Borrows with different keys: one goes through", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("borrow-race")
        const replies = yield* Effect.all(Array.from({ length: 5 }, () => borrow(c.accessToken)), { concurrency: "unbounded" })
        expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
        for (const r of replies.filter((r) => r.status !== 200)) expect(r.status).toBe(400)
        expect(yield* getPlan(c.accessToken)).toMatchObject({ borrowCount: 1, cyclesPaid: 1 })
        expect(yield* balanceOf(c.accessToken)).toBe(2_000_000n - INSTALMENT - FEE)
        yield* booksBalance
      }))

    it.effect("concurrent identical Borrows (one key): every reply is the one movement, one debit", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("borrow-twins")
        const key = randomUUID()
        const replies = yield* Effect.all(Array.from({ length: 5 }, () => borrow(c.accessToken, key)), { concurrency: "unbounded" })
        expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
        expect(new Set(replies.map((r) => r.body.result.transactionId)).size).toBe(1)
        expect(yield* balanceOf(c.accessToken)).toBe(2_000_000n - INSTALMENT - FEE)
        yield* booksBalance
      }))

    it.effect("0003: a Borrow the bank fails is 400 'Transfer failed', reversed, and leaves the cycle to the schedule", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("borrow-fail", { body: { withdrawalAccountNumber: "0123450003" } })
        const error = expectFailure(yield* borrow(c.accessToken), 400, /^Transfer failed/, DISBURSEMENT)
        expect(error.transactionId).toEqual(expect.any(String))
        expect(yield* balanceOf(c.accessToken)).toBe(2_000_000n)
        expect(yield* getPlan(c.accessToken)).toMatchObject({ borrowCount: 0, cyclesPaid: 0, active: true })
        expect(expectSuccess(yield* borrowQuote(c.accessToken), { apiObject: DISBURSEMENT }).eligible).toBe(true)
        yield* booksBalance
      }))

    it.effect("validation: idempotencyKey must be a UUID", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("borrow-val")
        expectValidation(yield* post(BORROW, {}, c.accessToken), { fields: ["idempotencyKey"], apiObject: DISBURSEMENT })
        expectValidation(yield* borrow(c.accessToken, "nope"), { fields: ["idempotencyKey"], apiObject: DISBURSEMENT })
      }))
  })

  describe("Extra Cash", () => {
    it.effect("quote: the reserve is the remaining instalments with their NIP fees (each tier, the remainder on the last)", () =>
      Effect.gen(function*() {
        const cases: ReadonlyArray<{ body: Record<string, unknown>; fund: number; reserved: bigint }> = [
          // 7 × ₦1,000 (₦10 + VAT each)
          { body: {}, fund: 2_000_000, reserved: 7n * (100_000n + 1_075n) },
          // 6 × ₦1,000 + ₦1,000.01
          { body: { totalAmountKobo: 700_001 }, fund: 2_000_000, reserved: 6n * 101_075n + 101_076n },
          // 2 weekly × ₦6,000 (₦25 + VAT)
          { body: { frequency: "weekly", weekDay: "wednesday", durationDays: 14, totalAmountKobo: 1_200_000 }, fund: 3_000_000, reserved: 2n * (600_000n + 2_688n) },
          // 2 monthly × ₦60,000 (₦50 + VAT)
          { body: { frequency: "monthly", durationDays: 60, totalAmountKobo: 12_000_000 }, fund: 15_000_000, reserved: 2n * (6_000_000n + 5_375n) }
        ]
        let n = 0
        for (const { body, fund, reserved } of cases) {
          const c = yield* planCustomer(`xq-${++n}`, { body, fundKobo: fund })
          const quote = expectSuccess(yield* extraCashQuote(c.accessToken), { apiObject: DISBURSEMENT })
          expect(quote).toEqual({
            vaultBalanceKobo: String(fund),
            reservedKobo: String(reserved),
            maxWithdrawalKobo: String(expectedMax(BigInt(fund) - reserved)),
            feeRate: 0.04,
            usedToday: 0,
            usedTotal: 0,
            perDay: 3,
            perPlan: 5
          })
          for (const k of ["vaultBalanceKobo", "reservedKobo", "maxWithdrawalKobo"]) expect(quote[k]).toMatch(KOBO_STRING)
        }
      }))

    it.effect("a withdrawal: confirmed, the wallet pays amount + 4% + NIP fee; the key replays; above the maximum is 400; exactly the maximum goes", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("xc")
        const key = randomUUID()
        const result = expectSuccess(yield* extraCash(c.accessToken, 100_000, key), {
          apiObject: DISBURSEMENT,
          message: "Extra Cash processed."
        })
        expect(result).toMatchObject({
          status: "confirmed",
          transactionId: result.id,
          purpose: "early_withdrawal",
          amountKobo: "100000",
          feeKobo: String(4_000n + 1_075n),
          planId: c.plan.id,
          destinationAccountNumber: "0123450001"
        })
        const afterOne = 2_000_000n - 100_000n - extraCashFees(100_000n)
        expect(yield* balanceOf(c.accessToken)).toBe(afterOne)
        // replay: same movement, no second debit; another amount under the key is a conflict
        expect(expectSuccess(yield* extraCash(c.accessToken, 100_000, key), { apiObject: DISBURSEMENT }).transactionId).toBe(result.id)
        expectFailure(yield* extraCash(c.accessToken, 100_001, key), 409, /already used/, DISBURSEMENT)
        expect(yield* balanceOf(c.accessToken)).toBe(afterOne)
        // Extra Cash is not a disbursement: the payout history is empty
        expect(yield* history(c.accessToken)).toEqual([])

        const quote = expectSuccess(yield* extraCashQuote(c.accessToken), { apiObject: DISBURSEMENT })
        expect(quote).toMatchObject({ vaultBalanceKobo: String(afterOne), usedToday: 1, usedTotal: 1 })
        const max = BigInt(quote.maxWithdrawalKobo)
        expect(max).toBe(expectedMax(afterOne - BigInt(quote.reservedKobo)))
        expectFailure(yield* extraCash(c.accessToken, max + 1n), 400, /^The most you can withdraw now is ₦/, DISBURSEMENT)
        expect(yield* balanceOf(c.accessToken)).toBe(afterOne)

        expect(expectSuccess(yield* extraCash(c.accessToken, max), { apiObject: DISBURSEMENT }).status).toBe("confirmed")
        const left = yield* balanceOf(c.accessToken)
        expect(left).toBe(afterOne - max - extraCashFees(max))
        expect(left).toBeGreaterThanOrEqual(7n * (INSTALMENT + FEE))
        // the plan is still covered: it stays active and pays its instalments
        expect((yield* getPlan(c.accessToken)).active).toBe(true)
        yield* makeDue(c.plan.id)
        expect((yield* runPayouts).paid).toBe(1)
        yield* booksBalance
      }))

    it.effect("caps: the 4th in one day is 400; 5 per plan", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("xc-caps")
        for (let i = 0; i < 3; i++) expectSuccess(yield* extraCash(c.accessToken, 10_000), { apiObject: DISBURSEMENT })
        expectFailure(yield* extraCash(c.accessToken, 10_000), 400, "Extra Cash is limited to 3 a day", DISBURSEMENT)
        expect(expectSuccess(yield* extraCashQuote(c.accessToken), { apiObject: DISBURSEMENT })).toMatchObject({ usedToday: 3, usedTotal: 3 })

        // a day later (the rows moved back a day): two more, then the lifetime cap
        yield* extraCashYesterday(c.plan.id)
        expect(expectSuccess(yield* extraCashQuote(c.accessToken), { apiObject: DISBURSEMENT })).toMatchObject({ usedToday: 0, usedTotal: 3 })
        for (let i = 0; i < 2; i++) expectSuccess(yield* extraCash(c.accessToken, 10_000), { apiObject: DISBURSEMENT })
        expectFailure(yield* extraCash(c.accessToken, 10_000), 400, "Extra Cash is limited to 5 per plan", DISBURSEMENT)
        expect(yield* balanceOf(c.accessToken)).toBe(2_000_000n - 5n * (10_000n + extraCashFees(10_000n)))
        yield* booksBalance
      }))

    it.effect("five concurrent requests with different keys never exceed the daily cap", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("xc-race")
        const replies = yield* Effect.all(Array.from({ length: 5 }, () => extraCash(c.accessToken, 10_000)), {
          concurrency: "unbounded"
        })
        for (const r of replies) expect([200, 400]).toContain(r.status)
        const confirmed = replies.filter((r) => r.status === 200 && r.body.result.status === "confirmed")
        expect(confirmed.length).toBeGreaterThanOrEqual(1)
        expect(confirmed.length).toBeLessThanOrEqual(3)
        expect(replies.filter((r) => r.status === 200)).toHaveLength(confirmed.length)
        expect(yield* balanceOf(c.accessToken)).toBe(2_000_000n - BigInt(confirmed.length) * (10_000n + extraCashFees(10_000n)))
        expect(expectSuccess(yield* extraCashQuote(c.accessToken), { apiObject: DISBURSEMENT }).usedToday).toBe(confirmed.length)
        // and afterwards, one at a time, the cap holds exactly
        for (let i = confirmed.length; i < 3; i++) expectSuccess(yield* extraCash(c.accessToken, 10_000), { apiObject: DISBURSEMENT })
        expectFailure(yield* extraCash(c.accessToken, 10_000), 400, "Extra Cash is limited to 3 a day", DISBURSEMENT)
        yield* booksBalance
      }))

    it.effect("concurrent identical withdrawals (one key): every reply is the one movement, one debit", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("xc-twins")
        const key = randomUUID()
        const replies = yield* Effect.all(Array.from({ length: 5 }, () => extraCash(c.accessToken, 10_000, key)), {
          concurrency: "unbounded"
        })
        expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
        expect(new Set(replies.map((r) => r.body.result.transactionId)).size).toBe(1)
        expect(yield* balanceOf(c.accessToken)).toBe(2_000_000n - 10_000n - extraCashFees(10_000n))
        yield* booksBalance
      }))

    it.effect("0003: a withdrawal the bank fails is 400 'Transfer failed', reversed, and not counted", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("xc-fail", { body: { withdrawalAccountNumber: "0123450003" } })
        expectFailure(yield* extraCash(c.accessToken, 10_000), 400, /^Transfer failed/, DISBURSEMENT)
        expect(yield* balanceOf(c.accessToken)).toBe(2_000_000n)
        expect(expectSuccess(yield* extraCashQuote(c.accessToken), { apiObject: DISBURSEMENT })).toMatchObject({ usedToday: 0, usedTotal: 0 })
        yield* booksBalance
      }))

    it.effect("no active plan: quote and withdrawal are 400; validation of the body", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("xc-none")
        yield* deposit(c.accessToken, 1_000_000)
        expectFailure(yield* extraCashQuote(c.accessToken), 400, "No active disbursement plan", DISBURSEMENT)
        expectFailure(yield* extraCash(c.accessToken, 10_000), 400, "No active disbursement plan", DISBURSEMENT)
        yield* upsert(c.accessToken, planBody({ totalAmountKobo: 5_000_000 }))
        expectFailure(yield* extraCashQuote(c.accessToken), 400, "No active disbursement plan", DISBURSEMENT)
        expectFailure(yield* extraCash(c.accessToken, 10_000), 400, "No active disbursement plan", DISBURSEMENT)

        expectValidation(yield* post(EXTRA_CASH, {}, c.accessToken), { fields: ["amountKobo", "idempotencyKey"], apiObject: DISBURSEMENT })
        for (const amountKobo of [0, -1, 1.5, "100"]) {
          expectValidation(yield* post(EXTRA_CASH, { amountKobo, idempotencyKey: randomUUID() }, c.accessToken), {
            fields: ["amountKobo"],
            apiObject: DISBURSEMENT
          })
        }
        expect(yield* balanceOf(c.accessToken)).toBe(1_000_000n)
      }))
  })
})
