import {describe, expect, it} from "@effect/vitest"
import {Effect, FastCheck as fc} from "effect"
import * as Auth from "../src/auth/index.js"
import * as Banking from "../src/banking/index.js"
import { TestFunding } from "../src/banking/CoreBanking.js"
import * as Notifications from "../src/notifications/Preferences.js"
import * as Referrals from "../src/referrals/index.js"
import {bankedAda, BOLA, bvnInput, inMemory, pw, registerAda} from "./support/Fixtures.js"
import {Sent, Store} from "./support/InMemory.js"
import { AccountId } from "../src/shared/Ids.js"

const deposit = (accountId: AccountId, accountNumber: string) =>
  Effect.gen(function*() {
    yield* (yield* TestFunding).deposit({ accountNumber, amountKobo: 50_000n })
    yield* Banking.syncDeposits(accountId)
  })

/** Bola registers with Ada's code (in any case, with stray spaces). */
const bolaReferredBy = (code: string) =>
  Auth.register({ email: BOLA.email, phone: BOLA.phone, password: pw(BOLA.password), firstName: "Bola", lastName: "tinubu", referralCode: code })

describe("referral codes at registration", () => {
  it.effect("a known code links the new customer to its owner, case and spaces aside", () =>
    inMemory(Effect.gen(function*() {
      const ada = yield* registerAda()
      const bola = yield* bolaReferredBy(`  ${ada.customer.referralCode.toLowerCase()} `)
      expect(bola.customer.referredBy).toBe(ada.customer.id)
      expect((yield* Store.account(bola.account.id)).customer.referredBy).toBe(ada.customer.id)
    })))

  it.effect("an unknown or malformed code is UnknownReferralCode and creates nothing", () =>
    inMemory(Effect.gen(function*() {
      yield* registerAda()
      for (const code of ["ZZZZZZZZ", "ABC", "IIIIIIII", "not a code at all"]) {
        expect((yield* Effect.flip(bolaReferredBy(code)))._tag).toBe("UnknownReferralCode")
      }
      expect((yield* Store.state).accounts.size).toBe(1)
    })))

  it.effect("no code, or an empty one, is no referral", () =>
    inMemory(Effect.gen(function*() {
      expect((yield* registerAda({ referralCode: "  " })).customer.referredBy).toBeNull()
      expect((yield* bolaReferredBy("")).customer.referredBy).toBeNull()
    })))

  it("normalizeReferralCode upper-cases and trims, and codes use the unambiguous alphabet only", () => {
    fc.assert(fc.property(fc.stringMatching(/^[A-HJKMNP-Z2-9]{8}$/), (code) => {
      expect(Referrals.normalizeReferralCode(` ${code.toLowerCase()}\t`)).toBe(code)
      expect([...code].every((c) => Referrals.REFERRAL_ALPHABET.includes(c))).toBe(true)
    }))
    for (const ambiguous of ["0", "O", "1", "I", "L"]) expect(Referrals.REFERRAL_ALPHABET.includes(ambiguous)).toBe(false)
  })
})

describe("referral summary", () => {
  it.effect("counts the referred, and the successful ones once their first deposit is confirmed", () =>
    inMemory(Effect.gen(function*() {
      const ada = yield* bankedAda
      const { customer } = yield* Store.account(ada.accountId)
      const empty = yield* Referrals.referralSummary(ada.accountId)
      expect(empty).toEqual({ referralCode: customer.referralCode, totalReferred: 0, successfulReferrals: 0, referrals: [] })

      const bolaAccount = yield* bolaReferredBy(customer.referralCode)
      const referred = yield* Referrals.referralSummary(ada.accountId)
      expect(referred).toMatchObject({ totalReferred: 1, successfulReferrals: 0 })
      expect(referred.referrals).toEqual([{ name: "Bola T.", joinedAt: bolaAccount.customer.createdAt, successful: false, firstDepositAt: null }])
      // the referred customer sees nothing of it in their own summary
      expect(yield* Referrals.referralSummary(bolaAccount.account.id)).toMatchObject({ totalReferred: 0 })
    })))

  it.effect("the first confirmed deposit makes the referral successful and emails the referrer once", () =>
    inMemory(Effect.gen(function*() {
      const ada = yield* registerAda()
      // Bola (referred by Ada) gets a bank account and deposits twice
      yield* Store.patchCustomer(ada.account.id, { referralCode: "ADA23456" })
      const bola = yield* bankedBolaReferredBy("ADA23456")
      yield* deposit(bola.accountId, bola.accountNumber)
      yield* deposit(bola.accountId, bola.accountNumber)
      const summary = yield* Referrals.referralSummary(ada.account.id)
      expect(summary).toMatchObject({ totalReferred: 1, successfulReferrals: 1 })
      expect(summary.referrals[0]!.firstDepositAt).not.toBeNull()
      const news = (yield* Sent.all).filter((m) => m.kind === "referral_success")
      expect(news).toHaveLength(1)
      expect(news[0]).toMatchObject({ channel: "email", to: ada.account.email })
    })))

  it.effect("a referrer who turned email off is not told; the referral still counts", () =>
    inMemory(Effect.gen(function*() {
      const ada = yield* registerAda()
      yield* Store.patchCustomer(ada.account.id, { referralCode: "ADA23456" })
      yield* Notifications.updateNotificationSettings(ada.account.id, { emailEnabled: false })
      const bola = yield* bankedBolaReferredBy("ADA23456")
      yield* deposit(bola.accountId, bola.accountNumber)
      expect((yield* Sent.all).filter((m) => m.kind === "referral_success")).toHaveLength(0)
      expect(yield* Referrals.referralSummary(ada.account.id)).toMatchObject({ successfulReferrals: 1 })
    })))

  it("shortName shows a first name and an initial, nothing once deleted", () => {
    expect(Referrals.shortName({ firstName: "Bola", lastName: "tinubu", customerStatus: "active" })).toBe("Bola T.")
    expect(Referrals.shortName({ firstName: "Bola", lastName: null, customerStatus: "verified" })).toBe("Bola")
    expect(Referrals.shortName({ firstName: null, lastName: null, customerStatus: "verified" })).toBeNull()
    expect(Referrals.shortName({ firstName: "Bola", lastName: "Tinubu", customerStatus: "deleted" })).toBeNull()
  })
})

/** Bola, registered with `code`, verified and given a bank account (as `bankedBola`). */
const bankedBolaReferredBy = (code: string) =>
  Effect.gen(function*() {
    const { account } = yield* bolaReferredBy(code)
    yield* Auth.sendEmailOtp(account.id)
    yield* Auth.verifyEmailOtp(account.id, yield* Sent.lastCode("email_verification"))
    yield* Banking.verifyBvn(account.id, bvnInput({ bvn: "22345678902", phone: BOLA.phone }))
    const { accountNumber } = yield* Banking.openBankAccount(account.id)
    return { accountId: account.id, accountNumber }
  })
