import {describe, expect, it} from "@effect/vitest"
import {Duration, Effect, Option, TestClock} from "effect"
import * as Banking from "../src/banking/index.js"
import { TestFunding } from "../src/banking/CoreBanking.js"
import {bankedAda, bvnVerifiedAda, inMemory} from "./support/Fixtures.js"
import {FakeBank, SANDBOX_BANKS} from "./support/InMemory.js"

/** Credits the fake provider account without syncing (what an inbound transfer does before any webhook). */
const inbound = (accountNumber: string, amountKobo: bigint) =>
  Effect.flatMap(TestFunding, (f) => f.deposit({ accountNumber, amountKobo }))

describe("Banking.balance", () => {
  it.effect("needs a bank account: NoBankAccount", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bvnVerifiedAda
      expect((yield* Effect.flip(Banking.balance(accountId)))._tag).toBe("NoBankAccount")
      expect(yield* Banking.bankingSummary(accountId)).toEqual(Option.none())
    })))

  it.effect("is the provider's ledger balance in kobo", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, accountNumber } = yield* bankedAda
      expect(yield* Banking.balance(accountId)).toBe(0n)
      yield* Banking.testDeposit(accountId, 1_234_567n)
      expect(yield* Banking.balance(accountId)).toBe(1_234_567n)
      yield* inbound(accountNumber, 1n)
      yield* TestClock.adjust(Duration.seconds(6))
      expect(yield* Banking.balance(accountId)).toBe(1_234_568n)
    })))

  it.effect("a burst of reads within 5 seconds makes one provider call; after the TTL it asks again", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, accountNumber } = yield* bankedAda
      const before = yield* FakeBank.calls("account")
      yield* Effect.all(Array.from({ length: 10 }, () => Banking.balance(accountId)), { concurrency: "unbounded" })
      expect((yield* FakeBank.calls("account")) - before).toBe(1)

      yield* inbound(accountNumber, 500n) // not synced: the cached value is still served
      yield* TestClock.adjust(Duration.seconds(5))
      expect(yield* Banking.balance(accountId)).toBe(0n)
      expect((yield* FakeBank.calls("account")) - before).toBe(1)

      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* Banking.balance(accountId)).toBe(500n)
      expect((yield* FakeBank.calls("account")) - before).toBe(2)
    })))

  it.effect("a deposit sync or a test deposit invalidates the cached balance at once", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, accountNumber } = yield* bankedAda
      expect(yield* Banking.balance(accountId)).toBe(0n)
      yield* inbound(accountNumber, 700n)
      expect((yield* Banking.syncDeposits(accountId)).balanceKobo).toBe(700n)
      expect(yield* Banking.balance(accountId)).toBe(700n)
      expect((yield* Banking.testDeposit(accountId, 300n)).balanceKobo).toBe(1_000n)
      expect(yield* Banking.balance(accountId)).toBe(1_000n)
    })))

  it.effect("failures are not cached: the next read asks the provider again", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bankedAda
      yield* FakeBank.failNext("account", FakeBank.unknown("account"))
      expect((yield* Effect.flip(Banking.balance(accountId)))._tag).toBe("ProviderUnknownOutcome")
      expect(yield* Banking.balance(accountId)).toBe(0n)
    })))

  it.effect("customer-facing PND: active until the first confirmed deposit, then off for good", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, accountNumber } = yield* bankedAda
      expect(yield* Banking.bankingSummary(accountId)).toEqual(
        Option.some({ coreAccountNumber: accountNumber, pndActive: true, balanceKobo: 0n })
      )
      yield* Banking.testDeposit(accountId, 5_000n)
      expect(yield* Banking.bankingSummary(accountId)).toEqual(
        Option.some({ coreAccountNumber: accountNumber, pndActive: false, balanceKobo: 5_000n })
      )
      // at the provider PND stays active: only a money movement lifts it, briefly
      expect((yield* FakeBank.account(accountNumber)).pndActive).toBe(true)
    })))
})

describe("Banking.banks", () => {
  it.effect("is the provider's list, cached for 24 hours", () =>
    inMemory(Effect.gen(function*() {
      expect(yield* Banking.banks).toEqual(SANDBOX_BANKS)
      yield* TestClock.adjust(Duration.hours(24))
      yield* Banking.banks
      expect(yield* FakeBank.calls("banks")).toBe(1)
      yield* TestClock.adjust(Duration.millis(1))
      yield* Banking.banks
      expect(yield* FakeBank.calls("banks")).toBe(2)
    })))

  it.effect("a failed fetch is not cached", () =>
    inMemory(Effect.gen(function*() {
      yield* FakeBank.failNext("banks", FakeBank.unknown("banks"))
      expect((yield* Effect.flip(Banking.banks))._tag).toBe("ProviderUnknownOutcome")
      expect(yield* Banking.banks).toHaveLength(SANDBOX_BANKS.length)
      expect(yield* FakeBank.calls("banks")).toBe(2)
    })))
})
