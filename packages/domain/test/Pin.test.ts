import {describe, expect, it} from "@effect/vitest"
import {Duration, Effect, Either, Option, Redacted, Ref, TestClock} from "effect"
import * as Auth from "../src/auth/index.js"
import { PinRepo } from "../src/auth/Ports.js"
import { PinPolicy } from "../src/auth/PinLockout.js"
import { ProviderRefused } from "../src/banking/CoreBanking.js"
import { PasswordHasher } from "../src/shared/Ports.js"
import { atomically } from "../src/shared/UseCase.js"
import {ADA, bankedAda, inMemory, pw, verifiedAda} from "./support/Fixtures.js"
import {AlertStore, FakeBank, HasherProbe, Sent, Store} from "./support/InMemory.js"
import { AccountId, CustomerId } from "../src/shared/Ids.js"

const PIN = "4821"
const NEW_PIN = "1357"
const WRONG = "0000"
const pin = (s: string) => Redacted.make(s)

/** "ok" or the failure's tag. */
const outcome = <A, E extends { readonly _tag: string }, R>(self: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.either(self), Either.match({ onLeft: (e) => e._tag, onRight: () => "ok" }))

const verify = (accountId: AccountId, p: string) => outcome(Auth.verifyPin(accountId, pin(p)))

/** A customer with PIN `PIN` set (verified Ada by default, no core account). */
const withPin = <A extends { readonly accountId: AccountId }, E, R>(setup: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const who = yield* setup
    yield* Auth.setPin(who.accountId, pin(PIN))
    const customerId = (yield* Store.account(who.accountId)).customer.id
    return { ...who, customerId }
  })

/** Five wrong PINs in a row; the answers. */
const fiveWrong = (accountId: AccountId) => Effect.all(Array.from({ length: 5 }, () => verify(accountId, WRONG)))

const pinHashOf = (accountId: AccountId) => Effect.map(Store.account(accountId), (a) => a.customer.pinHash)
const statusOf = (accountId: AccountId) => Effect.map(Store.account(accountId), (a) => a.customer.customerStatus)

const actionCode = (accountId: AccountId) =>
  Effect.gen(function*() {
    const { pinId } = yield* Auth.requestActionOtp(accountId)
    return { pinId, code: yield* Sent.lastCode("action_confirmation") }
  })

/** A PasswordHasher that yields before hashing / comparing, so concurrent requests interleave there. */
const yieldingHasher = Effect.map(PasswordHasher, (h) =>
  PasswordHasher.of({
    hash: (p) => Effect.zipRight(Effect.yieldNow(), h.hash(p)),
    verify: (p, hash) => Effect.zipRight(Effect.yieldNow(), h.verify(p, hash)),
    dummyVerify: h.dummyVerify
  }))

describe("setPin", () => {
  it.effect("the first PIN is stored only as its argon2 hash; hasPin turns true", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      expect(Auth.hasPin((yield* Store.account(accountId)).customer)).toBe(false)
      yield* Auth.setPin(accountId, pin(PIN))
      const { customer } = yield* Store.account(accountId)
      expect(Auth.hasPin(customer)).toBe(true)
      expect(customer.pinHash).toBe(`hash:${PIN}`) // the fake hasher's form of PasswordHasher.hash
      expect(Object.values(customer).filter((v) => v === PIN)).toEqual([])
      expect(yield* verify(accountId, PIN)).toBe("ok")
    })))

  it.effect("anything but exactly 4 ASCII digits is InvalidPinFormat and stores nothing", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      for (const bad of ["", "123", "12345", "12a4", "12 4", " 1234", "١٢٣٤", "１２３４"]) {
        expect(yield* Effect.flip(Auth.setPin(accountId, pin(bad)))).toMatchObject({ _tag: "InvalidPinFormat", field: "pin" })
      }
      expect(yield* pinHashOf(accountId)).toBeNull()
      expect(yield* outcome(Auth.setPin(accountId, pin("0000")))).toBe("ok")
    })))

  it.effect("changing needs the current PIN: CurrentPinRequired without it, nothing changes", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId } = yield* withPin(verifiedAda)
      expect(yield* outcome(Auth.setPin(accountId, pin(NEW_PIN)))).toBe("CurrentPinRequired")
      expect(yield* pinHashOf(accountId)).toBe(`hash:${PIN}`)
      expect((yield* Store.pinGuard(customerId)).wrongTries).toBe(0)
    })))

  it.effect("a malformed current PIN is InvalidPinFormat (currentPin) and is not counted", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId } = yield* withPin(verifiedAda)
      const error = yield* Effect.flip(Auth.setPin(accountId, pin(NEW_PIN), pin("12")))
      expect(error).toMatchObject({ _tag: "InvalidPinFormat", field: "currentPin" })
      expect((yield* Store.pinGuard(customerId)).wrongTries).toBe(0)
    })))

  it.effect("a wrong current PIN is PinIncorrect and counts as a wrong try; the right one changes the PIN and clears the count", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId } = yield* withPin(verifiedAda)
      expect(yield* outcome(Auth.setPin(accountId, pin(NEW_PIN), pin(WRONG)))).toBe("PinIncorrect")
      expect(yield* pinHashOf(accountId)).toBe(`hash:${PIN}`)
      expect((yield* Store.pinGuard(customerId)).wrongTries).toBe(1)
      yield* Auth.setPin(accountId, pin(NEW_PIN), pin(PIN))
      expect(yield* pinHashOf(accountId)).toBe(`hash:${NEW_PIN}`)
      expect((yield* Store.pinGuard(customerId)).wrongTries).toBe(0)
      expect(yield* verify(accountId, PIN)).toBe("PinIncorrect")
      expect(yield* verify(accountId, NEW_PIN)).toBe("ok")
    })))

  it.effect("wrong current PINs lock like wrong verifies: then even the right current PIN is PinLocked", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* withPin(verifiedAda)
      const answers = []
      for (let i = 0; i < 5; i++) answers.push(yield* outcome(Auth.setPin(accountId, pin(NEW_PIN), pin(WRONG))))
      expect(answers).toEqual(["PinIncorrect", "PinIncorrect", "PinIncorrect", "PinIncorrect", "PinLocked"])
      expect(yield* outcome(Auth.setPin(accountId, pin(NEW_PIN), pin(PIN)))).toBe("PinLocked")
      expect(yield* pinHashOf(accountId)).toBe(`hash:${PIN}`)
    })))

  it.effect("two concurrent first PINs: exactly one is set, the other is CurrentPinRequired", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      const hasher = yield* yieldingHasher
      const answers = yield* Effect.all([outcome(Auth.setPin(accountId, pin(PIN))), outcome(Auth.setPin(accountId, pin(NEW_PIN)))], {
        concurrency: "unbounded"
      }).pipe(Effect.provideService(PasswordHasher, hasher))
      expect([...answers].sort()).toEqual(["CurrentPinRequired", "ok"])
      expect(yield* pinHashOf(accountId)).toBe(answers[0] === "ok" ? `hash:${PIN}` : `hash:${NEW_PIN}`)
    })))
})

describe("verifyPin", () => {
  it.effect("the right PIN is ok; a wrong one PinIncorrect; none set is PinNotSet and counts nothing", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      expect(yield* verify(accountId, PIN)).toBe("PinNotSet")
      const customerId = (yield* Store.account(accountId)).customer.id
      expect((yield* Store.pinGuard(customerId)).wrongTries).toBe(0)
      yield* Auth.setPin(accountId, pin(PIN))
      expect(yield* verify(accountId, PIN)).toBe("ok")
      expect(yield* verify(accountId, WRONG)).toBe("PinIncorrect")
      expect(yield* Effect.flip(Auth.verifyPin(accountId, pin("12345")))).toMatchObject({ _tag: "InvalidPinFormat", field: "pin" })
      expect((yield* Store.pinGuard(customerId)).wrongTries).toBe(1)
    })))

  it.effect("a suspended customer is AccountSuspended and no PIN is compared", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* withPin(verifiedAda)
      yield* Store.setCustomerStatus(accountId, "suspended")
      const before = yield* HasherProbe.verifyCalls
      expect(yield* verify(accountId, PIN)).toBe("AccountSuspended")
      expect(yield* HasherProbe.verifyCalls).toBe(before)
    })))

  it.effect("4 wrong then the right PIN: ok, and the count starts again from 0", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId } = yield* withPin(verifiedAda)
      for (let i = 0; i < 4; i++) expect(yield* verify(accountId, WRONG)).toBe("PinIncorrect")
      // the 5th try is claimed as the locking one, and undone because it was right
      expect(yield* verify(accountId, PIN)).toBe("ok")
      expect(yield* Store.pinGuard(customerId)).toEqual({ wrongTries: 0, lockedUntil: null, lockouts: [] })
      for (let i = 0; i < 4; i++) expect(yield* verify(accountId, WRONG)).toBe("PinIncorrect")
      expect(yield* verify(accountId, PIN)).toBe("ok")
    })))

  it.effect("the 5th wrong PIN locks for 15 minutes: even the right PIN is PinLocked, retryAfterSeconds counts down", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId } = yield* withPin(verifiedAda)
      expect(yield* fiveWrong(accountId)).toEqual(["PinIncorrect", "PinIncorrect", "PinIncorrect", "PinIncorrect", "PinLocked"])
      const compared = yield* HasherProbe.verifyCalls
      expect(yield* Effect.flip(Auth.verifyPin(accountId, pin(PIN)))).toMatchObject({ _tag: "PinLocked", retryAfterSeconds: 900 })
      yield* TestClock.adjust(Duration.minutes(10))
      expect(yield* Effect.flip(Auth.verifyPin(accountId, pin(PIN)))).toMatchObject({ _tag: "PinLocked", retryAfterSeconds: 300 })
      yield* TestClock.adjust(Duration.seconds(299))
      expect(yield* Effect.flip(Auth.verifyPin(accountId, pin(WRONG)))).toMatchObject({ _tag: "PinLocked", retryAfterSeconds: 1 })
      // nothing was compared while locked, and the lock did not grow
      expect(yield* HasherProbe.verifyCalls).toBe(compared)
      expect(yield* Store.pinGuard(customerId)).toMatchObject({ wrongTries: 5, lockedUntil: new Date(15 * 60_000) })
    })))

  it.effect("the lock ends after 15 minutes; the count starts again from 0", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* withPin(verifiedAda)
      yield* fiveWrong(accountId)
      yield* TestClock.adjust(Duration.minutes(15))
      expect(yield* verify(accountId, PIN)).toBe("ok")
      expect(yield* fiveWrong(accountId)).toEqual(["PinIncorrect", "PinIncorrect", "PinIncorrect", "PinIncorrect", "PinLocked"])
      yield* TestClock.adjust(Duration.minutes(15))
      // a lock that ended without a right PIN also leaves a fresh count of 5
      for (let i = 0; i < 4; i++) expect(yield* verify(accountId, WRONG)).toBe("PinIncorrect")
    })))

  it.effect("20 concurrent wrong PINs: exactly 5 are counted and compared, the rest are PinLocked", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId } = yield* withPin(verifiedAda)
      const hasher = yield* yieldingHasher
      const counted = yield* Ref.make<ReadonlyArray<number>>([])
      const store = yield* Store
      // records, at each compare, how many tries were already counted
      const probing = PasswordHasher.of({
        ...hasher,
        verify: (p, h) =>
          Effect.zipRight(
            Effect.zipRight(
              Effect.yieldNow(),
              Effect.flatMap(Ref.get(store.ref), (st) => Ref.update(counted, (cs) => [...cs, st.pinGuards.get(customerId)?.wrongTries ?? 0]))
            ),
            hasher.verify(p, h)
          )
      })
      const before = yield* HasherProbe.verifyCalls
      const answers = yield* Effect.all(Array.from({ length: 20 }, () => verify(accountId, WRONG)), { concurrency: "unbounded" }).pipe(
        Effect.provideService(PasswordHasher, probing)
      )
      expect(answers.filter((a) => a === "PinIncorrect")).toHaveLength(4)
      expect(answers.filter((a) => a === "PinLocked")).toHaveLength(16)
      expect((yield* HasherProbe.verifyCalls) - before).toBe(5)
      const guard = yield* Store.pinGuard(customerId)
      expect(guard.wrongTries).toBe(5)
      expect(guard.lockouts).toHaveLength(1)
      // the requests really interleaved: every claim was made before the first compare
      expect((yield* Ref.get(counted))[0]).toBe(5)
      expect(yield* verify(accountId, PIN)).toBe("PinLocked")
    })))
})

describe("lockouts and the freeze", () => {
  it.effect("3 lockouts within 24 hours freeze: suspended, core account frozen (reference kept), sessions revoked, staff alerted", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId, accountNumber, tokens } = yield* withPin(bankedAda)
      const second = yield* Auth.login({ email: ADA.email, password: pw(ADA.password) })
      expect(yield* statusOf(accountId)).toBe("active")
      expect((yield* fiveWrong(accountId))[4]).toBe("PinLocked")
      yield* TestClock.adjust(Duration.minutes(15))
      expect((yield* fiveWrong(accountId))[4]).toBe("PinLocked")
      yield* TestClock.adjust(Duration.minutes(15))
      expect(yield* AlertStore.all).toEqual([])
      expect((yield* fiveWrong(accountId))[4]).toBe("AccountSuspended")

      expect(yield* statusOf(accountId)).toBe("suspended")
      const bankAccount = yield* FakeBank.account(accountNumber)
      expect(bankAccount.frozen).toBe(true)
      expect(yield* FakeBank.calls("freeze")).toBe(1)
      const freeze = yield* Effect.flatMap(PinRepo, (r) => r.lastProviderFreeze(customerId))
      expect(Option.getOrThrow(freeze)).toEqual({ customerId, freezeReference: bankAccount.freezeReference, frozenAt: new Date(30 * 60_000) })
      const refreshTokens = yield* Store.refreshTokens
      expect(refreshTokens.length).toBeGreaterThanOrEqual(2)
      expect(refreshTokens.every((t) => t.revokedAt !== null)).toBe(true)
      const [alert, ...more] = yield* AlertStore.all
      expect(more).toEqual([])
      expect(alert).toMatchObject({
        kind: "account_frozen_pin_lockout",
        severity: "critical",
        customerId,
        dedupKey: `account_frozen_pin_lockout:${customerId}`
      })
      expect(alert!.message).toContain(bankAccount.freezeReference!)
      expect(alert!.message).not.toContain(accountNumber)

      // frozen: no PIN, no sign-in, no refresh
      expect(yield* verify(accountId, PIN)).toBe("AccountSuspended")
      expect((yield* Effect.flip(Auth.login({ email: ADA.email, password: pw(ADA.password) })))._tag).toBe("AccountSuspended")
      for (const t of [tokens, second]) {
        expect((yield* Effect.flip(Auth.rotateRefreshToken(t.refreshToken)))._tag).toBe("InvalidRefreshToken")
      }
    })))

  it.effect("lockouts spread over more than 24 hours do not freeze (rolling window); the next one inside it does", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* withPin(verifiedAda)
      yield* fiveWrong(accountId) // t = 0
      yield* TestClock.adjust(Duration.hours(12))
      yield* fiveWrong(accountId) // t = 12 h
      yield* TestClock.adjust(Duration.hours(12))
      // t = 24 h: the first lockout is exactly 24 hours old and no longer counts
      expect((yield* fiveWrong(accountId))[4]).toBe("PinLocked")
      expect(yield* statusOf(accountId)).toBe("verified")
      expect(yield* AlertStore.all).toEqual([])
      yield* TestClock.adjust(Duration.minutes(15))
      // t = 24 h 15 min: lockouts at 12 h, 24 h and now
      expect((yield* fiveWrong(accountId))[4]).toBe("AccountSuspended")
      expect(yield* statusOf(accountId)).toBe("suspended")
    })))

  it.effect("without a core account the freeze is ours only; the alert says so", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId } = yield* withPin(verifiedAda)
      yield* fiveWrong(accountId)
      yield* TestClock.adjust(Duration.hours(12))
      yield* fiveWrong(accountId)
      yield* TestClock.adjust(Duration.minutes(11 * 60 + 59))
      expect((yield* fiveWrong(accountId))[4]).toBe("AccountSuspended")
      expect(yield* statusOf(accountId)).toBe("suspended")
      expect(yield* FakeBank.calls("freeze")).toBe(0)
      expect(yield* Store.providerFreezes).toEqual([])
      const [alert] = yield* AlertStore.all
      expect(alert).toMatchObject({ kind: "account_frozen_pin_lockout", customerId })
      expect(alert!.message).toContain("no core account")
    })))

  it.effect("an unknown provider outcome does not stop our freeze; the alert asks staff to check with the bank", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId } = yield* withPin(bankedAda)
      yield* FakeBank.failNext("freeze", FakeBank.unknown("freeze"))
      for (let i = 0; i < 3; i++) {
        yield* fiveWrong(accountId)
        yield* TestClock.adjust(Duration.minutes(15))
      }
      expect(yield* statusOf(accountId)).toBe("suspended")
      expect(yield* FakeBank.calls("freeze")).toBe(1)
      expect((yield* Store.refreshTokens).every((t) => t.revokedAt !== null)).toBe(true)
      expect(yield* Store.providerFreezes).toEqual([])
      const [alert] = yield* AlertStore.all
      expect(alert).toMatchObject({ kind: "account_frozen_pin_lockout", severity: "critical", customerId })
      expect(alert!.message).toContain("UNKNOWN")
    })))

  it.effect("a refused provider freeze is reported too (with the bank's code), our side is frozen", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* withPin(bankedAda)
      yield* FakeBank.failNext("freeze", new ProviderRefused({ operation: "freeze", code: "57", reason: "Not permitted" }))
      for (let i = 0; i < 3; i++) {
        yield* fiveWrong(accountId)
        yield* TestClock.adjust(Duration.minutes(15))
      }
      expect(yield* statusOf(accountId)).toBe("suspended")
      const [alert] = yield* AlertStore.all
      expect(alert!.message).toContain("REFUSED")
      expect(alert!.message).toContain("57")
    })))

  it.effect("a lockout whose 5th PIN was right is undone and does not count towards the freeze", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId } = yield* withPin(verifiedAda)
      yield* fiveWrong(accountId)
      yield* TestClock.adjust(Duration.minutes(15))
      yield* fiveWrong(accountId)
      yield* TestClock.adjust(Duration.minutes(15))
      for (let i = 0; i < 4; i++) yield* verify(accountId, WRONG)
      expect(yield* verify(accountId, PIN)).toBe("ok")
      expect((yield* Store.pinGuard(customerId)).lockouts).toHaveLength(2)
      expect(yield* statusOf(accountId)).toBe("verified")
      // the next real lockout is the third
      expect((yield* fiveWrong(accountId))[4]).toBe("AccountSuspended")
    })))
})

describe("resetPin", () => {
  it.effect("with a sensitive-action OTP: sets the new PIN, clears the count, uses the code up", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId } = yield* withPin(verifiedAda)
      for (let i = 0; i < 3; i++) yield* verify(accountId, WRONG)
      expect((yield* Store.pinGuard(customerId)).wrongTries).toBe(3)
      const { pinId, code } = yield* actionCode(accountId)
      yield* Auth.resetPin(accountId, pin(NEW_PIN), pinId, code)
      expect(yield* pinHashOf(accountId)).toBe(`hash:${NEW_PIN}`)
      expect((yield* Store.pinGuard(customerId)).wrongTries).toBe(0)
      expect((yield* Store.otp(pinId)).consumedAt).not.toBeNull()
      // the old PIN is wrong now, and 4 wrong tries do not lock: the 3 before the reset are gone
      expect(yield* verify(accountId, PIN)).toBe("PinIncorrect")
      for (let i = 0; i < 3; i++) expect(yield* verify(accountId, WRONG)).toBe("PinIncorrect")
      expect(yield* verify(accountId, NEW_PIN)).toBe("ok")
      // single use
      expect(yield* outcome(Auth.resetPin(accountId, pin(PIN), pinId, code))).toBe("OtpGateRejected")
      expect(yield* pinHashOf(accountId)).toBe(`hash:${NEW_PIN}`)
    })))

  it.effect("lifts a running lock but keeps the lockouts: two more lockouts within 24 hours still freeze", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId } = yield* withPin(verifiedAda)
      yield* fiveWrong(accountId)
      const { pinId, code } = yield* actionCode(accountId)
      yield* Auth.resetPin(accountId, pin(NEW_PIN), pinId, code)
      expect(yield* verify(accountId, NEW_PIN)).toBe("ok")
      expect(yield* Store.pinGuard(customerId)).toEqual({ wrongTries: 0, lockedUntil: null, lockouts: [new Date(0)] })
      expect((yield* fiveWrong(accountId))[4]).toBe("PinLocked")
      yield* TestClock.adjust(Duration.minutes(15))
      expect((yield* fiveWrong(accountId))[4]).toBe("AccountSuspended")
    })))

  it.effect("a wrong or foreign OTP is OtpGateRejected and changes nothing but the spent code", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId } = yield* withPin(verifiedAda)
      yield* verify(accountId, WRONG)
      const { pinId, code } = yield* actionCode(accountId)
      const wrong = [...code].map((d) => String((Number(d) + 1) % 10)).join("")
      expect(yield* outcome(Auth.resetPin(accountId, pin(NEW_PIN), pinId, wrong))).toBe("OtpGateRejected")
      expect(yield* outcome(Auth.resetPin(accountId, pin(NEW_PIN), "no-such-pin", code))).toBe("OtpGateRejected")
      expect(yield* pinHashOf(accountId)).toBe(`hash:${PIN}`)
      expect((yield* Store.pinGuard(customerId)).wrongTries).toBe(1)
      // the wrong guess spent it: the right code no longer passes
      expect((yield* Store.otp(pinId)).consumedAt).not.toBeNull()
      expect(yield* outcome(Auth.resetPin(accountId, pin(NEW_PIN), pinId, code))).toBe("OtpGateRejected")
    })))

  it.effect("a malformed new PIN is InvalidPinFormat before the OTP is tried", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* withPin(verifiedAda)
      const { pinId, code } = yield* actionCode(accountId)
      expect(yield* Effect.flip(Auth.resetPin(accountId, pin("12x4"), pinId, code))).toMatchObject({ _tag: "InvalidPinFormat" })
      expect((yield* Store.otp(pinId))).toMatchObject({ attempts: 0, consumedAt: null })
      expect(yield* pinHashOf(accountId)).toBe(`hash:${PIN}`)
    })))

  it.effect("a frozen (suspended) account cannot reset its PIN", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* withPin(verifiedAda)
      const { pinId, code } = yield* actionCode(accountId)
      yield* Store.setCustomerStatus(accountId, "suspended")
      expect(yield* outcome(Auth.resetPin(accountId, pin(NEW_PIN), pinId, code))).toBe("AccountSuspended")
      expect(yield* pinHashOf(accountId)).toBe(`hash:${PIN}`)
    })))
})

describe("the in-memory PinRepo honours the port", () => {
  const CUSTOMER = CustomerId.make("cus-x")

  it.effect("claimTry: 20 concurrent claims on a fresh guard give exactly 5 Claimed, the 5th with the lock", () =>
    inMemory(Effect.gen(function*() {
      const repo = yield* PinRepo
      const claims = yield* Effect.all(
        Array.from({ length: 20 }, () => Effect.zipRight(Effect.yieldNow(), repo.claimTry(CUSTOMER, new Date(1000), PinPolicy))),
        { concurrency: "unbounded" }
      )
      const claimed = claims.filter((c) => c._tag === "Claimed")
      expect(claimed.map((c) => c.tryNumber).sort()).toEqual([1, 2, 3, 4, 5])
      expect(claimed.filter((c) => c.lock !== null)).toEqual([
        { _tag: "Claimed", tryNumber: 5, lock: { startedAt: new Date(1000), until: new Date(1000 + 900_000), lockoutsInWindow: 1 } }
      ])
      expect(claims.filter((c) => c._tag === "Locked")).toHaveLength(15)
      expect(yield* repo.findGuard(CUSTOMER)).toEqual({ wrongTries: 5, lockedUntil: new Date(901_000), lockouts: [new Date(1000)] })
    })))

  it.effect("replacePinHash is a compare-and-set on the current hash", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      const customerId = (yield* Store.account(accountId)).customer.id
      const repo = yield* PinRepo
      expect(yield* repo.replacePinHash(customerId, "hash:9999", "hash:1111", new Date(0))).toBe(false)
      expect(yield* repo.replacePinHash(customerId, null, "hash:1111", new Date(0))).toBe(true)
      expect(yield* repo.replacePinHash(customerId, null, "hash:2222", new Date(0))).toBe(false)
      expect(yield* repo.replacePinHash(customerId, "hash:1111", "hash:2222", new Date(0))).toBe(true)
      expect(yield* pinHashOf(accountId)).toBe("hash:2222")
      expect(yield* repo.replacePinHash(CustomerId.make("no-such-customer"), null, "hash:1", new Date(0))).toBe(false)
    })))

  it.effect("a failed unit of work rolls the guard and the PIN hash back", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, customerId } = yield* withPin(verifiedAda)
      yield* verify(accountId, WRONG)
      const repo = yield* PinRepo
      const failed = yield* Effect.flip(atomically(Effect.gen(function*() {
        yield* repo.setPinHash(customerId, "hash:9999", new Date(0))
        yield* repo.clearWrongTries(customerId)
        return yield* Effect.fail("boom" as const)
      })))
      expect(failed).toBe("boom")
      expect(yield* pinHashOf(accountId)).toBe(`hash:${PIN}`)
      expect((yield* repo.findGuard(customerId)).wrongTries).toBe(1)
    })))
})
