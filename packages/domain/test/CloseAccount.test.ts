/**
 * Closing an account, in the domain: in-memory ports, the fake bank (every sandbox destination) and
 * the TestClock. The sweep is a movement of the transfer saga; its crash and unknown-outcome
 * behaviour is the saga's (TransferSaga.test.ts), here the closure around it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option, TestClock } from "effect"
import * as Beneficiaries from "../src/beneficiaries/Beneficiaries.js"
import * as Lifecycle from "../src/lifecycle/index.js"
import { maxWithdrawal } from "../src/plans/ExtraCash.js"
import * as Plans from "../src/plans/index.js"
import { PlanRepo } from "../src/plans/Ports.js"
import * as Settings from "../src/settings/Settings.js"
import * as Fees from "../src/transfers/Fees.js"
import * as Transfers from "../src/transfers/index.js"
import { wrongCode } from "./support/Fixtures.js"
import { AlertStore, FakeBank, Sent } from "./support/InMemory.js"
import { fundedAda, otpFor, statusOf, withLifecycle } from "./support/LifecycleFixtures.js"
import { NoticeStore, TransferStore } from "./support/InMemoryTransfers.js"
import { AccountId } from "../src/shared/Ids.js"

const KEY = "8f14e45f-ceea-467f-a0e6-5b2a3c4d5e6f"

const close = (accountId: AccountId, idempotencyKey = KEY) =>
  Effect.flatMap(otpFor(accountId), (otp) => Lifecycle.closeAccount(accountId, { idempotencyKey, ...otp }))

/** ₦1 to a sandbox account, as the customer's own transfer. */
const smallTransfer = (accountId: AccountId, idempotencyKey: string) =>
  Transfers.startManualTransfer(accountId, {
    destinationAccountNumber: "0123450001",
    destinationBankCode: "000013",
    destinationBankName: "GTBank",
    destinationAccountName: "SANDBOX ACCOUNT 0001",
    amountKobo: 100n,
    idempotencyKey
  })

const nipFee = (amount: bigint) => Effect.map(Settings.get(Settings.NipFees), (s) => {
  const q = Fees.quote(amount, s)
  return q.feeKobo + q.vatKobo
})

describe("close-account", () => {
  it.effect("sweeps the largest amount whose NIP fee fits, freezes, ends the plan, closes, tells the customer; the key replays", () =>
    withLifecycle(Effect.gen(function*() {
      const ada = yield* fundedAda(1_234_567n)
      const plan = yield* Plans.upsertPlan(ada.accountId, {
        totalAmountKobo: 500_000n,
        durationDays: 5,
        frequency: "daily",
        withdrawalAccountNumber: "0123450009",
        withdrawalBankCode: "000013",
        scheduledTime: "09:00",
        scheduledTimezone: "Africa/Lagos"
      })
      const answer = yield* close(ada.accountId)
      const expected = maxWithdrawal(1_234_567n, 0n, yield* Settings.get(Settings.NipFees))
      expect(expected + (yield* nipFee(expected))).toBeLessThanOrEqual(1_234_567n)
      expect(expected + 1n + (yield* nipFee(expected + 1n))).toBeGreaterThan(1_234_567n)
      expect(answer).toMatchObject({ status: "confirmed", amountWithdrawnKobo: expected })
      const sweep = (yield* TransferStore.all).find((t) => t.narration === "Account closure")!
      expect(sweep).toMatchObject({ purpose: "early_withdrawal", destinationAccountNumber: "0123450009", status: "confirmed" })
      const account = yield* FakeBank.account(ada.accountNumber)
      expect(account.frozen).toBe(true)
      expect(account.ledgerKobo).toBe(1_234_567n - expected - sweep.feeKobo)
      expect(yield* FakeBank.conserved).toBe(true)
      expect(yield* statusOf(ada.accountId)).toBe("closed")
      expect(Option.getOrThrow(yield* (yield* PlanRepo).findById(plan.id)).state).toBe("closed")
      expect((yield* NoticeStore.all).map((n) => n.kind)).toContain("account_closed")
      expect((yield* Sent.all).filter((m) => m.kind === "account_closed")).toHaveLength(1)
      // the key replays without a code; a due payout of the ended plan never runs
      const replay = yield* Lifecycle.closeAccount(ada.accountId, { idempotencyKey: KEY, otpPinId: "x", otpCode: "000000" })
      expect(replay.amountWithdrawnKobo).toBe(expected)
      yield* TestClock.adjust(Duration.days(2))
      expect((yield* Plans.processDuePayouts()).paid).toBe(0)
    })))

  it.effect("a balance below the fee: nothing sent, closed with 0", () =>
    withLifecycle(Effect.gen(function*() {
      const ada = yield* fundedAda(500n)
      expect(yield* close(ada.accountId)).toMatchObject({ status: "confirmed", amountWithdrawnKobo: 0n })
      expect(yield* TransferStore.all).toEqual([])
      expect((yield* FakeBank.account(ada.accountNumber)).frozen).toBe(true)
      expect(yield* statusOf(ada.accountId)).toBe("closed")
    })))

  it.effect("pending (0002): closing until reconciliation confirms; the closure job finishes it once", () =>
    withLifecycle(Effect.gen(function*() {
      const ada = yield* fundedAda(300_000n, "0123450002")
      expect((yield* close(ada.accountId)).status).toBe("pending")
      expect(yield* statusOf(ada.accountId)).toBe("closing")
      expect(yield* Lifecycle.processClosures()).toBe(0)
      // a manual transfer is refused while closing
      const refused = yield* Effect.flip(smallTransfer(ada.accountId, "b6f1a4c2-1d2e-4f3a-9b8c-7d6e5f4a3b2c"))
      expect(refused._tag).toBe("AccountNotActive")
      for (let i = 0; i < 3; i++) {
        yield* TestClock.adjust(Duration.minutes(31))
        yield* Transfers.processDue()
      }
      expect(yield* Lifecycle.processClosures()).toBe(1)
      expect(yield* Lifecycle.processClosures()).toBe(0)
      expect(yield* statusOf(ada.accountId)).toBe("closed")
      expect((yield* FakeBank.account(ada.accountNumber)).frozen).toBe(true)
      expect(yield* FakeBank.conserved).toBe(true)
    })))

  it.effect("the bank's answer to the sweep's debit is lost (it did debit): pending, closing, nothing guessed; recovery closes it", () =>
    withLifecycle(Effect.gen(function*() {
      const ada = yield* fundedAda(300_000n)
      yield* FakeBank.failNext("debit", FakeBank.unknown("debit"), { afterApplying: true })
      expect((yield* close(ada.accountId)).status).toBe("pending")
      expect(yield* statusOf(ada.accountId)).toBe("closing")
      expect(yield* Lifecycle.processClosures()).toBe(0)
      expect((yield* NoticeStore.all).map((n) => n.kind)).not.toContain("account_closure_failed")
      // recovery after the lease: the debit is requeried (it happened), the sweep goes on, once
      yield* TestClock.adjust(Duration.minutes(3))
      yield* Transfers.processDue()
      expect(yield* Lifecycle.processClosures()).toBe(1)
      expect(yield* statusOf(ada.accountId)).toBe("closed")
      const [sweep] = (yield* TransferStore.all).filter((t) => t.customerId === ada.customerId)
      expect(sweep).toMatchObject({ status: "confirmed", debitState: "applied" })
      expect((yield* FakeBank.account(ada.accountNumber)).ledgerKobo).toBe(0n)
      expect(yield* FakeBank.conserved).toBe(true)
    })))

  it.effect("the freeze fails after the sweep: still closing with a staff alert; the closure job retries and closes", () =>
    withLifecycle(Effect.gen(function*() {
      const ada = yield* fundedAda(300_000n)
      yield* FakeBank.failNext("freeze", FakeBank.unknown("freeze"))
      yield* close(ada.accountId)
      expect(yield* statusOf(ada.accountId)).toBe("closing")
      expect(yield* AlertStore.kinds).toContain("account_closure_stuck")
      yield* TestClock.adjust(Duration.minutes(3))
      expect(yield* Lifecycle.processClosures()).toBe(1)
      expect(yield* statusOf(ada.accountId)).toBe("closed")
      expect((yield* FakeBank.account(ada.accountNumber)).frozen).toBe(true)
      expect(yield* FakeBank.conserved).toBe(true)
    })))

  it.effect("failed (0003): TransferFailed, active again, the customer is told", () =>
    withLifecycle(Effect.gen(function*() {
      const ada = yield* fundedAda(300_000n, "0123450003")
      const failed = yield* Effect.flip(close(ada.accountId))
      expect(failed._tag).toBe("TransferFailed")
      expect(yield* statusOf(ada.accountId)).toBe("active")
      expect((yield* FakeBank.account(ada.accountNumber))).toMatchObject({ frozen: false, ledgerKobo: 300_000n })
      expect((yield* NoticeStore.all).map((n) => n.kind)).toContain("account_closure_failed")
      // the key now answers the failure; a new key may try again
      expect((yield* Effect.flip(Lifecycle.closeAccount(ada.accountId, { idempotencyKey: KEY, otpPinId: "x", otpCode: "1" })))._tag)
        .toBe("TransferFailed")
    })))

  it.effect("refusals: not active, no destination, OTP invalid or expired, a key used by another operation, a movement in flight", () =>
    withLifecycle(Effect.gen(function*() {
      const ada = yield* fundedAda(300_000n, null)
      expect((yield* Effect.flip(close(ada.accountId)))._tag).toBe("NoClosureDestination")
      const otp = yield* otpFor(ada.accountId)
      const wrong = yield* Effect.flip(Lifecycle.closeAccount(ada.accountId, { idempotencyKey: KEY, otpPinId: otp.otpPinId, otpCode: wrongCode(otp.otpCode) }))
      expect(wrong._tag).toBe("OtpGateRejected")
      // expired (codes live 10 minutes): the same refusal (HTTP answers it 400 on this endpoint)
      const late = yield* otpFor(ada.accountId)
      yield* TestClock.adjust(Duration.minutes(11))
      expect((yield* Effect.flip(Lifecycle.closeAccount(ada.accountId, { idempotencyKey: KEY, ...late })))._tag).toBe("OtpGateRejected")
      expect(yield* statusOf(ada.accountId)).toBe("active")
      const used = yield* smallTransfer(ada.accountId, KEY)
      expect(used.status).toBe("confirmed")
      expect((yield* Effect.flip(Lifecycle.closeAccount(ada.accountId, { idempotencyKey: KEY, otpPinId: "x", otpCode: "1" })))._tag)
        .toBe("IdempotencyConflict")
      // a movement whose debit answer was lost stays in flight
      yield* FakeBank.failNext("debit", FakeBank.unknown("debit"))
      yield* smallTransfer(ada.accountId, "c6f1a4c2-1d2e-4f3a-9b8c-7d6e5f4a3b2c")
      yield* Beneficiaries.add(ada.accountId, { accountNumber: "0123450001", bankCode: "000013", bankName: "GTBank" })
      expect((yield* Effect.flip(close(ada.accountId, "d6f1a4c2-1d2e-4f3a-9b8c-7d6e5f4a3b2c")))._tag).toBe("MovementInFlight")
      expect(yield* statusOf(ada.accountId)).toBe("active")
      yield* TestClock.adjust(Duration.minutes(5))
      yield* Transfers.processDue()
      expect((yield* close(ada.accountId, "e6f1a4c2-1d2e-4f3a-9b8c-7d6e5f4a3b2c")).status).toBe("confirmed")
      const again = yield* Effect.flip(close(ada.accountId, "f6f1a4c2-1d2e-4f3a-9b8c-7d6e5f4a3b2c"))
      expect(again).toMatchObject({ _tag: "AccountNotActive", customerStatus: "closed" })
      expect(yield* FakeBank.conserved).toBe(true)
      expect(yield* AlertStore.kinds).toEqual([])
    })))
})
