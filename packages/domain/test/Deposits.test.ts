import {describe, expect, it} from "@effect/vitest"
import {Duration, Effect, TestClock} from "effect"
import * as Banking from "../src/banking/index.js"
import * as Transactions from "../src/transactions/History.js"
import { CoreBanking, TestFunding } from "../src/banking/CoreBanking.js"
import {bankedAda, bankedBola, bvnVerifiedAda, inMemory} from "./support/Fixtures.js"
import {FakeBank, Store} from "./support/InMemory.js"
import { TransactionId } from "../src/shared/Ids.js"

const inbound = (accountNumber: string, amountKobo: bigint) =>
  Effect.flatMap(TestFunding, (f) => f.deposit({ accountNumber, amountKobo }))

describe("Banking.syncDeposits", () => {
  it.effect("each inbound NIP credit becomes one confirmed deposit row, dated when the provider posted it", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, accountNumber } = yield* bankedAda
      yield* TestClock.adjust(Duration.minutes(1))
      yield* inbound(accountNumber, 10_000n)
      const postedAt = (yield* FakeBank.account(accountNumber)).history[0]!.postedAt
      yield* TestClock.adjust(Duration.minutes(1))
      const result = yield* Banking.syncDeposits(accountId)
      expect(result).toEqual({ balanceKobo: 10_000n, newDeposits: 1 })
      const { customer } = yield* Store.account(accountId)
      const [row, ...rest] = yield* Store.transactions
      expect(rest).toHaveLength(0)
      expect(row).toMatchObject({
        customerId: customer.id,
        planId: null,
        type: "credit",
        purpose: "deposit",
        amountKobo: 10_000n,
        feeKobo: 0n,
        status: "confirmed",
        providerReference: (yield* FakeBank.account(accountNumber)).history[0]!.reference,
        failureReason: null,
        retryCount: 0,
        createdAt: postedAt
      })
      expect(row!.updatedAt.getTime()).toBe(postedAt.getTime() + 60_000)
    })))

  it.effect("records each deposit once however often and concurrently it runs (sync, webhook, test deposit)", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, accountNumber } = yield* bankedAda
      yield* inbound(accountNumber, 1_000n)
      yield* inbound(accountNumber, 2_000n)
      yield* inbound(accountNumber, 3_000n)
      // the provider call yields, so every sync has read the history before any records
      const core = yield* CoreBanking
      const slow = { ...core, history: (n: string) => Effect.zipRight(Effect.yieldNow(), core.history(n)) }
      const results = yield* Effect.all(
        [
          ...Array.from({ length: 6 }, () => Banking.syncDeposits(accountId)),
          ...Array.from({ length: 4 }, () => Banking.depositsForAccountNumber(accountNumber))
        ],
        { concurrency: "unbounded" }
      ).pipe(Effect.provideService(CoreBanking, slow))
      expect(results.reduce((n, r) => n + r.newDeposits, 0)).toBe(3)
      expect(results.every((r) => r.balanceKobo === 6_000n)).toBe(true)
      yield* Banking.syncDeposits(accountId)
      const rows = yield* Store.transactions
      expect(rows.map((t) => t.amountKobo).sort()).toEqual([1_000n, 2_000n, 3_000n])
      expect(new Set(rows.map((t) => t.providerReference)).size).toBe(3)
    })))

  it.effect("only inbound NIP credits are deposits (core debits and credits are not)", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, accountNumber } = yield* bankedAda
      yield* inbound(accountNumber, 10_000n)
      const core = yield* CoreBanking
      yield* core.deactivatePnd(accountNumber)
      yield* core.debit({ accountNumber, amountKobo: 3_000n, reference: "D00000000001", narration: "debit" })
      yield* core.credit({ accountNumber, amountKobo: 1_000n, reference: "R00000000001", narration: "reversal" })
      yield* core.activatePnd(accountNumber)
      const result = yield* Banking.syncDeposits(accountId)
      expect(result).toEqual({ balanceKobo: 8_000n, newDeposits: 1 })
      expect(yield* Store.transactions).toHaveLength(1)
      expect(yield* Transactions.providerTransactions(accountId)).toHaveLength(3)
      expect(yield* FakeBank.conserved).toBe(true)
    })))

  it.effect("firstDepositAt is the first deposit's posting time and never moves", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, accountNumber } = yield* bankedAda
      expect((yield* Store.account(accountId)).customer.firstDepositAt).toBeNull()
      yield* TestClock.adjust(Duration.hours(1))
      yield* inbound(accountNumber, 100n)
      const first = (yield* FakeBank.account(accountNumber)).history[0]!.postedAt
      yield* TestClock.adjust(Duration.hours(1))
      yield* inbound(accountNumber, 200n)
      yield* Banking.syncDeposits(accountId)
      expect((yield* Store.account(accountId)).customer.firstDepositAt).toEqual(first)
      yield* TestClock.adjust(Duration.hours(1))
      yield* Banking.testDeposit(accountId, 300n)
      expect((yield* Store.account(accountId)).customer.firstDepositAt).toEqual(first)
    })))

  it.effect("a sync with no deposits records nothing and leaves PND on", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bankedAda
      expect(yield* Banking.syncDeposits(accountId)).toEqual({ balanceKobo: 0n, newDeposits: 0 })
      expect((yield* Store.account(accountId)).customer.firstDepositAt).toBeNull()
    })))

  it.effect("provider failures propagate; nothing is recorded", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, accountNumber } = yield* bankedAda
      yield* inbound(accountNumber, 100n)
      yield* FakeBank.failNext("history", FakeBank.unknown("history"))
      expect((yield* Effect.flip(Banking.syncDeposits(accountId)))._tag).toBe("ProviderUnknownOutcome")
      expect(yield* Store.transactions).toHaveLength(0)
    })))

  it.effect("needs a bank account", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bvnVerifiedAda
      const tags = yield* Effect.all([
        Effect.flip(Banking.syncDeposits(accountId)),
        Effect.flip(Banking.testDeposit(accountId)),
        Effect.flip(Transactions.providerTransactions(accountId)),
        Effect.flip(Transactions.transactions(accountId, { page: 1, pageSize: 20 }))
      ])
      expect(tags.map((e) => e._tag)).toEqual(["NoBankAccount", "NoBankAccount", "NoBankAccount", "NoBankAccount"])
    })))
})

describe("Banking.testDeposit", () => {
  it.effect("credits 5,000,000 kobo by default and returns the new balance", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bankedAda
      expect(yield* Banking.testDeposit(accountId)).toEqual({ balanceKobo: 5_000_000n, newDeposits: 1 })
      expect(yield* Banking.testDeposit(accountId, 10_000_000n)).toEqual({ balanceKobo: 15_000_000n, newDeposits: 1 })
    })))

  it.effect("refuses amounts outside 1..10,000,000 kobo: InvalidAmount", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bankedAda
      expect((yield* Effect.flip(Banking.testDeposit(accountId, 0n)))._tag).toBe("InvalidAmount")
      expect((yield* Effect.flip(Banking.testDeposit(accountId, 10_000_001n)))._tag).toBe("InvalidAmount")
      expect(yield* FakeBank.calls("deposit")).toBe(0)
    })))
})

describe("Banking.depositsForAccountNumber", () => {
  it.effect("syncs the customer who owns the number; an unknown number is UnknownAccountNumber", () =>
    inMemory(Effect.gen(function*() {
      const ada = yield* bankedAda
      const bola = yield* bankedBola
      yield* inbound(bola.accountNumber, 900n)
      expect(yield* Banking.depositsForAccountNumber(bola.accountNumber)).toEqual({ balanceKobo: 900n, newDeposits: 1 })
      const bolaCustomer = (yield* Store.account(bola.accountId)).customer
      expect((yield* Store.transactions).map((t) => t.customerId)).toEqual([bolaCustomer.id])
      expect((yield* Store.account(ada.accountId)).customer.firstDepositAt).toBeNull()
      expect(yield* Effect.flip(Banking.depositsForAccountNumber("3099999999"))).toMatchObject({
        _tag: "UnknownAccountNumber",
        accountNumber: "3099999999"
      })
    })))
})

describe("Banking.transactions / transaction", () => {
  it.effect("lists the customer's rows newest first, paginated; one row by id only for its owner", () =>
    inMemory(Effect.gen(function*() {
      const ada = yield* bankedAda
      const bola = yield* bankedBola
      for (const amount of [100n, 200n, 300n]) {
        yield* TestClock.adjust(Duration.minutes(1))
        yield* Banking.testDeposit(ada.accountId, amount)
      }
      yield* Banking.testDeposit(bola.accountId, 999n)
      const first = yield* Transactions.transactions(ada.accountId, { page: 1, pageSize: 2 })
      expect(first.total).toBe(3)
      expect(first.items.map((t) => t.amountKobo)).toEqual([300n, 200n])
      const second = yield* Transactions.transactions(ada.accountId, { page: 2, pageSize: 2 })
      expect(second.items.map((t) => t.amountKobo)).toEqual([100n])

      const row = first.items[0]!
      expect(yield* Transactions.transaction(ada.accountId, row.id)).toEqual(row)
      expect((yield* Effect.flip(Transactions.transaction(bola.accountId, row.id)))._tag).toBe("TransactionNotFound")
      expect((yield* Effect.flip(Transactions.transaction(ada.accountId, TransactionId.make("00000000-0000-4000-8000-00000000ffff"))))._tag).toBe(
        "TransactionNotFound"
      )
    })))

  it.effect("providerTransactions returns the provider's rows as they are", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, accountNumber } = yield* bankedAda
      yield* Banking.testDeposit(accountId, 4_200n)
      const rows = yield* Transactions.providerTransactions(accountId)
      expect(rows).toEqual((yield* FakeBank.account(accountNumber)).history)
      expect(rows[0]).toMatchObject({ direction: "credit", channel: "nip_inbound", amountKobo: 4_200n })
    })))
})

describe("Banking.reconcileDeposits", () => {
  it.effect("records deposits whose webhook never came, once, across batches; a failing customer does not stop the rest", () =>
    inMemory(Effect.gen(function*() {
      const ada = yield* bankedAda
      const bola = yield* bankedBola
      yield* inbound(ada.accountNumber, 100_000n)
      yield* inbound(bola.accountNumber, 250_000n)
      // batch size 1: two pages; Bola's history call fails once
      yield* FakeBank.failNext("history", FakeBank.unknown("history"))
      const first = yield* Banking.reconcileDeposits({ batchSize: 1 })
      expect(first).toEqual({ customers: 2, newDeposits: 1, failures: 1 })
      const second = yield* Banking.reconcileDeposits({ batchSize: 1 })
      expect(second).toEqual({ customers: 2, newDeposits: 1, failures: 0 })
      const third = yield* Banking.reconcileDeposits()
      expect(third).toEqual({ customers: 2, newDeposits: 0, failures: 0 })
      const deposits = (yield* Store.transactions).filter((t) => t.purpose === "deposit")
      expect(deposits.map((t) => t.amountKobo).sort()).toEqual([100_000n, 250_000n])
    })))

  it.effect("customers without a bank account are not asked for", () =>
    inMemory(Effect.gen(function*() {
      yield* bvnVerifiedAda
      expect(yield* Banking.reconcileDeposits()).toEqual({ customers: 0, newDeposits: 0, failures: 0 })
      expect(yield* FakeBank.calls("history")).toBe(0)
    })))
})
