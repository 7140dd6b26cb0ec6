import {describe, expect, it} from "@effect/vitest"
import {Cause, Effect, Exit} from "effect"
import * as Auth from "../src/auth/index.js"
import * as Referrals from "../src/referrals/ReferralCode.js"
import { AccountRepo } from "../src/account/Ports.js"
import {ADA, BOLA, inMemory, pw, registerAda, registerBola} from "./support/Fixtures.js"
import {HasherProbe, RandomControl, Store} from "./support/InMemory.js"

const referralCode = new RegExp(`^[${Referrals.REFERRAL_ALPHABET}]{${Referrals.REFERRAL_CODE_LENGTH}}$`)

describe("Auth.register", () => {
  it.effect("creates an unverified customer with pending KYC and a referral code", () =>
    inMemory(Effect.gen(function*() {
      const { account, customer } = yield* registerAda({ gender: "female", dateOfBirth: "1990-01-31" })
      const stored = yield* Store.account(account.id)
      expect(stored.account).toEqual(account)
      expect(stored.customer).toEqual(customer)
      expect(account).toMatchObject({
        email: ADA.email,
        phone: ADA.phone,
        firstName: "Ada",
        lastName: "Obi",
        otherNames: null,
        gender: "female",
        dateOfBirth: "1990-01-31",
        address: null,
        emailVerified: false,
        phoneVerified: false
      })
      expect(customer).toMatchObject({
        accountId: account.id,
        customerStatus: "unverified",
        kycStatus: "pending",
        referredBy: null,
        pinHash: null
      })
      expect(customer.id).not.toBe(account.id)
      expect(customer.referralCode).toMatch(referralCode)
      expect(Referrals.REFERRAL_CODE_LENGTH).toBe(8)
    })))

  it.effect("stores a hash of the password, never the password", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      expect(account.passwordHash).toBe(`hash:${ADA.password}`)
      expect(account.passwordHash).not.toBe(ADA.password)
      expect(yield* Effect.flatMap(HasherProbe, (p) => p.hashCalls.get)).toBe(1)
    })))

  it.effect("the referral code is drawn from REFERRAL_ALPHABET with the configured length", () =>
    inMemory(Effect.gen(function*() {
      yield* RandomControl.pushAlphabet("ZZ99ZZ99")
      const { customer } = yield* registerAda()
      expect(customer.referralCode).toBe("ZZ99ZZ99")
      // no ambiguous characters can ever appear
      expect(Referrals.REFERRAL_ALPHABET).not.toMatch(/[01OIL]/)
    })))

  it.effect("phone is optional", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* Auth.register({ email: BOLA.email, password: pw(BOLA.password) })
      expect(account.phone).toBeNull()
      // a second phoneless account does not clash on phone
      yield* Auth.register({ email: "third@example.com", password: pw("x") })
      expect((yield* Store.state).accounts.size).toBe(2)
    })))

  it.effect("EmailTaken when the email is registered", () =>
    inMemory(Effect.gen(function*() {
      yield* registerAda()
      const error = yield* Effect.flip(registerAda({ phone: BOLA.phone }))
      expect(error._tag).toBe("EmailTaken")
      expect((yield* Store.state).accounts.size).toBe(1)
    })))

  it.effect("PhoneTaken when the phone is registered", () =>
    inMemory(Effect.gen(function*() {
      yield* registerAda()
      const error = yield* Effect.flip(registerAda({ email: BOLA.email }))
      expect(error._tag).toBe("PhoneTaken")
      expect((yield* Store.state).accounts.size).toBe(1)
    })))

  it.effect("checkEmailAvailable", () =>
    inMemory(Effect.gen(function*() {
      yield* Auth.checkEmailAvailable(ADA.email)
      yield* registerAda()
      expect((yield* Effect.flip(Auth.checkEmailAvailable(ADA.email)))._tag).toBe("EmailTaken")
    })))

  it.effect("a raced duplicate email or phone (past the pre-check) is still EmailTaken / PhoneTaken", () =>
    inMemory(Effect.gen(function*() {
      yield* registerAda()
      const repo = yield* AccountRepo
      const blind = { ...repo, emailExists: () => Effect.succeed(false), phoneExists: () => Effect.succeed(false) }
      const email = yield* Effect.flip(registerAda({ phone: BOLA.phone }).pipe(Effect.provideService(AccountRepo, blind)))
      expect(email._tag).toBe("EmailTaken")
      const phone = yield* Effect.flip(registerAda({ email: BOLA.email }).pipe(Effect.provideService(AccountRepo, blind)))
      expect(phone._tag).toBe("PhoneTaken")
      expect((yield* Store.state).accounts.size).toBe(1)
    })))

  it.effect("a referral-code collision is retried with a fresh code", () =>
    inMemory(Effect.gen(function*() {
      yield* RandomControl.pushAlphabet("ABCDEFGH", "ABCDEFGH")
      const ada = yield* registerAda()
      const bola = yield* registerBola
      expect(ada.customer.referralCode).toBe("ABCDEFGH")
      expect(bola.customer.referralCode).toMatch(referralCode)
      expect(bola.customer.referralCode).not.toBe("ABCDEFGH")
      expect((yield* Store.account(bola.account.id)).customer.referralCode).toBe(bola.customer.referralCode)
      // the forced queue was fully drawn: the collision really happened
      expect(yield* Effect.flatMap(RandomControl, (c) => c.alphabet.get)).toEqual([])
    })))

  it.effect("three collisions in a row are still retried", () =>
    inMemory(Effect.gen(function*() {
      yield* RandomControl.pushAlphabet("ABCDEFGH", "ABCDEFGH", "ABCDEFGH", "ABCDEFGH", "HGFEDCBA")
      yield* registerAda()
      expect((yield* registerBola).customer.referralCode).toBe("HGFEDCBA")
    })))

  it.effect("gives up (defect) when every retry collides, and stores nothing", () =>
    inMemory(Effect.gen(function*() {
      yield* RandomControl.pushAlphabet(...Array.from({ length: 6 }, () => "ABCDEFGH"))
      yield* registerAda()
      const exit = yield* Effect.exit(registerBola)
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
      if (Exit.isFailure(exit)) expect(Cause.pretty(exit.cause)).toContain("could not allocate a unique referral code")
      expect((yield* Store.state).accounts.size).toBe(1)
      // 1 + 3 retries = 4 draws for Bola
      expect(yield* Effect.flatMap(RandomControl, (c) => c.alphabet.get)).toHaveLength(1)
    })))
})
