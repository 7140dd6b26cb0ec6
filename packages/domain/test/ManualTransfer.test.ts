import {describe, expect, it} from "@effect/vitest"
import {Deferred, Effect, Fiber, Layer, Option} from "effect"
import { CoreBanking, TestFunding } from "../src/banking/CoreBanking.js"
import { AccountRepo } from "../src/account/Ports.js"
import { SettingsStore } from "../src/settings/Settings.js"
import * as Transfers from "../src/transfers/index.js"
import {bankedAda, inMemory} from "./support/Fixtures.js"
import {FakeBank} from "./support/FakeBank.js"
import {InMemoryTransfersLive, TransferStore} from "./support/InMemoryTransfers.js"
import {InMemoryPlansLive} from "./support/InMemoryPlans.js"

// plans too: a transfer leaves the customer's plan reserve in the wallet (none of these customers has a plan)
const withTransfers = <A, E>(effect: Effect.Effect<A, E, any>) =>
  inMemory(Effect.provide(effect, InMemoryPlansLive.pipe(Layer.provideMerge(InMemoryTransfersLive))))

const request = (patch: Partial<Transfers.ManualTransferInput> = {}): Transfers.ManualTransferInput => ({
  destinationAccountNumber: "0123450001",
  destinationBankCode: "000013",
  destinationBankName: "GTBank",
  destinationAccountName: "SANDBOX ACCOUNT 0001",
  amountKobo: 250_000n,
  idempotencyKey: "5b8a8e3e-6c1f-4b7a-9d7e-000000000001",
  ...patch
})

/** ₦2,500 to a 5,001..50,000-naira tier? No: 250,000 kobo = ₦2,500 → ₦10 + 7.5% VAT = 1,075 kobo */
const FEE = 1_075n

const funded = (kobo: bigint) =>
  Effect.gen(function*() {
    const ada = yield* bankedAda
    yield* (yield* TestFunding).deposit({ accountNumber: ada.accountNumber, amountKobo: kobo })
    // the first deposit is what allows withdrawals (as deposit sync records it)
    yield* (yield* AccountRepo).markFirstDeposit(ada.accountId, new Date(0), new Date(0))
    return ada
  })

describe("Transfers.startManualTransfer", () => {
  it.effect("confirmed: amount + NIP fee (with VAT) debited; the recipient gets the amount", () =>
    withTransfers(Effect.gen(function*() {
      const ada = yield* funded(1_000_000n)
      const t = yield* Transfers.startManualTransfer(ada.accountId, request())
      expect(t).toMatchObject({ status: "confirmed", amountKobo: 250_000n, feeKobo: FEE, purpose: "manual_transfer" })
      expect((yield* FakeBank.account(ada.accountNumber)).ledgerKobo).toBe(1_000_000n - 250_000n - FEE)
      expect((yield* FakeBank.state).paidOutKobo).toBe(250_000n)
    })))

  it.effect("a repeat with the same key and body returns the original and does not debit again", () =>
    withTransfers(Effect.gen(function*() {
      const ada = yield* funded(1_000_000n)
      const first = yield* Transfers.startManualTransfer(ada.accountId, request())
      const again = yield* Transfers.startManualTransfer(ada.accountId, request())
      expect(again.id).toBe(first.id)
      expect(yield* FakeBank.calls("debit")).toBe(1)
    })))

  it.effect("the same key with another body is IdempotencyConflict", () =>
    withTransfers(Effect.gen(function*() {
      const ada = yield* funded(1_000_000n)
      yield* Transfers.startManualTransfer(ada.accountId, request())
      const error = yield* Effect.flip(Transfers.startManualTransfer(ada.accountId, request({ amountKobo: 250_001n })))
      expect(error._tag).toBe("IdempotencyConflict")
    })))

  it.effect("50 concurrent identical requests: one movement, one debit", () =>
    withTransfers(Effect.gen(function*() {
      const ada = yield* funded(1_000_000n)
      const results = yield* Effect.all(
        Array.from({ length: 50 }, () => Transfers.startManualTransfer(ada.accountId, request())),
        { concurrency: "unbounded" }
      )
      expect(new Set(results.map((t) => t.id)).size).toBe(1)
      expect(yield* FakeBank.calls("debit")).toBe(1)
      expect((yield* TransferStore.all)).toHaveLength(1)
    })))

  it.effect("concurrent different requests against a balance that covers one: one succeeds", () =>
    withTransfers(Effect.gen(function*() {
      const ada = yield* funded(300_000n)
      const results = yield* Effect.all(
        Array.from({ length: 10 }, (_, i) =>
          Effect.either(Transfers.startManualTransfer(ada.accountId, request({ idempotencyKey: `k-${i}` })))),
        { concurrency: "unbounded" }
      )
      const ok = results.filter((r) => r._tag === "Right")
      expect(ok).toHaveLength(1)
      for (const r of results) {
        if (r._tag === "Left") expect(["MovementInFlight", "InsufficientBalance"]).toContain(r.left._tag)
      }
      expect((yield* FakeBank.account(ada.accountNumber)).ledgerKobo).toBe(300_000n - 250_000n - FEE)
    })))

  it.effect("while a movement is in flight, its own retry gets it back; another one is refused", () =>
    withTransfers(Effect.gen(function*() {
      const ada = yield* funded(1_000_000n)
      const stuck = yield* Transfers.startManualTransfer(ada.accountId, request({ destinationAccountNumber: "0123450004" }))
      expect(stuck.status).toBe("pending")
      const retry = yield* Transfers.startManualTransfer(ada.accountId, request({ destinationAccountNumber: "0123450004" }))
      expect(retry.id).toBe(stuck.id)
      const error = yield* Effect.flip(Transfers.startManualTransfer(ada.accountId, request({ idempotencyKey: "other" })))
      expect(error._tag).toBe("MovementInFlight")
    })))

  it.effect("a failed transfer is TransferFailed, with the debit reversed", () =>
    withTransfers(Effect.gen(function*() {
      const ada = yield* funded(1_000_000n)
      const error = yield* Effect.flip(
        Transfers.startManualTransfer(ada.accountId, request({ destinationAccountNumber: "0123450003" }))
      )
      expect(error._tag).toBe("TransferFailed")
      expect((yield* FakeBank.account(ada.accountNumber)).ledgerKobo).toBe(1_000_000n)
    })))

  it.effect("refused before moving money: no first deposit; balance short of amount + fee", () =>
    withTransfers(Effect.gen(function*() {
      const ada = yield* bankedAda
      yield* (yield* TestFunding).deposit({ accountNumber: ada.accountNumber, amountKobo: 250_000n })
      expect((yield* Effect.flip(Transfers.startManualTransfer(ada.accountId, request())))._tag).toBe("WithdrawalsNotAllowed")
      yield* (yield* AccountRepo).markFirstDeposit(ada.accountId, new Date(0), new Date(0))
      const short = yield* Effect.flip(Transfers.startManualTransfer(ada.accountId, request()))
      expect(short).toMatchObject({ _tag: "InsufficientBalance", requiredKobo: 250_000n + FEE, availableKobo: 250_000n })
      expect(yield* FakeBank.calls("debit")).toBe(0)
    })))

  it.effect("a client that goes away mid-transfer does not stop the saga: it completes", () =>
    withTransfers(Effect.gen(function*() {
      const ada = yield* funded(1_000_000n)
      const real = yield* CoreBanking
      const entered = yield* Deferred.make<void>()
      const gate = yield* Deferred.make<void>()
      const slowDebit = CoreBanking.of({
        ...real,
        debit: (input) =>
          Deferred.succeed(entered, undefined).pipe(Effect.zipRight(Deferred.await(gate)), Effect.zipRight(real.debit(input)))
      })
      const request$ = yield* Effect.fork(
        Transfers.startManualTransfer(ada.accountId, request()).pipe(Effect.provideService(CoreBanking, slowDebit))
      )
      yield* Deferred.await(entered)
      yield* Fiber.interruptFork(request$) // the HTTP client disconnected
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.await(request$)
      const [stored] = yield* TransferStore.all
      expect(stored).toMatchObject({ status: "confirmed", restored: true })
      expect((yield* FakeBank.account(ada.accountNumber)).pndActive).toBe(true)
    })))

  it.effect("fee tiers come from app settings", () =>
    withTransfers(Effect.gen(function*() {
      const ada = yield* funded(1_000_000n)
      yield* (yield* SettingsStore).set("fees.nip", {
        tiers: [{ upToKobo: null, feeKobo: "2000" }],
        vatBasisPoints: "0"
      }, new Date(0))
      const t = yield* Transfers.startManualTransfer(ada.accountId, request())
      expect(t.feeKobo).toBe(2_000n)
      expect(Option.isSome(yield* (yield* SettingsStore).get("fees.nip"))).toBe(true)
    })))
})
