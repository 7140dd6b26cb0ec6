import {describe, expect, it} from "@effect/vitest"
import {Duration, Effect, TestClock} from "effect"
import * as Auth from "../src/auth/index.js"
import * as Beneficiaries from "../src/beneficiaries/Beneficiaries.js"
import { ProviderRefused } from "../src/banking/CoreBanking.js"
import { BeneficiaryRepo } from "../src/beneficiaries/Ports.js"
import {inMemory, registerBola, verifiedAda, wrongCode} from "./support/Fixtures.js"
import {FakeBank, Sent, Store} from "./support/InMemory.js"
import { AccountId, BeneficiaryId } from "../src/shared/Ids.js"

const GTB = "000013"
const ZENITH = "000015"

/** An OTP for a gated action: {pinId, code}. */
const actionOtp = (accountId: AccountId) =>
  Effect.gen(function*() {
    const { pinId } = yield* Auth.requestActionOtp(accountId)
    return { pinId, code: yield* Sent.lastCode("action_confirmation") }
  })

/** Saves three beneficiaries a minute apart: A (default), B, C. */
const threeSaved = Effect.gen(function*() {
  const { accountId } = yield* verifiedAda
  const a = yield* Beneficiaries.add(accountId, { accountNumber: "0123450001", bankCode: GTB, bankName: "GTBank" })
  yield* TestClock.adjust(Duration.minutes(1))
  const b = yield* Beneficiaries.add(accountId, { accountNumber: "0123450009", bankCode: GTB, bankName: "GTBank" })
  yield* TestClock.adjust(Duration.minutes(1))
  const c = yield* Beneficiaries.add(accountId, { accountNumber: "0123450001", bankCode: ZENITH, bankName: "Zenith" })
  return { accountId, a, b, c }
})

const ids = (list: ReadonlyArray<{ readonly id: string }>) => list.map((x) => x.id)
const defaults = Effect.map(Store.beneficiaries, (bs) => bs.filter((b) => b.isDefault).map((b) => b.id))

describe("Beneficiaries.lookup", () => {
  it.effect("name enquiry: the account holder's name and the NIP session", () =>
    inMemory(Effect.gen(function*() {
      const found = yield* Beneficiaries.lookup("0123456789", GTB)
      expect(found).toMatchObject({ accountName: "SANDBOX ACCOUNT 6789", accountNumber: "0123456789", bankCode: GTB })
      expect(found.nipSessionId.length).toBeGreaterThan(0)
    })))

  it.effect("an account number is exactly 10 digits: InvalidAccountNumber, before any provider call", () =>
    inMemory(Effect.gen(function*() {
      for (const bad of ["012345678", "01234567890", "01234567a9", " 0123456789"]) {
        expect((yield* Effect.flip(Beneficiaries.lookup(bad, GTB)))._tag).toBe("InvalidAccountNumber")
      }
      expect(yield* FakeBank.calls("nameEnquiry")).toBe(0)
    })))

  it.effect("a bank code not in the bank list is InvalidBankCode", () =>
    inMemory(Effect.gen(function*() {
      expect(yield* Effect.flip(Beneficiaries.lookup("0123456789", "999999"))).toMatchObject({
        _tag: "InvalidBankCode",
        bankCode: "999999"
      })
      expect(yield* FakeBank.calls("nameEnquiry")).toBe(0)
    })))

  it.effect("an account the bank does not know (\"07\") is BeneficiaryAccountNotFound; other refusals propagate", () =>
    inMemory(Effect.gen(function*() {
      expect((yield* Effect.flip(Beneficiaries.lookup("9990000001", GTB)))._tag).toBe("BeneficiaryAccountNotFound")
      yield* FakeBank.failNext("nameEnquiry", new ProviderRefused({ operation: "nameEnquiry", code: "91", reason: "down" }))
      expect(yield* Effect.flip(Beneficiaries.lookup("0123456789", GTB))).toMatchObject({ _tag: "ProviderRefused", code: "91" })
    })))
})

describe("Beneficiaries.add / list", () => {
  it.effect("saves the verified name and the listed bank name; the first saved is the default", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, a, b, c } = yield* threeSaved
      const { customer } = yield* Store.account(accountId)
      expect(a).toMatchObject({
        customerId: customer.id,
        accountNumber: "0123450001",
        bankCode: GTB,
        bankName: "Guaranty Trust Bank",
        accountName: "SANDBOX ACCOUNT 0001",
        isDefault: true
      })
      expect([b.isDefault, c.isDefault]).toEqual([false, false])
      expect(ids(yield* Beneficiaries.list(accountId))).toEqual([a.id, b.id, c.id])
    })))

  it.effect("the same account at the same bank twice is BeneficiaryAlreadySaved, without a second name enquiry", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* threeSaved
      const enquiries = yield* FakeBank.calls("nameEnquiry")
      const error = yield* Effect.flip(
        Beneficiaries.add(accountId, { accountNumber: "0123450009", bankCode: GTB, bankName: "GTBank" })
      )
      expect(error._tag).toBe("BeneficiaryAlreadySaved")
      expect(yield* FakeBank.calls("nameEnquiry")).toBe(enquiries)
      expect(yield* Store.beneficiaries).toHaveLength(3)
    })))

  it.effect("concurrent saves of one account: one row, the others BeneficiaryAlreadySaved; exactly one default", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      const results = yield* Effect.all(
        Array.from({ length: 5 }, () =>
          Effect.either(Beneficiaries.add(accountId, { accountNumber: "0123450001", bankCode: GTB, bankName: "x" }))),
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => r._tag === "Right")).toHaveLength(1)
      for (const r of results) if (r._tag === "Left") expect(r.left._tag).toBe("BeneficiaryAlreadySaved")
      expect(yield* defaults).toHaveLength(1)
    })))

  it.effect("validation and unknown accounts are checked before saving", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      const add = (accountNumber: string, bankCode: string) =>
        Effect.flip(Beneficiaries.add(accountId, { accountNumber, bankCode, bankName: "x" }))
      expect((yield* add("123", GTB))._tag).toBe("InvalidAccountNumber")
      expect((yield* add("0123456789", "000000"))._tag).toBe("InvalidBankCode")
      expect((yield* add("9990000001", GTB))._tag).toBe("BeneficiaryAccountNotFound")
      expect(yield* Store.beneficiaries).toHaveLength(0)
    })))

  it.effect("each customer sees only their own", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* threeSaved
      const { account } = yield* registerBola
      expect(yield* Beneficiaries.list(account.id)).toEqual([])
      const own = yield* Beneficiaries.add(account.id, { accountNumber: "0123450001", bankCode: GTB, bankName: "x" })
      expect(own.isDefault).toBe(true) // Bola's first, although Ada has a default
      expect(yield* Beneficiaries.list(accountId)).toHaveLength(3)
    })))
})

describe("Beneficiaries.setDefault", () => {
  it.effect("moves the default: it is listed first, then the rest oldest first; one default only", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, a, b, c } = yield* threeSaved
      const updated = yield* Beneficiaries.setDefault(accountId, c.id)
      expect(updated).toMatchObject({ id: c.id, isDefault: true })
      expect(ids(yield* Beneficiaries.list(accountId))).toEqual([c.id, a.id, b.id])
      expect(yield* defaults).toEqual([c.id])
      yield* Beneficiaries.setDefault(accountId, c.id) // idempotent
      expect(yield* defaults).toEqual([c.id])
    })))

  it.effect("another customer's or an unknown id is BeneficiaryNotFound", () =>
    inMemory(Effect.gen(function*() {
      const { a } = yield* threeSaved
      const { account } = yield* registerBola
      expect((yield* Effect.flip(Beneficiaries.setDefault(account.id, a.id)))._tag).toBe("BeneficiaryNotFound")
      expect((yield* Effect.flip(Beneficiaries.setDefault(account.id, BeneficiaryId.make("00000000-0000-4000-8000-00000000ffff"))))._tag).toBe(
        "BeneficiaryNotFound"
      )
      expect(yield* defaults).toEqual([a.id])
    })))
})

describe("Beneficiaries.remove", () => {
  it.effect("removing the default promotes the oldest remaining; the code is used up", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, a, b, c } = yield* threeSaved
      const otp = yield* actionOtp(accountId)
      const result = yield* Beneficiaries.remove(accountId, a.id, otp.pinId, otp.code)
      expect(result.removed.id).toBe(a.id)
      expect(result.promoted).toMatchObject({ id: b.id, isDefault: true })
      expect(ids(yield* Beneficiaries.list(accountId))).toEqual([b.id, c.id])
      expect((yield* Store.otp(otp.pinId)).consumedAt).not.toBeNull()
      // the same code cannot remove another one
      expect((yield* Effect.flip(Beneficiaries.remove(accountId, c.id, otp.pinId, otp.code)))._tag).toBe("OtpGateRejected")
    })))

  it.effect("removing another one keeps the default; removing the last leaves none", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, a, b, c } = yield* threeSaved
      let otp = yield* actionOtp(accountId)
      expect((yield* Beneficiaries.remove(accountId, b.id, otp.pinId, otp.code)).promoted).toBeNull()
      expect(yield* defaults).toEqual([a.id])
      yield* TestClock.adjust(Duration.minutes(1)) // resend cooldown
      otp = yield* actionOtp(accountId)
      expect((yield* Beneficiaries.remove(accountId, a.id, otp.pinId, otp.code)).promoted?.id).toBe(c.id)
      yield* TestClock.adjust(Duration.minutes(1))
      otp = yield* actionOtp(accountId)
      expect((yield* Beneficiaries.remove(accountId, c.id, otp.pinId, otp.code)).promoted).toBeNull()
      expect(yield* Beneficiaries.list(accountId)).toEqual([])
    })))

  it.effect("a wrong or foreign code is OtpGateRejected and removes nothing", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, a } = yield* threeSaved
      const otp = yield* actionOtp(accountId)
      expect((yield* Effect.flip(Beneficiaries.remove(accountId, a.id, otp.pinId, wrongCode(otp.code))))._tag).toBe(
        "OtpGateRejected"
      )
      const { account } = yield* registerBola
      yield* Beneficiaries.add(account.id, { accountNumber: "0123450001", bankCode: GTB, bankName: "x" })
      const bolaOtp = yield* actionOtp(account.id)
      expect((yield* Effect.flip(Beneficiaries.remove(accountId, a.id, bolaOtp.pinId, bolaOtp.code)))._tag).toBe(
        "OtpGateRejected"
      )
      expect(yield* Store.beneficiaries).toHaveLength(4)
    })))

  it.effect("another customer's or an unknown beneficiary is BeneficiaryNotFound; the code is spent all the same", () =>
    inMemory(Effect.gen(function*() {
      const { a } = yield* threeSaved
      const { account } = yield* registerBola
      const otp = yield* actionOtp(account.id)
      expect((yield* Effect.flip(Beneficiaries.remove(account.id, a.id, otp.pinId, otp.code)))._tag).toBe("BeneficiaryNotFound")
      expect((yield* Store.otp(otp.pinId)).consumedAt).not.toBeNull()
      expect(yield* Store.beneficiaries).toHaveLength(3)
      // so the next try needs a fresh code, which comes at once
      expect((yield* Effect.flip(Beneficiaries.remove(account.id, a.id, otp.pinId, otp.code)))._tag).toBe("OtpGateRejected")
      yield* actionOtp(account.id)
    })))

  it.effect("atomic: when the promotion fails, the row stays (the code is spent: it was presented)", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, a } = yield* threeSaved
      const otp = yield* actionOtp(accountId)
      const repo = yield* BeneficiaryRepo
      const broken = { ...repo, promoteOldest: () => Effect.dieMessage("database went away") }
      const exit = yield* Effect.exit(
        Beneficiaries.remove(accountId, a.id, otp.pinId, otp.code).pipe(Effect.provideService(BeneficiaryRepo, broken))
      )
      expect(exit._tag).toBe("Failure")
      expect(yield* Store.beneficiaries).toHaveLength(3)
      expect(yield* defaults).toEqual([a.id])
      expect((yield* Store.otp(otp.pinId)).consumedAt).not.toBeNull()
    })))
})
