import {describe, expect, it} from "@effect/vitest"
import {Clock, Context, Deferred, Duration, Effect, Fiber, Option, Ref, TestClock} from "effect"
import type { AlertKind } from "../src/admin/Alerts.js"
import { CoreBanking, ProviderRefused, TestFunding } from "../src/banking/CoreBanking.js"
import { newTransfer, type Transfer } from "../src/transfers/Model.js"
import { AccountRepo } from "../src/account/Ports.js"
import { Ids } from "../src/shared/Ports.js"
import { TransferRepo } from "../src/transfers/Ports.js"
import * as Transfers from "../src/transfers/index.js"
import { ExhaustedRequeries, requeryWindowMs, TransferPolicy } from "../src/transfers/Saga.js"
import { captureSpans } from "../src/testing/Spans.js"
import {bankedAda, inMemory} from "./support/Fixtures.js"
import {FakeBank, type Operation} from "./support/FakeBank.js"
import {AlertStore, Sent} from "./support/InMemory.js"
import {InMemoryTransfersLive} from "./support/InMemoryTransfers.js"
import { CustomerId, TransactionId } from "../src/shared/Ids.js"

const AMOUNT = 250_000n
const FEE = 2_688n
const FUNDS = 1_000_000n

const withTransfers = <A, E>(effect: Effect.Effect<A, E, any>) => inMemory(Effect.provide(effect, InMemoryTransfersLive))

/** A new pending movement of AMOUNT (+FEE) from the customer's account to `destination`, stored. */
const storeMovement = (customerId: CustomerId, accountNumber: string, destination: string, idempotencyKey: string) =>
  Effect.gen(function*() {
    const enquiry = yield* (yield* CoreBanking).nameEnquiry({ accountNumber: destination, bankCode: "000013" })
    const at = new Date(yield* Clock.currentTimeMillis)
    const transfer = newTransfer({
      id: TransactionId.make(yield* (yield* Ids).next),
      customerId,
      sourceAccountNumber: accountNumber,
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
      idempotencyKey,
      requestHash: "hash",
      createdAt: at
    })
    return yield* (yield* TransferRepo).create(transfer)
  })

/** A customer funded with `funds` and a new pending movement of AMOUNT (+FEE) to `destination`. */
const setup = (destination: string, options: { readonly funds?: bigint } = {}) =>
  Effect.gen(function*() {
    const ada = yield* bankedAda
    yield* (yield* TestFunding).deposit({ accountNumber: ada.accountNumber, amountKobo: options.funds ?? FUNDS })
    const customer = Option.getOrThrow(yield* (yield* AccountRepo).findById(ada.accountId)).customer
    const { transfer } = yield* storeMovement(customer.id, ada.accountNumber, destination, "key-1")
    return { transfer, accountNumber: ada.accountNumber, customerId: customer.id }
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

describe("tracing", () => {
  it.effect("the drive's span names the movement and the saga's last action", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer } = yield* setup("0123450001")
      const tracing = yield* captureSpans
      const result = yield* tracing.run(Transfers.drive(transfer))
      expect(result.status).toBe("confirmed")
      const drive = tracing.spans.filter((span) => span.name === "Transfers.drive")
      expect(drive).toHaveLength(1)
      expect(drive[0]!.attributes.get("transferId")).toBe(transfer.id)
      expect(drive[0]!.attributes.get("lastAction")).toBe("Finish")
    })))
})

describe("journal writes: an outcome is journaled with the next write, never lost", () => {
  /** Runs `self` counting the journal writes (TransferRepo.update and updateCurrent) it makes. */
  const countingWrites = <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.gen(function*() {
      const repo = yield* TransferRepo
      const writes = yield* Ref.make(0)
      const result = yield* Effect.provideService(self, TransferRepo, {
        ...repo,
        update: (claim, patch, now) => Effect.zipRight(Ref.update(writes, (n) => n + 1), repo.update(claim, patch, now)),
        updateCurrent: (current, patch, now) => Effect.zipRight(Ref.update(writes, (n) => n + 1), repo.updateCurrent(current, patch, now))
      })
      return { result, writes: yield* Ref.get(writes) }
    })

  it.effect("a payout the bank answers at once: four writes (after the PND lift, before the debit, before the transfer, final)", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450001")
      const { result, writes } = yield* countingWrites(Transfers.drive(transfer))
      expect(result).toMatchObject({ status: "confirmed", pndLifted: true, lienPlaced: true, debitState: "applied", transferState: "successful", restored: true })
      expect(writes).toBe(4)
      yield* expectSettled(accountNumber, "delivered")
    })))

  it.effect("no answer to the lien's removal after a successful transfer: the transfer's success is journaled before the driver stops", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450001")
      yield* FakeBank.failNext("removeLien", FakeBank.unknown("removeLien"))
      const first = yield* Transfers.drive(transfer)
      // not left "attempted" (which recovery would requery): the deferred outcome was written
      expect(first).toMatchObject({ status: "pending", debitState: "applied", transferState: "successful", restored: false })
      expect((yield* statusOf(transfer.id)).transferState).toBe("successful")
      yield* TestClock.adjust(Duration.sum(Transfers.LEASE, Duration.seconds(1)))
      expect(yield* Transfers.processDue()).toMatchObject({ claimed: 1, confirmed: 1 })
      expect(yield* FakeBank.calls("transfer")).toBe(1)
      yield* expectSettled(accountNumber, "delivered")
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

// ---------------------------------------------------------------------------------------------
// Reconciliation, refusals that need an operator, fencing, the protecting lien
// ---------------------------------------------------------------------------------------------

type Core = Context.Tag.Service<CoreBanking>

/** Runs `self` against the fake bank with some of its operations changed (`change` gets the originals). */
const withBank = <A, E, R>(change: (bank: Core) => Partial<Core>, self: Effect.Effect<A, E, R>) =>
  Effect.flatMap(CoreBanking, (bank) => Effect.provideService(self, CoreBanking, { ...bank, ...change(bank) }))

/** The staff alerts of one kind raised so far. */
const alertsOf = (kind: AlertKind) => Effect.map(AlertStore.all, (alerts) => alerts.filter((a) => a.kind === kind))

/** How many provider calls were made so far, of any operation. */
const allCalls = Effect.flatMap(FakeBank, (bank) => Effect.map(Ref.get(bank.calls), (calls) => calls.length))

/**
 * A driver stalled inside a provider call: `gate(call)` holds the FIRST call it wraps until
 * `release` (announcing it on `reached`); later calls go straight through.
 */
const stallFirstCall = Effect.gen(function*() {
  const reached = yield* Deferred.make<void>()
  const release = yield* Deferred.make<void>()
  const first = yield* Ref.make(true)
  const gate = <A, E>(call: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.flatMap(Ref.getAndSet(first, false), (isFirst) =>
      isFirst ? Effect.zipRight(Effect.zipRight(Deferred.succeed(reached, undefined), Deferred.await(release)), call) : call)
  return { reached, release, gate }
})

const refusal = (operation: string, code: string) => new ProviderRefused({ operation, code, reason: "Transaction not permitted" })

describe("reconciliation: only a definite 'pending' counts toward TransferPolicy.maxRequeries", () => {
  it.effect("requeries with no answer: still pending, nothing counted or reversed; a provider_unreachable alert past the window; confirmed once the bank answers", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450002")
      expect(yield* Transfers.drive(transfer)).toMatchObject({ status: "pending", transferState: "pending", restored: true })
      const unanswered = TransferPolicy.maxRequeries + 3
      for (let i = 0; i < unanswered; i++) yield* FakeBank.failNext("requery", FakeBank.unknown("requery"))
      // 3 passes of 31 minutes: still within the requery window (95 minutes)
      expect(3 * 31 * 60_000).toBeLessThan(requeryWindowMs)
      expect(unanswered * 31 * 60_000).toBeGreaterThan(requeryWindowMs)
      yield* recover(3)
      expect(yield* alertsOf("provider_unreachable")).toEqual([])
      yield* recover(unanswered - 3)
      expect(yield* FakeBank.calls("requery")).toBe(unanswered) // requeried at every pass, never answered
      expect(yield* statusOf(transfer.id)).toMatchObject({
        status: "pending",
        transferState: "pending",
        retryCount: 0,
        reversalState: "none"
      })
      expect(yield* FakeBank.calls("credit")).toBe(0)
      const unreachable = yield* alertsOf("provider_unreachable")
      expect(unreachable).toHaveLength(1) // one condition, one alert: later passes count occurrences
      expect(unreachable[0]).toMatchObject({ transactionId: transfer.id, severity: "warning" })
      expect(unreachable[0]!.occurrences).toBeGreaterThan(1)
      // the bank answers again: the transfer went through
      yield* recover(1)
      expect(yield* statusOf(transfer.id)).toMatchObject({ status: "confirmed", retryCount: 0 })
      expect(yield* FakeBank.calls("debit")).toBe(1)
      yield* expectSettled(accountNumber, "delivered")
      expect(yield* alertsOf("transfer_retries_exhausted")).toEqual([])
    })))

  it.effect("'pending' answer after answer: failed at the limit, reversed once, a transfer_retries_exhausted alert", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450002")
      // the bank's settlement float: the pending transfer's money is in flight, the reversal comes from here
      yield* Effect.flatMap(FakeBank, (bank) =>
        Ref.update(bank.state, (st) => ({ ...st, settlementKobo: st.settlementKobo + FUNDS, depositedKobo: st.depositedKobo + FUNDS })))
      yield* withBank(() => ({ requery: () => Effect.succeed("pending" as const) }), Effect.gen(function*() {
        expect(yield* Transfers.drive(transfer)).toMatchObject({ status: "pending", transferState: "pending", retryCount: 0 })
        yield* recover(TransferPolicy.maxRequeries - 1)
        expect(yield* statusOf(transfer.id)).toMatchObject({ status: "pending", retryCount: TransferPolicy.maxRequeries - 1 })
        expect(yield* FakeBank.calls("credit")).toBe(0)
        expect(yield* alertsOf("transfer_retries_exhausted")).toEqual([])
        yield* recover(1)
        expect(yield* statusOf(transfer.id)).toMatchObject({
          status: "failed",
          transferState: "failed",
          reversalState: "applied",
          restored: true,
          retryCount: TransferPolicy.maxRequeries
        })
        yield* recover(3) // nothing more happens to a failed movement
      }))
      expect(yield* FakeBank.calls("credit")).toBe(1)
      yield* expectSettled(accountNumber, "returned")
      const exhausted = yield* alertsOf("transfer_retries_exhausted")
      expect(exhausted).toHaveLength(1)
      expect(exhausted[0]).toMatchObject({ transactionId: transfer.id, occurrences: 1, severity: "critical" })
      expect((yield* Sent.all).filter((m) => m.kind === "transfer_failed")).toHaveLength(1)
    })))
})

describe("a provider whose rules escalate a transfer still pending after the requeries (BankOne)", () => {
  it.effect("ExhaustedRequeries 'escalate': still pending after the limit, never reversed, staff alerted once; requeried on and confirmed when the bank answers", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450002")
      yield* withBank(() => ({ requery: () => Effect.succeed("pending" as const) }), Effect.gen(function*() {
        expect(yield* Transfers.drive(transfer)).toMatchObject({ status: "pending", transferState: "pending", retryCount: 0 })
        yield* recover(TransferPolicy.maxRequeries + 3)
        expect(yield* statusOf(transfer.id)).toMatchObject({
          status: "pending",
          transferState: "pending",
          reversalState: "none",
          retryCount: TransferPolicy.maxRequeries + 3
        })
        expect(yield* FakeBank.calls("credit")).toBe(0) // the debit is not reversed: the bank may still pay it
        const escalated = yield* alertsOf("transfer_retries_exhausted")
        expect(escalated).toHaveLength(1)
        expect(escalated[0]).toMatchObject({ transactionId: transfer.id, severity: "critical" })
        expect(escalated[0]!.message).toContain("support")
      }))
      // the bank's support desk settles it: the next status query (the bank's own) says so
      yield* recover(1)
      expect(yield* statusOf(transfer.id)).toMatchObject({ status: "confirmed", transferState: "successful" })
      expect(yield* FakeBank.calls("credit")).toBe(0)
      yield* expectSettled(accountNumber, "delivered")
    }).pipe(Effect.provideService(ExhaustedRequeries, { then: "escalate" }))))
})

describe("refusals that only an operator can resolve", () => {
  it.effect("a refused reversal: the account restored, the movement left to an operator (alert), never claimed again, not in flight", () =>
    withTransfers(Effect.gen(function*() {
      const { customerId, transfer, accountNumber } = yield* setup("0123450003")
      yield* FakeBank.failNext("credit", refusal("credit", "57"))
      const done = yield* Transfers.drive(transfer)
      expect(done).toMatchObject({ status: "pending", transferState: "failed", reversalState: "refused", restored: true })
      const account = yield* FakeBank.account(accountNumber)
      expect(account.pndActive).toBe(true)
      expect(account.liens).toEqual([])
      // the money waits in settlement for the operator
      expect(account.ledgerKobo).toBe(FUNDS - AMOUNT - FEE)
      expect((yield* FakeBank.state).settlementKobo).toBe(AMOUNT + FEE)
      expect(yield* FakeBank.conserved).toBe(true)
      const refused = yield* alertsOf("reversal_refused")
      expect(refused).toHaveLength(1)
      expect(refused[0]).toMatchObject({ transactionId: transfer.id, customerId })
      // recovery leaves it alone, lease after lease
      for (let i = 0; i < 4; i++) {
        yield* TestClock.adjust(Duration.sum(Transfers.LEASE, Duration.minutes(30)))
        expect((yield* Transfers.processDue()).claimed).toBe(0)
      }
      expect(yield* FakeBank.calls("credit")).toBe(1)
      expect(yield* statusOf(transfer.id)).toMatchObject({ status: "pending", reversalState: "refused" })
      // the customer is free to move money again
      const repo = yield* TransferRepo
      expect(yield* repo.hasMovementInFlight(customerId)).toBe(false)
      const next = yield* storeMovement(customerId, accountNumber, "0123450001", "key-2")
      expect(next.created).toBe(true)
      expect(yield* Transfers.drive(next.transfer)).toMatchObject({ status: "confirmed" })
    })))

  it.effect("a lien removal refused (not '25'): not restored, a lien_removal_refused alert; recovery restores once the bank accepts", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450001")
      yield* FakeBank.failNext("removeLien", refusal("removeLien", "57"))
      const first = yield* Transfers.drive(transfer)
      expect(first).toMatchObject({ status: "pending", transferState: "successful", restored: false })
      expect((yield* FakeBank.account(accountNumber)).liens).toHaveLength(1) // still there: not taken for removed
      const alerts = yield* alertsOf("lien_removal_refused")
      expect(alerts).toHaveLength(1)
      expect(alerts[0]).toMatchObject({ transactionId: transfer.id })
      yield* recover(1)
      expect(yield* statusOf(transfer.id)).toMatchObject({ status: "confirmed", restored: true })
      yield* expectSettled(accountNumber, "delivered")
      expect(yield* FakeBank.calls("removeLien")).toBe(2)
      expect(yield* FakeBank.calls("debit")).toBe(1)
      expect(yield* FakeBank.calls("transfer")).toBe(1)
    })))
})

describe("fencing: a driver whose claim was taken", () => {
  it.effect("stalled before its first step: makes no provider call and returns the movement as it stands", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450001")
      const at = new Date(yield* Clock.currentTimeMillis)
      const claimed = yield* (yield* TransferRepo).claimDue(at, new Date(at.getTime() + Duration.toMillis(Transfers.LEASE)), 10)
      expect(claimed.map((t) => t.epoch)).toEqual([1])
      const callsBefore = yield* allCalls
      const stale = yield* Transfers.drive(transfer) // the creator's claim, epoch 0
      expect(yield* allCalls).toBe(callsBefore)
      expect(stale).toEqual(yield* statusOf(transfer.id))
      expect(stale).toMatchObject({ epoch: 1, status: "pending", pndLifted: false, debitState: "none" })
      // the claimant drives it
      expect(yield* Transfers.drive(claimed[0]!)).toMatchObject({ status: "confirmed" })
      yield* expectSettled(accountNumber, "delivered")
    })))

  it.effect("claimed while inside the debit: its next write is refused, it stops (no transfer); the claimant delivers once", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450001")
      const repo = yield* TransferRepo
      const successor = yield* Ref.make<ReadonlyArray<Transfer>>([])
      // the debit takes longer than the lease: recovery claims the movement meanwhile
      const slowDebit = (bank: Core): Partial<Core> => ({
        debit: (input) =>
          Effect.tap(bank.debit(input), () =>
            Effect.gen(function*() {
              yield* TestClock.adjust(Duration.sum(Transfers.LEASE, Duration.seconds(1)))
              const at = new Date(yield* Clock.currentTimeMillis)
              yield* Ref.set(successor, yield* repo.claimDue(at, new Date(at.getTime() + Duration.toMillis(Transfers.LEASE)), 10))
            }))
      })
      const stale = yield* withBank(slowDebit, Transfers.drive(transfer))
      expect(stale).toMatchObject({ epoch: 1, debitState: "attempted", transferState: "none" })
      expect(yield* FakeBank.calls("transfer")).toBe(0)
      const [claim] = yield* Ref.get(successor)
      expect(yield* Transfers.drive(claim!)).toMatchObject({ status: "confirmed" })
      expect(yield* FakeBank.calls("debit")).toBe(1)
      expect(yield* FakeBank.calls("transfer")).toBe(1)
      yield* expectSettled(accountNumber, "delivered")
    })))

  it.effect("its PND lift lands after the successor finished: it steps aside and re-activates PND", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450001")
      const stall = yield* stallFirstCall
      yield* withBank((bank) => ({ deactivatePnd: (n) => stall.gate(bank.deactivatePnd(n)) }), Effect.gen(function*() {
        const stale = yield* Effect.fork(Transfers.drive(transfer))
        yield* Deferred.await(stall.reached)
        expect(yield* Transfers.processDue()).toMatchObject({ claimed: 1, confirmed: 1 })
        expect((yield* FakeBank.account(accountNumber)).pndActive).toBe(true)
        yield* Deferred.succeed(stall.release, undefined) // the stale lift reaches the bank: PND lifted
        expect(yield* Fiber.join(stale)).toMatchObject({ status: "confirmed", epoch: 1 })
      }))
      yield* expectSettled(accountNumber, "delivered")
      expect(yield* FakeBank.calls("deactivatePnd")).toBe(2)
      expect(yield* FakeBank.calls("activatePnd")).toBe(2) // the successor's Restore, then the stale driver's undo
      expect(yield* FakeBank.calls("debit")).toBe(1)
      expect(yield* FakeBank.calls("transfer")).toBe(1)
    })))

  it.effect("its lien lands after the successor failed and restored: it steps aside and removes the lien", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450001")
      const stall = yield* stallFirstCall
      yield* withBank((bank) => ({ placeLien: (input) => stall.gate(bank.placeLien(input)) }), Effect.gen(function*() {
        const stale = yield* Effect.fork(Transfers.drive(transfer))
        yield* Deferred.await(stall.reached)
        // the successor's own lien is refused: it fails and restores with no lien to remove ("25")
        yield* FakeBank.failNext("placeLien", refusal("placeLien", "57"))
        yield* TestClock.adjust(Duration.sum(Transfers.LEASE, Duration.seconds(1)))
        expect(yield* Transfers.processDue()).toMatchObject({ claimed: 1, failed: 1 })
        yield* Deferred.succeed(stall.release, undefined) // the stale lien reaches the bank: placed
        expect(yield* Fiber.join(stale)).toMatchObject({ status: "failed", epoch: 1 })
      }))
      yield* expectSettled(accountNumber, "returned")
      expect(yield* FakeBank.calls("placeLien")).toBe(2)
      expect(yield* FakeBank.calls("removeLien")).toBe(2) // the successor's ("25"), then the stale driver's undo
      expect(yield* FakeBank.calls("debit")).toBe(0)
    })))

  // KNOWN BUG, kept as an executable report (`fails`: it passes while the bug is there). stepAside
  // decides on `restored` in the stored journal at the moment the stale driver is fenced out. When
  // the stale PND lift reaches the bank after the successor's activatePnd but the stale driver is
  // fenced out before the successor journals `restored`, neither undoes the lift: PND stays lifted
  // on a finished movement. Turn this into a plain `it.effect` once fixed.
  it.effect.fails("KNOWN BUG: a PND lift landing between the successor's activatePnd and its 'restored' write is undone", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450001")
      const stall = yield* stallFirstCall
      const staleDone = yield* Deferred.make<void>()
      const activations = yield* Ref.make(0)
      const change = (bank: Core): Partial<Core> => ({
        deactivatePnd: (n) => stall.gate(bank.deactivatePnd(n)),
        // the successor's Restore: PND active again, then (before it journals it) the stale lift lands
        activatePnd: (n) =>
          Effect.tap(bank.activatePnd(n), () =>
            Effect.flatMap(Ref.getAndUpdate(activations, (k) => k + 1), (k) =>
              k > 0 ? Effect.void : Effect.zipRight(Deferred.succeed(stall.release, undefined), Deferred.await(staleDone))))
      })
      yield* withBank(change, Effect.gen(function*() {
        const stale = yield* Effect.fork(Effect.ensuring(Transfers.drive(transfer), Deferred.succeed(staleDone, undefined)))
        yield* Deferred.await(stall.reached)
        expect(yield* Transfers.processDue()).toMatchObject({ claimed: 1, confirmed: 1 })
        yield* Fiber.join(stale)
      }))
      expect((yield* FakeBank.account(accountNumber)).pndActive).toBe(true)
    })))
})

describe("the protecting lien", () => {
  it.effect("a foreign lien on the account: ours protects the withdrawable rest only; confirmed, the foreign lien stays", () =>
    withTransfers(Effect.gen(function*() {
      const { transfer, accountNumber } = yield* setup("0123450001")
      const foreign = { reference: "FOREIGN00001", amountKobo: 300_000n }
      yield* (yield* CoreBanking).placeLien({ accountNumber, ...foreign })
      const placed = yield* Ref.make<ReadonlyArray<bigint>>([])
      const done = yield* withBank((bank) => ({
        placeLien: (input) => Effect.zipRight(Ref.update(placed, (ls) => [...ls, input.amountKobo]), bank.placeLien(input))
      }), Transfers.drive(transfer))
      expect(done).toMatchObject({ status: "confirmed", debitState: "applied" })
      expect(yield* Ref.get(placed)).toEqual([FUNDS - foreign.amountKobo - AMOUNT - FEE])
      const account = yield* FakeBank.account(accountNumber)
      expect(account.liens).toEqual([foreign])
      expect(account.ledgerKobo).toBe(FUNDS - AMOUNT - FEE)
      expect(account.pndActive).toBe(true)
      expect((yield* FakeBank.state).paidOutKobo).toBe(AMOUNT)
    })))

  for (const foreignKobo of [0n, 300_000n]) {
    it.effect(`moving exactly the withdrawable balance${foreignKobo > 0n ? " (beside a foreign lien)" : ""}: no lien of nothing, confirmed, 0 left`, () =>
      withTransfers(Effect.gen(function*() {
        const { transfer, accountNumber } = yield* setup("0123450001", { funds: AMOUNT + FEE + foreignKobo })
        if (foreignKobo > 0n) yield* (yield* CoreBanking).placeLien({ accountNumber, reference: "FOREIGN00001", amountKobo: foreignKobo })
        const placedBefore = yield* FakeBank.calls("placeLien")
        const done = yield* Transfers.drive(transfer)
        expect(done).toMatchObject({ status: "confirmed", lienPlaced: true, restored: true })
        expect(yield* FakeBank.calls("placeLien")).toBe(placedBefore)
        const snapshot = yield* (yield* CoreBanking).account(accountNumber)
        expect(snapshot.withdrawableBalanceKobo).toBe(0n)
        expect(snapshot.ledgerBalanceKobo).toBe(foreignKobo)
        expect(snapshot.pndActive).toBe(true)
        expect((yield* FakeBank.state).paidOutKobo).toBe(AMOUNT)
      })))
  }
})
