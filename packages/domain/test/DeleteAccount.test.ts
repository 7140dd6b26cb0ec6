/**
 * Deleting an account, in the domain: in-memory ports and the fake bank.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option, Ref, TestClock } from "effect"
import * as Auth from "../src/auth/index.js"
import * as Lifecycle from "../src/lifecycle/index.js"
import * as Transfers from "../src/transfers/index.js"
import { ADA, registerAda, verifiedAda, wrongCode } from "./support/Fixtures.js"
import { AlertStore, FakeBank, Store } from "./support/InMemory.js"
import { ErasureFault, LifecycleStore } from "./support/InMemoryLifecycle.js"
import { TransferStore } from "./support/InMemoryTransfers.js"
import { fundedAda, otpFor, START, statusOf, withLifecycle } from "./support/LifecycleFixtures.js"
import { AccountId } from "../src/shared/Ids.js"

const KEY = "8f14e45f-ceea-467f-a0e6-5b2a3c4d5e6f"

const del = (accountId: AccountId, extra: Partial<Lifecycle.DeleteAccountInput> = {}) =>
  Effect.flatMap(otpFor(accountId), (otp) => Lifecycle.deleteAccount(accountId, { ...otp, ...extra }))

const FIVE_YEARS_LATER = new Date(Date.UTC(2031, 10, 21, 6, 0))

describe("delete-account", () => {
  it.effect("no bank account: deleted at once, signed out everywhere, erased, queued for review; the email registers again", () =>
    withLifecycle(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const ada = yield* verifiedAda
      const answer = yield* del(ada.accountId, { via: "mobile" })
      expect(answer).toEqual({ status: "deleted", retainUntil: FIVE_YEARS_LATER })
      expect((yield* Effect.flip(Auth.authenticate(ada.tokens.accessToken)))._tag).toBe("Unauthenticated")
      expect((yield* Effect.flip(Auth.rotateRefreshToken(ada.tokens.refreshToken)))._tag).toBe("InvalidRefreshToken")
      const stored = yield* Store.account(ada.accountId)
      expect(stored.account).toMatchObject({ email: `deleted-${ada.accountId}@deleted.invalid`, phone: null, firstName: null, passwordHash: null })
      expect(stored.customer.customerStatus).toBe("deleted")
      const lifecycle = yield* LifecycleStore.state
      expect(lifecycle.deletions).toHaveLength(1)
      expect(lifecycle.deletions[0]).toMatchObject({ status: "pending_review", via: "mobile", retainUntil: FIVE_YEARS_LATER })
      expect(lifecycle.retained.map((r) => r.kind)).toEqual(["kyc"])
      const again = yield* registerAda()
      expect(again.account.id).not.toBe(ada.accountId)
      expect(again.account.email).toBe(ADA.email)
      // the daily purge keeps them until retainUntil
      expect(yield* Lifecycle.purgeRetained).toBe(0)
      yield* TestClock.setTime(FIVE_YEARS_LATER.getTime() + 1)
      expect(yield* Lifecycle.purgeRetained).toBe(1)
    })))

  it.effect("a bank account and no key: CloseAccountFirst; suspended: AccountFrozen; OTP invalid or expired: OtpGateRejected", () =>
    withLifecycle(Effect.gen(function*() {
      const ada = yield* fundedAda(100_000n)
      expect((yield* Effect.flip(del(ada.accountId)))._tag).toBe("CloseAccountFirst")
      // that code was not spent (still outstanding): a new one waits out the resend cooldown
      yield* TestClock.adjust(Duration.minutes(1))
      const otp = yield* otpFor(ada.accountId)
      expect((yield* Effect.flip(Lifecycle.deleteAccount(ada.accountId, { otpPinId: otp.otpPinId, otpCode: wrongCode(otp.otpCode), idempotencyKey: KEY })))._tag)
        .toBe("OtpGateRejected")
      const late = yield* otpFor(ada.accountId)
      yield* TestClock.adjust(Duration.minutes(11))
      expect((yield* Effect.flip(Lifecycle.deleteAccount(ada.accountId, { ...late, idempotencyKey: KEY })))._tag).toBe("OtpGateRejected")
      const kept = yield* otpFor(ada.accountId)
      yield* Store.setCustomerStatus(ada.accountId, "suspended")
      expect((yield* Effect.flip(Lifecycle.deleteAccount(ada.accountId, { ...kept, idempotencyKey: KEY })))._tag).toBe("AccountFrozen")
      // refused before the OTP gate: a suspended customer cannot ask for a code, and none is spent
      expect((yield* Effect.flip(Lifecycle.deleteAccount(ada.accountId, { otpPinId: "not-a-pin-id", otpCode: "000000" })))._tag).toBe("AccountFrozen")
      expect((yield* Effect.flip(Lifecycle.deleteAccount(ada.accountId, kept)))._tag).toBe("AccountFrozen")
      yield* Store.setCustomerStatus(ada.accountId, "active")
      // CloseAccountFirst comes before the gate too: the code is not spent, and resent with a key it works
      expect((yield* Effect.flip(Lifecycle.deleteAccount(ada.accountId, kept)))._tag).toBe("CloseAccountFirst")
      expect((yield* Effect.flip(Lifecycle.deleteAccount(ada.accountId, kept)))._tag).toBe("CloseAccountFirst")
      expect(yield* FakeBank.calls("freeze")).toBe(0)
      expect((yield* LifecycleStore.state).deletions).toEqual([])
    })))

  it.effect("closing fails (a movement in flight): MovementInFlight; nothing closed, nothing deleted; deleted once it settles", () =>
    withLifecycle(Effect.gen(function*() {
      const ada = yield* fundedAda(300_000n)
      // a transfer whose debit answer was lost stays in flight until recovery settles it
      yield* FakeBank.failNext("debit", FakeBank.unknown("debit"))
      yield* Transfers.startManualTransfer(ada.accountId, {
        destinationAccountNumber: "0123450001",
        destinationBankCode: "000013",
        destinationBankName: "GTBank",
        destinationAccountName: "SANDBOX ACCOUNT 0001",
        amountKobo: 100n,
        idempotencyKey: "c6f1a4c2-1d2e-4f3a-9b8c-7d6e5f4a3b2c"
      })
      const refused = yield* Effect.flip(del(ada.accountId, { idempotencyKey: KEY }))
      expect(refused._tag).toBe("MovementInFlight")
      expect(yield* statusOf(ada.accountId)).toBe("active")
      expect((yield* LifecycleStore.state).deletions).toEqual([])
      expect((yield* TransferStore.all).filter((t) => t.narration === "Account closure")).toEqual([])
      expect(yield* FakeBank.calls("freeze")).toBe(0)
      // recovery settles the transfer; the deletion then closes and deletes
      yield* TestClock.adjust(Duration.minutes(5))
      yield* Transfers.processDue()
      expect((yield* del(ada.accountId, { idempotencyKey: "d6f1a4c2-1d2e-4f3a-9b8c-7d6e5f4a3b2c" })).status).toBe("deleted")
      expect(yield* statusOf(ada.accountId)).toBe("deleted")
      expect(yield* FakeBank.conserved).toBe(true)
    })))

  it.effect("with a key: closed first (the same sweep), then deleted; its transactions retained", () =>
    withLifecycle(Effect.gen(function*() {
      const ada = yield* fundedAda(300_000n)
      const answer = yield* del(ada.accountId, { idempotencyKey: KEY })
      expect(answer.status).toBe("deleted")
      expect(yield* statusOf(ada.accountId)).toBe("deleted")
      expect((yield* FakeBank.account(ada.accountNumber))).toMatchObject({ frozen: true, ledgerKobo: 0n })
      const lifecycle = yield* LifecycleStore.state
      expect(lifecycle.deletions[0]!.counts).toMatchObject({ transactions: 2, beneficiaries: 1 })
      expect(lifecycle.retained.map((r) => r.kind).sort()).toEqual(["kyc", "transaction", "transaction"])
      expect(yield* FakeBank.conserved).toBe(true)
    })))

  it.effect("a pending sweep: closing; the job deletes once it is confirmed; a retry with the key answers deleted", () =>
    withLifecycle(Effect.gen(function*() {
      const ada = yield* fundedAda(300_000n, "0123450002")
      expect(yield* del(ada.accountId, { idempotencyKey: KEY })).toEqual({ status: "closing" })
      const retry = { idempotencyKey: KEY, otpPinId: "x", otpCode: "000000" }
      expect(yield* Lifecycle.deleteAccount(ada.accountId, retry)).toEqual({ status: "closing" })
      for (let i = 0; i < 3; i++) {
        yield* TestClock.adjust(Duration.minutes(31))
        yield* Transfers.processDue()
      }
      expect(yield* Lifecycle.processClosures()).toBe(1)
      expect(yield* statusOf(ada.accountId)).toBe("deleted")
      expect((yield* Lifecycle.deleteAccount(ada.accountId, retry)).status).toBe("deleted")
      expect((yield* LifecycleStore.state).deletions).toHaveLength(1)
    })))

  it.effect("a closure in progress (close-account): deletion is asked for and follows it", () =>
    withLifecycle(Effect.gen(function*() {
      const ada = yield* fundedAda(300_000n, "0123450002")
      const otp = yield* otpFor(ada.accountId)
      yield* Lifecycle.closeAccount(ada.accountId, { idempotencyKey: KEY, ...otp })
      expect(yield* del(ada.accountId, { via: "web" })).toEqual({ status: "closing" })
      for (let i = 0; i < 3; i++) {
        yield* TestClock.adjust(Duration.minutes(31))
        yield* Transfers.processDue()
      }
      yield* Lifecycle.processClosures()
      expect(yield* statusOf(ada.accountId)).toBe("deleted")
      expect((yield* LifecycleStore.state).deletions[0]!.via).toBe("web")
    })))

  it.effect("a failure part-way: DeletionFailed, nothing changed (rolled back), a critical staff alert", () =>
    withLifecycle(Effect.gen(function*() {
      const ada = yield* verifiedAda
      yield* Ref.set(yield* ErasureFault, true)
      const failed = yield* Effect.flip(del(ada.accountId))
      expect(failed._tag).toBe("DeletionFailed")
      const stored = yield* Store.account(ada.accountId)
      expect(stored.account.email).toBe(ADA.email)
      expect(stored.customer.customerStatus).toBe("verified")
      expect((yield* LifecycleStore.state).deletions).toEqual([])
      expect(yield* AlertStore.kinds).toEqual(["account_deletion_failed"])
      expect(Option.isSome(yield* Effect.option(Auth.authenticate(ada.tokens.accessToken)))).toBe(true)
    })))
})
