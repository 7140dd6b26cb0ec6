import {describe, expect, it} from "@effect/vitest"
import {Effect} from "effect"
import * as Banking from "../src/banking/index.js"
import { CoreBanking, type OpenAccountInput, ProviderRefused, referenceFor } from "../src/banking/CoreBanking.js"
import {bankedAda, bankedBola, bvnVerifiedAda, inMemory, registerAda, verifiedAda} from "./support/Fixtures.js"
import {FakeBank, Store} from "./support/InMemory.js"
import { AccountId } from "../src/shared/Ids.js"

const fakeAccounts = Effect.map(FakeBank.state, (st) => [...st.accounts.values()])

describe("Banking.openBankAccount", () => {
  it.effect("opens the account with the verified identity, links it and makes the customer active; PND active", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bvnVerifiedAda
      const { accountNumber } = yield* Banking.openBankAccount(accountId)
      const { customer } = yield* Store.account(accountId)
      expect(customer).toMatchObject({
        customerStatus: "active",
        coreAccountNumber: accountNumber,
        coreAccountReference: referenceFor("A", customer.id)
      })
      const opened = yield* FakeBank.account(accountNumber)
      expect(opened).toMatchObject({ accountName: "ADA OBI", reference: referenceFor("A", customer.id), pndActive: true })
      expect(Banking.isPndActive(customer)).toBe(true)
    })))

  it.effect("a second call is BankAccountExists and opens nothing", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, accountNumber } = yield* bankedAda
      const error = yield* Effect.flip(Banking.openBankAccount(accountId))
      expect(error).toMatchObject({ _tag: "BankAccountExists", accountNumber })
      expect(yield* FakeBank.calls("openAccount")).toBe(1)
    })))

  it.effect("needs a verified customer (CustomerNotVerified) with a verified BVN (BvnNotVerified)", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      expect(yield* Effect.flip(Banking.openBankAccount(account.id))).toMatchObject({
        _tag: "CustomerNotVerified",
        customerStatus: "unverified"
      })
      yield* Store.setCustomerStatus(account.id, "verified")
      expect((yield* Effect.flip(Banking.openBankAccount(account.id)))._tag).toBe("BvnNotVerified")
      expect(yield* FakeBank.calls("openAccount")).toBe(0)
    })))

  it.effect("a suspended customer cannot open one", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bvnVerifiedAda
      yield* Store.setCustomerStatus(accountId, "suspended")
      expect(yield* Effect.flip(Banking.openBankAccount(accountId))).toMatchObject({
        _tag: "CustomerNotVerified",
        customerStatus: "suspended"
      })
    })))

  it.effect("a timeout after the provider opened it is resolved by reference in the same call", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bvnVerifiedAda
      yield* FakeBank.failNext("openAccount", FakeBank.unknown("openAccount"), { afterApplying: true })
      const { accountNumber } = yield* Banking.openBankAccount(accountId)
      expect(yield* fakeAccounts).toHaveLength(1)
      expect(yield* FakeBank.calls("findAccountByReference")).toBe(1)
      expect((yield* Store.account(accountId)).customer).toMatchObject({ customerStatus: "active", coreAccountNumber: accountNumber })
    })))

  it.effect("a timeout before anything happened fails with the unknown outcome; the retry opens exactly one", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bvnVerifiedAda
      yield* FakeBank.failNext("openAccount", FakeBank.unknown("openAccount"))
      expect((yield* Effect.flip(Banking.openBankAccount(accountId)))._tag).toBe("ProviderUnknownOutcome")
      expect(yield* fakeAccounts).toHaveLength(0)
      expect((yield* Store.account(accountId)).customer).toMatchObject({ customerStatus: "verified", coreAccountNumber: null })
      yield* Banking.openBankAccount(accountId)
      expect(yield* fakeAccounts).toHaveLength(1)
    })))

  it.effect("retry after a timeout when the provider DID open it and the lookup failed too: no second account", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bvnVerifiedAda
      yield* FakeBank.failNext("openAccount", FakeBank.unknown("openAccount"), { afterApplying: true })
      yield* FakeBank.failNext("findAccountByReference", FakeBank.unknown("findAccountByReference"))
      const first = yield* Effect.flip(Banking.openBankAccount(accountId))
      expect(first._tag).toBe("ProviderUnknownOutcome")
      const [opened] = yield* fakeAccounts
      expect(opened).toBeDefined()
      expect((yield* Store.account(accountId)).customer.coreAccountNumber).toBeNull()

      const { accountNumber } = yield* Banking.openBankAccount(accountId)
      expect(accountNumber).toBe(opened!.accountNumber)
      expect(yield* fakeAccounts).toHaveLength(1)
      expect((yield* Store.account(accountId)).customer).toMatchObject({ customerStatus: "active", coreAccountNumber: accountNumber })
    })))

  it.effect("a provider refusal propagates and changes nothing", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bvnVerifiedAda
      yield* FakeBank.failNext("openAccount", new ProviderRefused({ operation: "openAccount", code: "26", reason: "bad" }))
      expect(yield* Effect.flip(Banking.openBankAccount(accountId))).toMatchObject({ _tag: "ProviderRefused", code: "26" })
      expect((yield* Store.account(accountId)).customer.customerStatus).toBe("verified")
    })))

  it.effect("concurrent calls open and link one account", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bvnVerifiedAda
      // every call passes the checks before any links (the provider call yields), so all but one
      // find the account already linked: the same one, by the same reference
      const core = yield* CoreBanking
      const slow = { ...core, openAccount: (input: OpenAccountInput) => Effect.zipRight(Effect.yieldNow(), core.openAccount(input)) }
      const results = yield* Effect.all(
        Array.from({ length: 4 }, () => Banking.openBankAccount(accountId).pipe(Effect.provideService(CoreBanking, slow))),
        { concurrency: "unbounded" }
      )
      expect(new Set(results.map((r) => r.accountNumber)).size).toBe(1)
      expect(yield* FakeBank.calls("openAccount")).toBe(4)
      expect(yield* fakeAccounts).toHaveLength(1)
      expect((yield* Store.account(accountId)).customer.customerStatus).toBe("active")
    })))

  it.effect("two customers get two accounts with distinct references", () =>
    inMemory(Effect.gen(function*() {
      const ada = yield* bankedAda
      const bola = yield* bankedBola
      expect(ada.accountNumber).not.toBe(bola.accountNumber)
      expect(yield* fakeAccounts).toHaveLength(2)
    })))

  it.effect("an unknown account is AccountNotFound; a verified email alone is not enough", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      expect((yield* Effect.flip(Banking.openBankAccount(accountId)))._tag).toBe("BvnNotVerified")
      expect((yield* Effect.flip(Banking.openBankAccount(AccountId.make("00000000-0000-4000-8000-00000000ffff"))))._tag).toBe(
        "AccountNotFound"
      )
    })))
})
