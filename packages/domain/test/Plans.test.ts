/**
 * Disbursement plans through their whole life, in the domain: in-memory ports, the fake bank and the
 * TestClock. Each payout goes through the transfer saga; the fake bank checks conservation.
 */
import {describe, expect, it} from "@effect/vitest"
import {Clock, Deferred, Duration, Effect, Exit, FastCheck as fc, Fiber, Layer, Option, Ref, TestClock} from "effect"
import * as Banking from "../src/banking/index.js"
import { CoreBanking, TestFunding } from "../src/banking/CoreBanking.js"
import * as Fees from "../src/transfers/Fees.js"
import { Plan } from "../src/plans/Model.js"
import { Transfer } from "../src/transfers/Model.js"
import * as Plans from "../src/plans/index.js"
import * as Schedule from "../src/plans/Schedule.js"
import { AccountRepo } from "../src/account/Ports.js"
import { PlanRepo } from "../src/plans/Ports.js"
import * as Settings from "../src/settings/Settings.js"
import * as Transfers from "../src/transfers/index.js"
import * as Auth from "../src/auth/index.js"
import {bankedAda, bankedBola, inMemory} from "./support/Fixtures.js"
import {Sent} from "./support/InMemory.js"
import {FakeBank} from "./support/FakeBank.js"
import {InMemoryPlansLive, PlanStore} from "./support/InMemoryPlans.js"
import {InMemoryTransfersLive, NoticeStore, TransferStore} from "./support/InMemoryTransfers.js"
import { AccountId, CustomerId, TransactionId } from "../src/shared/Ids.js"

const PlansLayer = InMemoryPlansLive.pipe(Layer.provideMerge(InMemoryTransfersLive))
const withPlans = <A, E>(effect: Effect.Effect<A, E, any>) => inMemory(Effect.provide(effect, PlansLayer))

const FEE_SMALL = 1_075n // NIP ₦10 + 7.5% VAT, for payouts up to ₦5,000

/** 2026-11-21 06:00 UTC, 07:00 in Lagos: a Saturday. */
const START = Date.UTC(2026, 10, 21, 6, 0)

const planInput = (overrides: Partial<Plans.PlanInput> = {}): Plans.PlanInput => ({
  totalAmountKobo: 500_000n,
  durationDays: 5,
  frequency: "daily",
  withdrawalAccountNumber: "0123450001",
  withdrawalBankCode: "000013",
  scheduledTime: "09:00",
  scheduledTimezone: "Africa/Lagos",
  ...overrides
})

/** Ada with a bank account, `funds` deposited and recorded (withdrawals allowed). */
const fundedAda = (funds: bigint) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(START)
    const ada = yield* bankedAda
    if (funds > 0n) yield* deposit(ada, funds)
    const customer = Option.getOrThrow(yield* (yield* AccountRepo).findById(ada.accountId)).customer
    return { ...ada, customerId: customer.id }
  })

const deposit = (who: { accountId: AccountId; accountNumber: string }, amountKobo: bigint) =>
  Effect.gen(function*() {
    yield* (yield* TestFunding).deposit({ accountNumber: who.accountNumber, amountKobo })
    yield* Banking.syncDeposits(who.accountId)
  })

const planOf = (customerId: CustomerId) =>
  Effect.map(Effect.flatMap(PlanRepo, (r) => r.findForCustomer(customerId)), Option.getOrThrow)

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

const paidOut = Effect.map(FakeBank.state, (s) => s.paidOutKobo)

/** Money the customer takes out by another channel (PND lifted for it, as the bank would). */
const spendElsewhere = (accountNumber: string, amountKobo: bigint) =>
  Effect.gen(function*() {
    const bank = yield* CoreBanking
    yield* bank.deactivatePnd(accountNumber)
    yield* bank.debit({ accountNumber, amountKobo, reference: "DSPENDELSEWH", narration: "elsewhere" })
    yield* bank.activatePnd(accountNumber)
  })

describe("plan terms", () => {
  it.effect("a duration with no whole cycle, a weekly plan without its day, a bad zone or time: 400 by field", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* fundedAda(0n)
      const exit = yield* Effect.exit(Plans.upsertPlan(ada.accountId, planInput({
        frequency: "weekly",
        durationDays: 6,
        scheduledTime: "25:00",
        scheduledTimezone: "Mars/Olympus"
      })))
      expect(exit).toStrictEqual(Exit.fail(expect.anything()))
      const error = Exit.isFailure(exit) ? (exit.cause as any).error : undefined
      expect(error._tag).toBe("InvalidPlanTerms")
      expect(Object.keys(error.fieldErrors).sort()).toEqual(["durationDays", "scheduledTime", "scheduledTimezone", "weekDay"])
      const monthly = yield* Effect.flip(Plans.upsertPlan(ada.accountId, planInput({ frequency: "monthly", durationDays: 29 })))
      expect(monthly._tag).toBe("InvalidPlanTerms")
    })))

  it.effect("the account name comes from name enquiry when not supplied; the plan waits for funds", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* fundedAda(0n)
      const plan = yield* Plans.upsertPlan(ada.accountId, planInput())
      expect(plan.withdrawalAccountName).toBe("SANDBOX ACCOUNT 0001")
      expect(plan.withdrawalBankName).toBe("Guaranty Trust Bank")
      expect(plan.state).toBe("awaiting_funds")
      expect(plan.nextDueAt).toBeNull()
      expect(plan.cycleCount).toBe(5)
      expect(Plans.instalmentAmount(plan)).toBe(100_000n)
      // not covered yet: the activation job leaves it
      expect((yield* Plans.activateFundedPlans()).activated).toBe(0)
      // the pot alone is not enough: each of the five payouts also debits its NIP fee
      yield* deposit(ada, 500_000n)
      yield* TestClock.adjust(Duration.minutes(3))
      expect((yield* Plans.activateFundedPlans()).activated).toBe(0)
      yield* deposit(ada, 5n * FEE_SMALL)
      // the plan checked a moment ago waits for its lease to expire: every waiting plan gets its turn
      expect((yield* Plans.activateFundedPlans()).checked).toBe(0)
      yield* TestClock.adjust(Duration.minutes(3))
      expect((yield* Plans.activateFundedPlans()).activated).toBe(1)
      const active = yield* planOf(ada.customerId)
      expect(active.state).toBe("active")
      // 07:03 in Lagos: today's 09:00 slot is still ahead
      expect(active.anchorDate).toBe("2026-11-21")
      expect(active.nextDueAt?.toISOString()).toBe("2026-11-21T08:00:00.000Z")
    })))
})

describe("plan activation", () => {
  it.effect("activated by someone else between its read and its save: the stored, active plan is the answer", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* fundedAda(0n)
      const read = yield* Plans.upsertPlan(ada.accountId, planInput())
      expect(read.state).toBe("awaiting_funds")
      // funded, and activated (by the deposit or the activation job) after `read` was taken
      yield* deposit(ada, 1_000_000n)
      yield* TestClock.adjust(Duration.minutes(3))
      yield* Plans.activateFundedPlans()
      const stored = yield* planOf(ada.customerId)
      expect(stored.state).toBe("active")
      // a request that read the plan before: its save conflicts, and it answers with the stored plan
      expect(yield* Plans.activateIfFunded(read)).toEqual(stored)
    })))
})

describe("a daily plan, through its whole life", () => {
  it.effect("pays every cycle once, on time; a Borrow skips the next scheduled payout; Extra Cash keeps the reserve", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* fundedAda(1_000_000n)
      const plan = yield* Plans.upsertPlan(ada.accountId, planInput())
      expect(plan.state).toBe("active") // the wallet already covers it

      // before the first slot nothing is due
      expect((yield* Plans.processDuePayouts()).paid).toBe(0)
      yield* at("2026-11-21T08:00:00Z")
      expect(yield* Plans.processDuePayouts()).toEqual({ plans: 1, paid: 1, failed: 0 })
      expect((yield* planOf(ada.customerId)).nextDueAt?.toISOString()).toBe("2026-11-22T08:00:00.000Z")
      // a second run in the same minute pays nothing more
      expect((yield* Plans.processDuePayouts()).paid).toBe(0)
      expect(yield* paidOut).toBe(100_000n)

      // Borrow: cycle 1 (due 22 Nov) paid now, on the 21st
      yield* at("2026-11-21T15:00:00Z")
      const quote = yield* Plans.borrowQuote(ada.accountId)
      expect(quote).toEqual({ eligible: true, amountKobo: 100_000n })
      const borrowed = yield* Plans.borrow(ada.accountId, "borrow-1")
      expect(borrowed.status).toBe("confirmed")
      expect(borrowed.amountKobo).toBe(100_000n)
      expect(borrowed.feeKobo).toBe(FEE_SMALL)
      const afterBorrow = yield* planOf(ada.customerId)
      expect(afterBorrow.borrowCount).toBe(1)
      expect(afterBorrow.nextCycle).toBe(2)
      expect(afterBorrow.nextDueAt?.toISOString()).toBe("2026-11-23T08:00:00.000Z")
      // the same key replays the same movement; a second Borrow this period is refused
      expect((yield* Plans.borrow(ada.accountId, "borrow-1")).id).toBe(borrowed.id)
      const again = yield* Plans.borrowQuote(ada.accountId)
      expect(again.eligible).toBe(false)
      expect((yield* Effect.flip(Plans.borrow(ada.accountId, "borrow-2")))._tag).toBe("BorrowNotEligible")

      // 22 Nov: the borrowed cycle's scheduled payout is skipped
      yield* at("2026-11-22T08:00:00Z")
      expect((yield* Plans.processDuePayouts()).paid).toBe(0)
      expect(yield* paidOut).toBe(200_000n)

      // Extra Cash: the wallet keeps the 3 remaining payouts and their fees
      const position = yield* Plans.extraCashQuote(ada.accountId)
      const balance = 1_000_000n - 200_000n - 2n * FEE_SMALL
      expect(position.vaultBalanceKobo).toBe(balance)
      expect(position.reservedKobo).toBe(300_000n + 3n * FEE_SMALL)
      expect(position.feeRate).toBe(0.04)
      const max = position.maxWithdrawalKobo
      expect(max + Plans.extraCashFees(max, 400n, Fees.DefaultNipFeeSchedule)).toBeLessThanOrEqual(balance - position.reservedKobo)
      expect((yield* Effect.flip(Plans.extraCash(ada.accountId, max + 1n, "x-0")))._tag).toBe("ExtraCashNotAllowed")
      const extra = yield* Plans.extraCash(ada.accountId, 10_000n, "x-1")
      expect(extra.status).toBe("confirmed")
      expect(extra.purpose).toBe("early_withdrawal")
      expect(extra.feeKobo).toBe(400n + FEE_SMALL) // 4% of ₦100 + NIP fee with VAT
      expect(yield* paidOut).toBe(210_000n) // the destination got the full amount

      // the remaining cycles, then completion
      for (const day of ["2026-11-23", "2026-11-24", "2026-11-25"]) {
        yield* at(`${day}T08:00:00Z`)
        expect((yield* Plans.processDuePayouts()).paid).toBe(1)
      }
      const done = yield* planOf(ada.customerId)
      expect(done.state).toBe("completed")
      expect(done.nextDueAt).toBeNull()
      expect(yield* paidOut).toBe(510_000n)
      expect(yield* NoticeStore.kinds).toEqual(["plan_completed"])
      const instalments = yield* PlanStore.instalments(done.id)
      expect(instalments.map((i) => [i.cycle, i.kind, i.status])).toEqual([
        [0, "scheduled", "paid"],
        [1, "borrow", "paid"],
        [2, "scheduled", "paid"],
        [3, "scheduled", "paid"],
        [4, "scheduled", "paid"]
      ])
      const account = yield* FakeBank.account(ada.accountNumber)
      expect(account.ledgerKobo).toBe(1_000_000n - 510_000n - 6n * FEE_SMALL - 400n)
      expect(account.pndActive).toBe(true)
      expect(account.liens).toEqual([])
      expect(yield* FakeBank.conserved).toBe(true)
      // a completed plan: no Borrow, no Extra Cash
      expect((yield* Plans.borrowQuote(ada.accountId)).eligible).toBe(false)
      expect((yield* Effect.flip(Plans.extraCashQuote(ada.accountId)))._tag).toBe("PlanNotActive")
    })))
})

describe("Borrow idempotency", () => {
  it.effect("identical concurrent requests make one movement and all get it; the key with another request is a conflict", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* fundedAda(1_000_000n)
      yield* Plans.upsertPlan(ada.accountId, planInput())
      yield* at("2026-11-21T08:00:00Z")
      yield* Plans.processDuePayouts()
      yield* at("2026-11-21T15:00:00Z")
      const answers = yield* Effect.all(Array.from({ length: 5 }, () => Plans.borrow(ada.accountId, "same-key")), {
        concurrency: "unbounded"
      })
      expect(new Set(answers.map((t) => t.id)).size).toBe(1)
      expect(yield* paidOut).toBe(200_000n)
      expect((yield* planOf(ada.customerId)).borrowCount).toBe(1)
      expect((yield* Effect.flip(Plans.extraCash(ada.accountId, 1_000n, "same-key")))._tag).toBe("IdempotencyConflict")
    })))
})

describe("a weekly plan", () => {
  it.effect("pays on its week day; after downtime every missed cycle is paid once, in order, and the schedule goes on", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* fundedAda(1_000_000n)
      const plan = yield* Plans.upsertPlan(
        ada.accountId,
        planInput({ frequency: "weekly", weekDay: "friday", durationDays: 28, totalAmountKobo: 400_000n })
      )
      expect(plan.cycleCount).toBe(4)
      expect(plan.nextDueAt?.toISOString()).toBe("2026-11-27T08:00:00.000Z") // the first Friday
      const board = (iso: string) => Effect.flatMap(PlanRepo, (r) => r.payoutBoard(new Date(iso)))
      expect(yield* board("2026-11-26T00:00:00Z")).toMatchObject({ activePlans: 1, dueNow: 0, claimed: 0, nextDueAt: plan.nextDueAt })
      // the service is down for two weeks and a day
      yield* at("2026-12-05T12:00:00Z")
      expect(yield* board("2026-12-05T12:00:00Z")).toMatchObject({ activePlans: 1, dueNow: 1, nextDueAt: null })
      const run = yield* Plans.processDuePayouts()
      expect(run.paid).toBe(2)
      const instalments = yield* PlanStore.instalments(plan.id)
      expect(instalments.map((i) => i.dueAt.toISOString())).toEqual(["2026-11-27T08:00:00.000Z", "2026-12-04T08:00:00.000Z"])
      // paid in order
      const first = instalments[0]!.paidAt!.getTime()
      const second = instalments[1]!.paidAt!.getTime()
      expect(first).toBeLessThanOrEqual(second)
      const after = yield* planOf(ada.customerId)
      expect(after.nextDueAt?.toISOString()).toBe("2026-12-11T08:00:00.000Z")
      expect(yield* paidOut).toBe(200_000n)
      yield* at("2026-12-18T08:00:00Z")
      expect((yield* Plans.processDuePayouts()).paid).toBe(2)
      expect((yield* planOf(ada.customerId)).state).toBe("completed")
      expect(yield* paidOut).toBe(400_000n)
    })))
})

describe("a monthly plan", () => {
  it.effect("anchored on the 31st: paid on the last day of shorter months, then back on the 31st", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* fundedAda(1_000_000n)
      yield* at("2027-01-31T06:00:00Z")
      const plan = yield* Plans.upsertPlan(ada.accountId, planInput({ frequency: "monthly", durationDays: 90, totalAmountKobo: 300_001n }))
      expect(plan.cycleCount).toBe(3)
      expect(Plans.instalmentAmount(plan)).toBe(100_000n)
      const due: Array<string> = []
      for (const when of ["2027-01-31T08:00:00Z", "2027-02-28T08:00:00Z", "2027-03-31T08:00:00Z"]) {
        yield* at(when)
        due.push((yield* planOf(ada.customerId)).nextDueAt!.toISOString())
        expect((yield* Plans.processDuePayouts()).paid).toBe(1)
      }
      expect(due).toEqual(["2027-01-31T08:00:00.000Z", "2027-02-28T08:00:00.000Z", "2027-03-31T08:00:00.000Z"])
      // the remainder kobo went with the last instalment: the sum is the pot
      expect(yield* paidOut).toBe(300_001n)
      expect((yield* planOf(ada.customerId)).state).toBe("completed")
    })))
})

describe("payouts that cannot be made", () => {
  it.effect("a failing destination: reversed, disbursement_failed, retried after an hour, paused after 3; an edit resumes it", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* fundedAda(1_000_000n)
      yield* Plans.upsertPlan(ada.accountId, planInput({ withdrawalAccountNumber: "0123450003", totalAmountKobo: 300_000n, durationDays: 3 }))
      yield* at("2026-11-21T08:00:00Z")
      expect(yield* Plans.processDuePayouts()).toEqual({ plans: 1, paid: 0, failed: 1 })
      let plan = yield* planOf(ada.customerId)
      expect(plan.state).toBe("active")
      expect(plan.nextDueAt?.toISOString()).toBe("2026-11-21T09:00:00.000Z")
      expect((yield* FakeBank.account(ada.accountNumber)).ledgerKobo).toBe(1_000_000n) // reversed, fee too
      expect(yield* NoticeStore.kinds).toEqual(["disbursement_failed"])
      yield* TestClock.adjust(Duration.hours(1))
      expect((yield* Plans.processDuePayouts()).failed).toBe(1)
      yield* TestClock.adjust(Duration.hours(1))
      expect((yield* Plans.processDuePayouts()).failed).toBe(1)
      plan = yield* planOf(ada.customerId)
      expect(plan.state).toBe("paused")
      expect(plan.nextDueAt).toBeNull()
      expect(yield* NoticeStore.kinds).toEqual(["disbursement_failed", "disbursement_failed", "disbursement_failed", "plan_paused"])
      yield* TestClock.adjust(Duration.hours(1))
      expect((yield* Plans.processDuePayouts()).plans).toBe(0)
      // a new withdrawal account resumes it: the missed cycle is due at once. Moving the payouts
      // to another account by POST needs the OTP, as PATCH does (issue 37)
      const noCode = yield* Effect.flip(Plans.upsertPlan(ada.accountId, planInput({ totalAmountKobo: 300_000n, durationDays: 3 })))
      expect(noCode).toMatchObject({ _tag: "InvalidPlanTerms", fieldErrors: { otpPinId: [expect.any(String)], otpCode: [expect.any(String)] } })
      const { pinId } = yield* Auth.requestActionOtp(ada.accountId)
      const otp = { otpPinId: pinId, otpCode: yield* Sent.lastCode("action_confirmation") }
      const edited = yield* Plans.upsertPlan(ada.accountId, planInput({ totalAmountKobo: 300_000n, durationDays: 3 }), otp)
      expect(edited.state).toBe("active")
      expect(edited.withdrawalAccountNumber).toBe("0123450001")
      expect((yield* Plans.processDuePayouts()).paid).toBe(1)
      expect(yield* paidOut).toBe(100_000n)
      expect((yield* FakeBank.account(ada.accountNumber)).ledgerKobo).toBe(1_000_000n - 100_000n - FEE_SMALL)
      expect(yield* FakeBank.conserved).toBe(true)
    })))

  it.effect("a wallet that runs dry: plan_depleted, nothing debited; funded again it catches up in order", () =>
    withPlans(Effect.gen(function*() {
      // the pot and its fees, then the customer spends some of it elsewhere: the last payout is short
      const ada = yield* fundedAda(300_000n + 3n * FEE_SMALL)
      const plan = yield* Plans.upsertPlan(ada.accountId, planInput({ totalAmountKobo: 300_000n, durationDays: 3 }))
      expect(plan.state).toBe("active")
      yield* at("2026-11-22T08:00:00Z")
      expect((yield* Plans.processDuePayouts()).paid).toBe(2)
      yield* spendElsewhere(ada.accountNumber, FEE_SMALL)
      yield* at("2026-11-23T08:00:00Z")
      expect((yield* Plans.processDuePayouts()).failed).toBe(1)
      const depleted = yield* planOf(ada.customerId)
      expect(depleted.state).toBe("depleted")
      expect(yield* NoticeStore.kinds).toEqual(["plan_depleted"])
      // the wallet holds the last instalment but not its fee
      expect((yield* FakeBank.account(ada.accountNumber)).ledgerKobo).toBe(100_000n) // nothing taken
      // so the plan is not "covered": it stays depleted, with no new movement and no new notice
      // however often the jobs run (it used to loop depleted → active every minute)
      yield* at("2026-11-24T10:00:00Z")
      for (let i = 0; i < 3; i++) {
        yield* TestClock.adjust(Duration.minutes(3))
        expect((yield* Plans.activateFundedPlans()).activated).toBe(0)
        expect((yield* Plans.processDuePayouts()).plans).toBe(0)
      }
      expect(yield* NoticeStore.kinds).toEqual(["plan_depleted"])
      // a day later the customer funds the wallet; the activation job resumes the plan, whose last
      // payout takes the wallet to exactly zero
      yield* at("2026-11-25T10:00:00Z")
      yield* deposit(ada, FEE_SMALL)
      expect((yield* Plans.activateFundedPlans()).activated).toBe(1)
      expect((yield* Plans.processDuePayouts()).paid).toBe(1)
      const done = yield* planOf(ada.customerId)
      expect(done.state).toBe("completed")
      expect(yield* paidOut).toBe(300_000n)
      expect((yield* FakeBank.account(ada.accountNumber)).ledgerKobo).toBe(0n)
      expect(yield* FakeBank.conserved).toBe(true)
    })))

  it.effect("another movement in flight: the payout is not started and leaves no instalment linked; paid once it ends", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* fundedAda(1_000_000n)
      const plan = yield* Plans.upsertPlan(ada.accountId, planInput())
      yield* at("2026-11-21T08:00:00Z")
      expect((yield* Plans.processDuePayouts()).paid).toBe(1)
      // a movement of Ada's mid-saga (its account not yet put back)
      const [first] = yield* TransferStore.all
      const other = new Transfer({ ...first!, id: TransactionId.make("other-movement"), idempotencyKey: "other", status: "pending", restored: false })
      const store = yield* TransferStore
      yield* Ref.update(store, (m) => new Map(m).set(other.id, other))

      yield* at("2026-11-22T08:00:00Z")
      expect(yield* Plans.processDuePayouts()).toEqual({ plans: 1, paid: 0, failed: 0 })
      // the link to the movement that could not be stored was undone with it
      expect((yield* PlanStore.instalments(plan.id)).map((i) => [i.cycle, i.status])).toEqual([[0, "paid"]])
      expect((yield* TransferStore.all).length).toBe(2)

      yield* Ref.update(store, (m) => new Map(m).set(other.id, new Transfer({ ...other, status: "failed", restored: true })))
      expect((yield* Plans.processDuePayouts()).paid).toBe(1)
      expect((yield* PlanStore.instalments(plan.id)).map((i) => [i.cycle, i.status])).toEqual([[0, "paid"], [1, "paid"]])
      expect(yield* paidOut).toBe(200_000n)
    })))

  it.effect("a payout the bank answers pending holds the plan on its cycle until reconciliation settles it", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* fundedAda(1_000_000n)
      yield* Plans.upsertPlan(ada.accountId, planInput({ withdrawalAccountNumber: "0123450002", totalAmountKobo: 200_000n, durationDays: 2 }))
      yield* at("2026-11-21T08:00:00Z")
      expect(yield* Plans.processDuePayouts()).toEqual({ plans: 1, paid: 0, failed: 0 })
      const waiting = yield* planOf(ada.customerId)
      expect(waiting.nextCycle).toBe(0)
      expect((yield* Plans.borrowQuote(ada.accountId)).eligible).toBe(false)
      // the next day is due, but the plan waits on the pending cycle
      yield* at("2026-11-22T08:00:00Z")
      expect((yield* Plans.processDuePayouts()).paid).toBe(0)
      yield* Transfers.processDue() // reconciliation: the requery answers successful
      // settles cycle 0, then starts cycle 1, which the bank also answers pending
      yield* Plans.processDuePayouts()
      const plan = yield* planOf(ada.customerId)
      expect(plan.nextCycle).toBe(1)
      expect((yield* PlanStore.instalments(plan.id)).map((i) => [i.status, i.transactionId !== null])).toEqual([
        ["paid", true],
        ["open", true]
      ])
      yield* TestClock.adjust(Duration.minutes(5))
      yield* Transfers.processDue()
      // the job also claims a plan whose live payout finished, to settle it without waiting for a due date
      expect((yield* Plans.processDuePayouts()).plans).toBe(1)
      expect((yield* planOf(ada.customerId)).state).toBe("completed")
      expect(yield* paidOut).toBe(200_000n)
    })))
})

describe("a plan saved while its payout was in flight", () => {
  it.effect("the confirmed payout is recorded once, by the general settle, and the edit stays", () =>
    withPlans(Effect.gen(function*() {
      const ada = yield* fundedAda(1_000_000n)
      yield* Plans.upsertPlan(ada.accountId, planInput({ totalAmountKobo: 200_000n, durationDays: 2 }))
      yield* at("2026-11-21T08:00:00Z")
      const repo = yield* PlanRepo
      const fastPaths = yield* Ref.make<Array<boolean>>([])
      // an edit lands between the run's lock and its recording of the confirmed payout
      const editing = PlanRepo.of({
        ...repo,
        markPaidAndSave: (plan, cycle, transactionId, paidAt, now) =>
          Effect.gen(function*() {
            const current = Option.getOrThrow(yield* repo.findById(plan.id))
            yield* Effect.orDie(repo.save(new Plan({ ...current, withdrawalAccountName: "EDITED MEANWHILE" })))
            const recorded = yield* repo.markPaidAndSave(plan, cycle, transactionId, paidAt, now)
            yield* Ref.update(fastPaths, (all) => [...all, Option.isSome(recorded)])
            return recorded
          })
      })
      expect(yield* Effect.provideService(Plans.processDuePayouts(), PlanRepo, editing)).toEqual({ plans: 1, paid: 1, failed: 0 })
      // the one-statement path wrote nothing (the plan's version had moved on): settle recorded it
      expect(yield* Ref.get(fastPaths)).toEqual([false])
      const plan = yield* planOf(ada.customerId)
      expect(plan.nextCycle).toBe(1)
      expect(plan.withdrawalAccountName).toBe("EDITED MEANWHILE")
      expect((yield* PlanStore.instalments(plan.id)).map((i) => i.status)).toEqual(["paid"])
      expect(yield* paidOut).toBe(100_000n)
    })))
})

/** Ada and Bola, each with a funded three-day plan of ₦1,000 a day, every cycle of it due. */
const twoPlansThreeCyclesDue = Effect.gen(function*() {
  const ada = yield* fundedAda(1_000_000n)
  const bola = yield* bankedBola
  yield* deposit(bola, 1_000_000n)
  yield* Plans.upsertPlan(ada.accountId, planInput({ totalAmountKobo: 300_000n, durationDays: 3 }))
  yield* Plans.upsertPlan(bola.accountId, planInput({ totalAmountKobo: 300_000n, durationDays: 3 }))
  yield* at("2026-11-23T08:00:00Z")
})

describe("two schedulers at once", () => {
  it.effect("every instalment of many due plans is paid exactly once", () =>
    withPlans(Effect.gen(function*() {
      yield* twoPlansThreeCyclesDue
      const runs = yield* Effect.all([Plans.processDuePayouts(), Plans.processDuePayouts()], { concurrency: 2 })
      expect(runs[0].paid + runs[1].paid).toBe(6)
      expect(yield* paidOut).toBe(600_000n)
      const transfers = yield* TransferStore.all
      expect(transfers.filter((t) => t.purpose === "disbursement").length).toBe(6)
    })))
})

describe("a payout run interrupted (SIGTERM)", () => {
  /**
   * The third payout stalls (never answers) at one point, and the run is interrupted there: at its
   * saga's first provider call, right after the movement was committed (the gap between start and
   * drive), or mid-saga at the debit.
   */
  const stallThird: Record<string, (entered: Deferred.Deferred<void>, never: Deferred.Deferred<void>) => Effect.Effect<Layer.Layer<never>, never, any>> = {
    // the movement was committed by the start and handed to the saga as stored (no reload): its
    // first provider call is the first thing the saga does
    "as its saga starts": (entered: Deferred.Deferred<void>, never: Deferred.Deferred<void>) =>
      Effect.map(CoreBanking, (real) => {
        let lifts = 0
        return Layer.succeed(CoreBanking, CoreBanking.of({
          ...real,
          deactivatePnd: (accountNumber) =>
            ++lifts === 3
              ? Deferred.succeed(entered, undefined).pipe(Effect.zipRight(Deferred.await(never)), Effect.zipRight(real.deactivatePnd(accountNumber)))
              : real.deactivatePnd(accountNumber)
        }))
      }),
    "at its debit": (entered: Deferred.Deferred<void>, never: Deferred.Deferred<void>) =>
      Effect.map(CoreBanking, (real) => {
        let debits = 0
        return Layer.succeed(CoreBanking, CoreBanking.of({
          ...real,
          debit: (input) =>
            ++debits === 3
              ? Deferred.succeed(entered, undefined).pipe(Effect.zipRight(Deferred.await(never)), Effect.zipRight(real.debit(input)))
              : real.debit(input)
        }))
      })
  }

  for (const [where, stall] of Object.entries(stallThird)) {
    it.effect(`stopped ${where}: every plan claim and movement lease is given back, and the next run pays each instalment once`, () =>
      withPlans(Effect.gen(function*() {
        yield* twoPlansThreeCyclesDue
        const entered = yield* Deferred.make<void>()
        const never = yield* Deferred.make<void>()
        const stalling = yield* stall(entered, never)
        const run = yield* Effect.fork(Plans.processDuePayouts({ concurrency: 1 }).pipe(Effect.provide(stalling)))
        yield* Deferred.await(entered)
        yield* Fiber.interrupt(run)

        const now = yield* Clock.currentTimeMillis
        const held = (yield* TransferStore.all).filter((t) => t.leaseUntil !== null && t.leaseUntil.getTime() > now)
        expect(held).toEqual([])
        const plans = [...(yield* Effect.flatMap(PlanStore, Ref.get)).plans.values()]
        expect(plans.filter((p) => p.leaseUntil !== null && p.leaseUntil.getTime() > now)).toEqual([])
        expect(yield* paidOut).toBe(200_000n)

        // a second later, not after the 2-minute lease, the next run finishes everything
        yield* TestClock.adjust(Duration.seconds(1))
        yield* Transfers.processDue()
        yield* Plans.processDuePayouts()
        expect(yield* paidOut).toBe(600_000n)
        const payouts = (yield* TransferStore.all).filter((t) => t.purpose === "disbursement")
        expect(payouts.map((t) => t.status)).toEqual(Array(6).fill("confirmed"))
      })))
  }
})

describe("Borrow rules", () => {
  const active = (overrides: Partial<Record<keyof Plan, unknown>> = {}) =>
    ({
      state: "active",
      anchorDate: "2026-11-21",
      nextCycle: 1,
      cycleCount: 5,
      cycleBase: 0,
      borrowCount: 0,
      totalAmountKobo: 500_000n,
      frequency: "daily",
      durationDays: 5,
      weekDay: null,
      scheduledTime: "09:00",
      timeZone: "Africa/Lagos",
      nextDueAt: new Date("2026-11-22T08:00:00Z"),
      ...overrides
    }) as unknown as Plan
  const now = new Date("2026-11-21T15:00:00Z")

  it("eligible in an ordinary period, for one instalment", () => {
    expect(Plans.borrowEligibility(active(), now, 3, Option.none())).toEqual({ eligible: true, amountKobo: 100_000n })
  })
  it("refuses with the reason of each rule", () => {
    const reason = (plan: Plan) => {
      const e = Plans.borrowEligibility(plan, now, 3, Option.none())
      return e.eligible ? "eligible" : e.reason
    }
    expect(reason(active({ state: "awaiting_funds" }))).toMatch(/not active/)
    expect(reason(active({ nextCycle: 4 }))).toMatch(/final period/)
    expect(reason(active({ nextCycle: 2, nextDueAt: new Date("2026-11-23T08:00:00Z") }))).toMatch(/already borrowed or been paid/)
    expect(reason(active({ borrowCount: 3 }))).toMatch(/all 3 borrows/)
    expect(reason(active({ nextDueAt: new Date("2026-11-21T08:00:00Z") }))).toMatch(/due now/)
  })
  it.effect("the lifetime cap is a setting", () =>
    withPlans(Effect.gen(function*() {
      yield* (yield* Settings.SettingsStore).set(Settings.BorrowCap.key, 1, new Date(0))
      expect(yield* Settings.get(Settings.BorrowCap)).toBe(1)
    })))
})

describe("Extra Cash arithmetic", () => {
  it("the maximum is the largest amount whose debit fits what is free", () =>
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10_000_000_000n }), fc.bigInt({ min: 0n, max: 2_000n }), (free, bps) => {
      const max = Plans.maxWithdrawal(free, bps, Fees.DefaultNipFeeSchedule)
      const debit = (x: bigint) => x + Plans.extraCashFees(x, bps, Fees.DefaultNipFeeSchedule)
      if (max > 0n) expect(debit(max)).toBeLessThanOrEqual(free)
      expect(debit(max + 1n)).toBeGreaterThan(free)
    }), { numRuns: 300 }))

  it("the reserve is the remaining payouts and their fees, the last with its remainder", () => {
    const plan = { state: "active", totalAmountKobo: 1_000_001n, cycleCount: 10, nextCycle: 7 } as unknown as Plan
    expect(Plans.reservedFor(plan, Fees.DefaultNipFeeSchedule)).toBe(300_001n + 3n * FEE_SMALL)
    expect(Schedule.remainingKobo(1_000_001n, 10, 7)).toBe(300_001n)
  })
})
