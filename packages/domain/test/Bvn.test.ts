import {describe, expect, it} from "@effect/vitest"
import {Effect, HashMap, Logger, Option, Redacted, TestClock} from "effect"
import * as Banking from "../src/banking/index.js"
import { ProviderMisconfigured } from "../src/banking/CoreBanking.js"
import { AccountRepo } from "../src/account/Ports.js"
import { SecretHasher } from "../src/shared/Ports.js"
import {ADA, ADA_BVN, BOLA, bvnInput, bvnVerifiedAda, inMemory, registerAda, registerBola, verifiedAda} from "./support/Fixtures.js"
import {AlertStore, FakeBank, Store} from "./support/InMemory.js"
import { AccountId } from "../src/shared/Ids.js"

describe("Banking.verifyBvn", () => {
  it.effect("stores only the BVN digest, sets bvn_verified, updates the identity and returns the registry's", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      const result = yield* Banking.verifyBvn(accountId, bvnInput({
        firstName: "  ADA ",
        address: "2 Broad Street, Lagos",
        gender: "female"
      }))
      expect(result).toEqual({ firstName: "Ada", lastName: "Obi", phone: "08030000000" })
      const { account, customer } = yield* Store.account(accountId)
      expect(customer.kycStatus).toBe("bvn_verified")
      expect(customer.bvnHash).toBe(yield* (yield* SecretHasher).digest("bvn", ADA_BVN))
      // the registry's names, not the ones typed
      expect(account).toMatchObject({
        firstName: "Ada",
        lastName: "Obi",
        phone: ADA.phone,
        address: "2 Broad Street, Lagos",
        gender: "female",
        dateOfBirth: "1990-01-01"
      })
      // the BVN itself is in no stored field (the fake digest is "bvn|<bvn>", so look for exact values)
      const values = [...Object.values(account), ...Object.values(customer)]
      expect(values).not.toContain(ADA_BVN)
    })))

  it.effect("never logs the BVN, and accepts it Redacted", () =>
    inMemory(Effect.gen(function*() {
      const lines: Array<string> = []
      const capture = Logger.make(({ annotations, message }) => {
        lines.push(JSON.stringify({ message, annotations: HashMap.toEntries(annotations) }))
      })
      const { accountId } = yield* verifiedAda
      yield* Banking.verifyBvn(accountId, bvnInput({ bvn: Redacted.make(ADA_BVN) })).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, capture))
      )
      expect(lines.length).toBeGreaterThan(0)
      expect(lines.join("\n")).not.toContain(ADA_BVN)
      expect((yield* Store.account(accountId)).customer.kycStatus).toBe("bvn_verified")
    })))

  it.effect("a changed phone number is no longer verified; the same one keeps its flag", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      yield* Store.patchAccount(accountId, { phoneVerified: true })
      yield* Banking.verifyBvn(accountId, bvnInput({ phone: "+2348099999999" }))
      expect((yield* Store.account(accountId)).account).toMatchObject({ phone: "+2348099999999", phoneVerified: false })

      const { account } = yield* registerBola
      yield* Store.setCustomerStatus(account.id, "verified")
      yield* Store.patchAccount(account.id, { phoneVerified: true })
      yield* Banking.verifyBvn(account.id, bvnInput({ bvn: "22345678902", phone: BOLA.phone }))
      expect((yield* Store.account(account.id)).account.phoneVerified).toBe(true)
    })))

  it.effect("a second verification is BvnAlreadyVerified", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bvnVerifiedAda
      const error = yield* Effect.flip(Banking.verifyBvn(accountId, bvnInput()))
      expect(error._tag).toBe("BvnAlreadyVerified")
    })))

  it.effect("a BVN held by another customer is BvnTaken, only once the registry's date of birth and names matched", () =>
    inMemory(Effect.gen(function*() {
      yield* bvnVerifiedAda
      const { account } = yield* registerBola
      const lookups = yield* FakeBank.calls("bvnLookup")
      // no oracle: a wrong name or date is answered as for any BVN
      expect((yield* Effect.flip(Banking.verifyBvn(account.id, bvnInput({ phone: BOLA.phone, firstName: "Bola" }))))._tag)
        .toBe("BvnNameMismatch")
      expect((yield* Effect.flip(Banking.verifyBvn(account.id, bvnInput({ phone: BOLA.phone, dateOfBirth: "1990-01-02" }))))._tag)
        .toBe("BvnDateOfBirthMismatch")
      const error = yield* Effect.flip(Banking.verifyBvn(account.id, bvnInput({ phone: BOLA.phone })))
      expect(error._tag).toBe("BvnTaken")
      expect(yield* FakeBank.calls("bvnLookup")).toBe(lookups + 3)
      expect((yield* Store.account(account.id)).customer).toMatchObject({ kycStatus: "pending", bvnHash: null })
    })))

  it.effect("two customers racing with one BVN: exactly one wins, the other is BvnTaken", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      const { account } = yield* registerBola
      const results = yield* Effect.all([
        Effect.either(Banking.verifyBvn(accountId, bvnInput())),
        Effect.either(Banking.verifyBvn(account.id, bvnInput({ phone: BOLA.phone })))
      ], { concurrency: "unbounded" })
      expect(results.filter((r) => r._tag === "Right")).toHaveLength(1)
      const loser = results.find((r) => r._tag === "Left")
      expect(loser?._tag === "Left" && loser.left._tag).toBe("BvnTaken")
      const hashes = [...(yield* Store.state).accounts.values()].map((a) => a.customer.bvnHash).filter((h) => h !== null)
      expect(hashes).toHaveLength(1)
    })))

  it.effect("a BVN raced past the pre-check is still BvnTaken (the store's uniqueness decides)", () =>
    inMemory(Effect.gen(function*() {
      yield* bvnVerifiedAda
      const { account } = yield* registerBola
      const repo = yield* AccountRepo
      const blind = { ...repo, findByBvnHash: () => Effect.succeed(Option.none()) }
      const error = yield* Effect.flip(
        Banking.verifyBvn(account.id, bvnInput({ phone: BOLA.phone })).pipe(Effect.provideService(AccountRepo, blind))
      )
      expect(error._tag).toBe("BvnTaken")
      expect((yield* Store.account(account.id)).customer.kycStatus).toBe("pending")
    })))

  it.effect("a phone registered to another account is PhoneTaken, nothing changes", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      yield* registerBola
      const error = yield* Effect.flip(Banking.verifyBvn(accountId, bvnInput({ phone: BOLA.phone })))
      expect(error._tag).toBe("PhoneTaken")
      expect((yield* Store.account(accountId)).customer.kycStatus).toBe("pending")
    })))

  it.effect("an unknown BVN is BvnNotFound", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      const error = yield* Effect.flip(Banking.verifyBvn(accountId, bvnInput({ bvn: "00000000000" })))
      expect(error._tag).toBe("BvnNotFound")
      expect((yield* Store.account(accountId)).customer.kycStatus).toBe("pending")
    })))

  it.effect("a date of birth other than the registry's is BvnDateOfBirthMismatch", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      const error = yield* Effect.flip(Banking.verifyBvn(accountId, bvnInput({ bvn: "11111111111" })))
      expect(error._tag).toBe("BvnDateOfBirthMismatch")
      const { account, customer } = yield* Store.account(accountId)
      expect(customer.kycStatus).toBe("pending")
      expect(account.dateOfBirth).toBeNull()
      // with the registry's date it passes, and the registry's names come back
      expect((yield* Effect.flip(Banking.verifyBvn(accountId, bvnInput({ bvn: "11111111111", dateOfBirth: "1985-05-15" }))))._tag)
        .toBe("BvnNameMismatch")
      const ok = yield* Banking.verifyBvn(
        accountId,
        bvnInput({ bvn: "11111111111", dateOfBirth: "1985-05-15", firstName: "Okeke", lastName: "Chidi" })
      )
      expect(ok).toMatchObject({ firstName: "Chidi", lastName: "Okeke" })
    })))

  it.effect("provider failures propagate unchanged and change nothing", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      yield* FakeBank.failNext("bvnLookup", FakeBank.unknown("bvnLookup"))
      expect((yield* Effect.flip(Banking.verifyBvn(accountId, bvnInput())))._tag).toBe("ProviderUnknownOutcome")
      yield* FakeBank.failNext("bvnLookup", new ProviderMisconfigured({ operation: "bvnLookup", detail: "401" }))
      expect((yield* Effect.flip(Banking.verifyBvn(accountId, bvnInput())))._tag).toBe("ProviderMisconfigured")
      expect((yield* Store.account(accountId)).customer.kycStatus).toBe("pending")
      // provider trouble is no wrong guess: it does not count towards the limit of 3 failures
      for (let i = 0; i < 3; i++) {
        yield* FakeBank.failNext("bvnLookup", FakeBank.unknown("bvnLookup"))
        expect((yield* Effect.flip(Banking.verifyBvn(accountId, bvnInput())))._tag).toBe("ProviderUnknownOutcome")
      }
      yield* Banking.verifyBvn(accountId, bvnInput())
    })))

  it.effect("3 failed verifications within 24 hours: the 4th try is TooManyAttempts (even right), alerted once; a day later it passes", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      for (const dateOfBirth of ["1990-01-02", "1990-01-03"]) {
        expect((yield* Effect.flip(Banking.verifyBvn(accountId, bvnInput({ dateOfBirth }))))._tag).toBe("BvnDateOfBirthMismatch")
      }
      expect((yield* Effect.flip(Banking.verifyBvn(accountId, bvnInput({ lastName: "Okafor" }))))._tag).toBe("BvnNameMismatch")
      const lookups = yield* FakeBank.calls("bvnLookup")
      for (let i = 0; i < 2; i++) {
        const refused = yield* Effect.flip(Banking.verifyBvn(accountId, bvnInput()))
        expect(refused).toMatchObject({ _tag: "TooManyAttempts", kind: "bvn_verification_failure", retryAfterSeconds: 86_400 })
      }
      // refused before the registry is asked (no billed call)
      expect(yield* FakeBank.calls("bvnLookup")).toBe(lookups)
      const alerts = (yield* AlertStore.all).filter((a) => a.kind === "bvn_verification_throttled")
      expect(alerts.map((a) => [a.severity, a.occurrences])).toEqual([["warning", 2]])
      yield* TestClock.adjust("24 hours")
      yield* Banking.verifyBvn(accountId, bvnInput())
      expect((yield* Store.account(accountId)).customer.kycStatus).toBe("bvn_verified")
    })))

  it.effect("an unknown account is AccountNotFound", () =>
    inMemory(Effect.gen(function*() {
      yield* registerAda()
      const error = yield* Effect.flip(Banking.verifyBvn(AccountId.make("00000000-0000-4000-8000-00000000ffff"), bvnInput()))
      expect(error._tag).toBe("AccountNotFound")
    })))
})
