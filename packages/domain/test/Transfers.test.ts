import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Option, TestClock } from "effect"
import { CoreBanking, TestFunding } from "../src/CoreBanking.js"
import { newTransfer } from "../src/Models.js"
import { AccountRepo, Ids, TransferRepo } from "../src/Ports.js"
import * as Transfers from "../src/Transfers.js"
import { TransferPolicy } from "../src/TransferSaga.js"
import { bankedAda, inMemory } from "./support/Fixtures.js"
import { FakeBank, type Operation } from "./support/FakeBank.js"
import { Sent } from "./support/InMemory.js"
import { InMemoryTransfersLive } from "./support/InMemoryTransfers.js"

const AMOUNT = 250_000n
const FEE = 2_688n
const FUNDS = 1_000_000n

const withTransfers = <A, E>(effect: Effect.Effect<A, E, any>) => inMemory(Effect.provide(effect, InMemoryTransfersLive))

/** A funded customer and a new pending movement of AMOUNT (+FEE) to `destination`. */
const setup = (destination: string) =>
  Effect.gen(function*() {
    const ada = yield* bankedAda
    yield* (yield* TestFunding).deposit({ accountNumber: ada.accountNumber, amountKobo: FUNDS })
    const customer = Option.getOrThrow(yield* (yield* AccountRepo).findById(ada.accountId)).customer
    const enquiry = yield* (yield* CoreBanking).nameEnquiry({ accountNumber: destination, bankCode: "000013" })
    const at = new Date(yield* Clock.currentTimeMillis)
    const transfer = newTransfer({
      id: yield* (yield* Ids).next,
      customerId: customer.id,
      sourceAccountNumber: ada.accountNumber,
      planId: null,
      purpose: "manual_transfer",
      amountKobo: AMOUNT,
      feeKobo: FEE,
      destinationAccountNumber: destination,
      destinationBankCode: "000013",
      destinationBankName: "GTBank",
      destinationAccountName: enquiry.accountName,
      nameEnquirySessionId: enquiry.sessionId,
      narration: "rent",
      idempotencyKey: "key-1",
      requestHash: "hash",
      createdAt: at
    })
    yield* (yield* TransferRepo).create(transfer)
    return { transfer, accountNumber: ada.accountNumber }
  })

/** The promises of the saga, checked at the bank: the account is restored and money is conserved. */
const expectSettled = (accountNumber: string, outcome: "delivered" | "returned") =>
  Effect.gen(function*() {
    const account = yield* FakeBank.account(accountNumber)
    const bank = yield* FakeBank.state
    expect(account.pndActive).toBe(true)
    expect(account.liens).toEqual([])
    expect(yield* FakeBank.conserved).toBe(true)
    if (outcome === "delivered") {
      expect(account.ledgerKobo).toBe(FUNDS - AMOUNT - FEE)
      expect(bank.paidOutKobo).toBe(AMOUNT)
    } else {
      expect(account.ledgerKobo).toBe(FUNDS)
      expect(bank.paidOutKobo).toBe(0n)
    }
  })

/** Lets leases expire and requeries fall due, then runs recovery/reconciliation, `passes` times. */
const recover = (passes: number) =>
  Effect.gen(function*() {
    for (let i = 0; i < passes; i++) {
      yield* TestClock.adjust(Duration.minutes(31))
      yield* Transfers.processDue()
    }
  })

const statusOf = (id: string) => Effect.map(Effect.flatMap(TransferRepo, (r) => r.findById(id)), (t) => Option.getOrThrow(t))

describe("Transfers.drive against the sandbox outcomes", () => {
  it.effect("any other destination: confirmed at once; amount + fee debited, the recipient gets the amount", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450001")
      const done = yield* Transfers.drive(transfer)
      expect(done).toMatchObject({ status: "confirmed", restored: true, debitState: "applied", transferState: "successful" })
      yield* expectSettled(accountNumber, "delivered")
    })))

  it.effect("0003: the transfer fails, the debit is reversed, the account restored", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450003")
      const done = yield* Transfers.drive(transfer)
      expect(done).toMatchObject({ status: "failed", reversalState: "applied", restored: true })
      expect(done.failureReason).toContain("Transfer refused")
      yield* expectSettled(accountNumber, "returned")
      const mail = (yield* Sent.all).filter((m) => m.kind === "transfer_failed")
      expect(mail).toHaveLength(1)
      expect(mail[0]!.text).toContain("back in your account")
    })))

  it.effect("0002: pending (account restored at once), then confirmed by reconciliation", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450002")
      const first = yield* Transfers.drive(transfer)
      expect(first).toMatchObject({ status: "pending", transferState: "pending", restored: true })
      expect((yield* FakeBank.account(accountNumber)).pndActive).toBe(true)
      yield* recover(2)
      expect((yield* statusOf(transfer.id)).status).toBe("confirmed")
      yield* expectSettled(accountNumber, "delivered")
    })))

  it.effect("0004: the answer never comes (unknown): pending, nothing reversed; a requery finds it delivered", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450004")
      const first = yield* Transfers.drive(transfer)
      expect(first).toMatchObject({ status: "pending", transferState: "attempted", reversalState: "none" })
      yield* recover(1)
      expect((yield* statusOf(transfer.id)).status).toBe("confirmed")
      yield* expectSettled(accountNumber, "delivered")
    })))

  it.effect("0005: pending, requeried with backoff, then failed at the bank: reversed", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450005")
      yield* Transfers.drive(transfer)
      yield* recover(6)
      const done = yield* statusOf(transfer.id)
      expect(done).toMatchObject({ status: "failed", reversalState: "applied", restored: true })
      expect(done.retryCount).toBeLessThan(TransferPolicy.maxRequeries)
      yield* expectSettled(accountNumber, "returned")
      expect((yield* Sent.all).filter((m) => m.kind === "transfer_failed")).toHaveLength(1)
    })))

  it.effect("insufficient balance (fee included): failed before any debit, account restored", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450001")
      // spend all but AMOUNT (the fee no longer fits)
      const repo = yield* TransferRepo
      yield* repo.update(transfer, {}, new Date(0))
      const bank = yield* CoreBanking
      yield* bank.deactivatePnd(accountNumber)
      yield* bank.debit({ accountNumber, amountKobo: FUNDS - AMOUNT, reference: "DSPEND000001", narration: "x" })
      yield* bank.activatePnd(accountNumber)
      const done = yield* Transfers.drive(transfer)
      expect(done).toMatchObject({ status: "failed", debitState: "none", failureReason: "Insufficient balance", restored: true })
      const account = yield* FakeBank.account(accountNumber)
      expect(account.ledgerKobo).toBe(AMOUNT)
      expect(account.pndActive).toBe(true)
      expect(account.liens).toEqual([])
    })))
})

describe("a crash or unknown outcome at every provider call, then recovery from the journal", () => {
  const operations: ReadonlyArray<Operation> = [
    "deactivatePnd",
    "account",
    "placeLien",
    "debit",
    "transfer",
    "removeLien",
    "activatePnd"
  ]
  for (const operation of operations) {
    for (const afterApplying of [false, true]) {
      it.effect(`${operation} ${afterApplying ? "applied" : "not applied"} but unanswered: delivered exactly once`, () =>
        withTransfers(Effect.gen(function*() {
          const { transfer, accountNumber } = yield* setup("0123450001")
          yield* FakeBank.failNext(operation, FakeBank.unknown(operation), { afterApplying })
          const first = yield* Transfers.drive(transfer)
          expect(first.status).toBe("pending")
          yield* recover(2)
          expect((yield* statusOf(transfer.id)).status).toBe("confirmed")
          yield* expectSettled(accountNumber, "delivered")
          expect(yield* FakeBank.calls("debit")).toBeLessThanOrEqual(2)
        })))
    }
  }

  for (const afterApplying of [false, true]) {
    it.effect(`the reversal ${afterApplying ? "applied" : "not applied"} but unanswered: returned exactly once`, () =>
      withTransfers(Effect.gen(function*() {
        const { transfer, accountNumber } = yield* setup("0123450003")
        yield* FakeBank.failNext("credit", FakeBank.unknown("credit"), { afterApplying })
        const first = yield* Transfers.drive(transfer)
        expect(first).toMatchObject({ status: "pending", reversalState: "attempted" })
        yield* recover(2)
        expect((yield* statusOf(transfer.id)).status).toBe("failed")
        yield* expectSettled(accountNumber, "returned")
      })))
  }

  it.effect("a live driver's lease keeps recovery away; an expired one lets it take over", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer } = yield* setup("0123450001")
      yield* FakeBank.failNext("debit", FakeBank.unknown("debit"))
      yield* Transfers.drive(transfer)
      expect((yield* Transfers.processDue()).claimed).toBe(0) // lease still held
      yield* TestClock.adjust(Transfers.LEASE)
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* Transfers.processDue()).toMatchObject({ claimed: 1, confirmed: 1 })
    })))
})

describe("a driver that died after restoring the account but before writing the final status", () => {
  it.effect("is finished by recovery (confirmed), with nothing moved again", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450001")
      const repo = yield* TransferRepo
      // what the journal looks like when the process dies right after the Restore write
      yield* repo.update(transfer, {
        pndLifted: true,
        lienPlaced: true,
        debitState: "applied",
        transferState: "successful",
        restored: true,
        leaseUntil: new Date(0)
      }, new Date(0))
      yield* TestClock.adjust(Duration.minutes(1))
      expect(yield* Transfers.processDue()).toMatchObject({ claimed: 1, confirmed: 1 })
      expect(yield* FakeBank.calls("debit")).toBe(0)
      expect((yield* statusOf(transfer.id)).status).toBe("confirmed")
      expect((yield* Sent.all).filter((m) => m.kind === "transfer_failed")).toHaveLength(0)
      expect((yield* FakeBank.account(accountNumber)).pndActive).toBe(true)
    })))
})
