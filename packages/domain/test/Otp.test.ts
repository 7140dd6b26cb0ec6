import {describe, expect, it} from "@effect/vitest"
import {Duration, Effect, FastCheck as fc, Option, TestClock} from "effect"
import * as Auth from "../src/auth/index.js"
import type { OtpPurpose } from "../src/auth/Model.js"
import * as Otp from "../src/auth/Otp.js"
import {ADA, inMemory, pw, registerAda, registerBola, wrongCode} from "./support/Fixtures.js"
import {RandomControl, Sent, Store} from "./support/InMemory.js"
import { AccountId } from "../src/shared/Ids.js"

const ACC1 = AccountId.make("acc-1")

const issue = (accountId: AccountId, purpose: OtpPurpose) =>
  Otp.issueOtp({
    accountId,
    channel: "email",
    purpose,
    destination: ADA.email,
    kind: purpose,
    subject: "Your code",
    text: (code) => `Your code is ${code}`
  })

/** issue + read the delivered code */
const issueAndRead = (accountId: AccountId, purpose: OtpPurpose) =>
  Effect.gen(function*() {
    const id = yield* issue(accountId, purpose)
    return { id, code: yield* Sent.lastCode(purpose) }
  })

const guess = (id: string, accountId: AccountId, purpose: OtpPurpose, code: string) =>
  Effect.flatMap(Store.otp(id), (otp) => Otp.guessOtp(Option.some(otp), { accountId, purpose }, code))

describe("OTP policy", () => {
  it("OtpPolicy is 6 digits, 10 minutes, 5 attempts, 60 s cooldown, 5 codes per 15 minutes", () => {
    expect(Otp.OtpPolicy.length).toBe(6)
    expect(Duration.toMillis(Otp.OtpPolicy.ttl)).toBe(10 * 60_000)
    expect(Otp.OtpPolicy.maxAttempts).toBe(5)
    expect(Duration.toSeconds(Otp.OtpPolicy.resendCooldown)).toBe(60)
    expect(Otp.OtpPolicy.maxIssuedPerWindow).toBe(5)
    expect(Duration.toMinutes(Otp.OtpPolicy.issueWindow)).toBe(15)
  })

  it.effect("delivers a 6-digit code to the account's email and stores only its digest", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      const [message] = yield* Sent.all
      expect(message).toMatchObject({ channel: "email", to: ADA.email, kind: "email_verification" })
      const code = message!.code!
      expect(code).toMatch(/^\d{6}$/)
      expect(message!.text).toContain(code)
      const [stored] = yield* Store.otps
      expect(stored!.codeHash).not.toBe(code)
      expect(Object.values(stored!).filter((v) => v === code)).toEqual([])
      expect(stored).toMatchObject({ accountId: account.id, purpose: "email_verification", attempts: 0, maxAttempts: 5 })
    })))

  it.effect.prop(
    "every 6-digit code (leading zeros kept) is delivered as drawn, stored hashed and accepted",
    [fc.stringMatching(/^\d{6}$/)],
    ([drawn]) =>
      inMemory(Effect.gen(function*() {
        yield* RandomControl.pushDigits(drawn)
        const { id, code } = yield* issueAndRead(ACC1, "sensitive_action")
        expect(code).toBe(drawn)
        const stored = yield* Store.otp(id)
        expect(stored.codeHash).not.toBe(drawn)
        expect(yield* guess(id, ACC1, "sensitive_action", wrongCode(drawn))).toBe("incorrect")
        expect(yield* guess(id, ACC1, "sensitive_action", drawn)).toBe("correct")
      })),
    { fastCheck: { numRuns: 50 } }
  )

  it.effect("a code works once", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      const code = yield* Sent.lastCode("email_verification")
      yield* Auth.verifyEmailOtp(account.id, code)
      const second = yield* Effect.flip(Auth.verifyEmailOtp(account.id, code))
      expect(second).toMatchObject({ _tag: "OtpRejected", reason: "invalid" })
    })))

  it.effect("guessing does not use the code up; consumeOtp does, exactly once", () =>
    inMemory(Effect.gen(function*() {
      const { id, code } = yield* issueAndRead(ACC1, "sensitive_action")
      expect(yield* guess(id, ACC1, "sensitive_action", code)).toBe("correct")
      expect(yield* guess(id, ACC1, "sensitive_action", code)).toBe("correct")
      expect(yield* Otp.consumeOtp(id)).toBe(true)
      expect(yield* Otp.consumeOtp(id)).toBe(false)
      expect(yield* guess(id, ACC1, "sensitive_action", code)).toBe("invalid")
    })))

  it.effect("a code is still valid 1 ms before 10 minutes", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      const code = yield* Sent.lastCode("email_verification")
      yield* TestClock.adjust(Duration.millis(10 * 60_000 - 1))
      yield* Auth.verifyEmailOtp(account.id, code)
      expect((yield* Store.account(account.id)).account.emailVerified).toBe(true)
    })))

  it.effect("a code is valid at 9:59 and expired at exactly 10:00", () =>
    inMemory(Effect.gen(function*() {
      const { id, code } = yield* issueAndRead(ACC1, "sensitive_action")
      yield* TestClock.adjust(Duration.seconds(599))
      expect(yield* guess(id, ACC1, "sensitive_action", code)).toBe("correct")
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* guess(id, ACC1, "sensitive_action", code)).toBe("invalid")
    })))

  it.effect("verifyEmailOtp at exactly 10:00 rejects the right code as invalid", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      const code = yield* Sent.lastCode("email_verification")
      yield* TestClock.adjust(Duration.minutes(10))
      const error = yield* Effect.flip(Auth.verifyEmailOtp(account.id, code))
      expect(error).toMatchObject({ _tag: "OtpRejected", reason: "invalid" })
      expect((yield* Store.account(account.id)).account.emailVerified).toBe(false)
    })))

  it.effect("5 wrong guesses burn the code: the right code is then invalid", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      const code = yield* Sent.lastCode("email_verification")
      for (let i = 0; i < 5; i++) {
        const error = yield* Effect.flip(Auth.verifyEmailOtp(account.id, wrongCode(code)))
        expect(error).toMatchObject({ _tag: "OtpRejected", reason: "incorrect" })
      }
      const [stored] = yield* Store.otps
      expect(stored!.attempts).toBe(5)
      const error = yield* Effect.flip(Auth.verifyEmailOtp(account.id, code))
      expect(error).toMatchObject({ _tag: "OtpRejected", reason: "invalid" })
      expect((yield* Store.account(account.id)).account.emailVerified).toBe(false)
    })))

  it.effect("4 wrong guesses leave the 5th attempt for the right code", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      const code = yield* Sent.lastCode("email_verification")
      for (let i = 0; i < 4; i++) yield* Effect.flip(Auth.verifyEmailOtp(account.id, wrongCode(code)))
      yield* Auth.verifyEmailOtp(account.id, code)
      expect((yield* Store.account(account.id)).account.emailVerified).toBe(true)
    })))

  it.effect("parallel wrong guesses cannot exceed 5 attempts", () =>
    inMemory(Effect.gen(function*() {
      const { id, code } = yield* issueAndRead(ACC1, "sensitive_action")
      const results = yield* Effect.all(
        Array.from({ length: 12 }, () => guess(id, ACC1, "sensitive_action", wrongCode(code))),
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => r === "incorrect")).toHaveLength(5)
      expect(results.filter((r) => r === "invalid")).toHaveLength(7)
      expect((yield* Store.otp(id)).attempts).toBe(5)
    })))

  it.effect("resend within 60 s fails with OtpCooldown and the seconds left", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      expect(yield* Effect.flip(Auth.sendEmailOtp(account.id))).toMatchObject({
        _tag: "OtpCooldown",
        retryAfterSeconds: 60
      })
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* Effect.flip(Auth.sendEmailOtp(account.id))).toMatchObject({ retryAfterSeconds: 59 })
      yield* TestClock.adjust(Duration.millis(57_500)) // 58.5 s: rounded up
      expect(yield* Effect.flip(Auth.sendEmailOtp(account.id))).toMatchObject({ retryAfterSeconds: 2 })
      yield* TestClock.adjust(Duration.millis(1_499)) // 59.999 s
      expect(yield* Effect.flip(Auth.sendEmailOtp(account.id))).toMatchObject({ retryAfterSeconds: 1 })
      expect(yield* Sent.all).toHaveLength(1)
      expect(yield* Store.otps).toHaveLength(1)
    })))

  it.effect("after 60 s a resend works and retires the old code", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      const oldCode = yield* Sent.lastCode("email_verification")
      const [old] = yield* Store.otps
      yield* TestClock.adjust(Duration.seconds(60))
      yield* Auth.sendEmailOtp(account.id)
      const newCode = yield* Sent.lastCode("email_verification")
      expect(newCode).not.toBe(oldCode)
      expect(yield* Store.otps).toHaveLength(2)
      // the old code is no longer live, even looked up by its id
      expect((yield* Store.otp(old!.id)).consumedAt).not.toBeNull()
      expect(yield* guess(old!.id, account.id, "email_verification", oldCode)).toBe("invalid")
      // verification checks the newest code only
      const error = yield* Effect.flip(Auth.verifyEmailOtp(account.id, oldCode))
      expect(error).toMatchObject({ _tag: "OtpRejected", reason: "incorrect" })
      yield* Auth.verifyEmailOtp(account.id, newCode)
    })))

  it.effect("at most 5 codes per 15 minutes per purpose: the 6th waits for the oldest to leave the window", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      for (let i = 0; i < 5; i++) {
        yield* Auth.sendEmailOtp(account.id)
        yield* TestClock.adjust(Duration.seconds(60))
      }
      // 5 codes at t=0,60,...,240 s; now t=300 s: the cooldown has passed but the window is full
      expect(yield* Effect.flip(Auth.sendEmailOtp(account.id))).toMatchObject({
        _tag: "OtpCooldown",
        retryAfterSeconds: 900 - 300
      })
      // another purpose is not affected
      yield* Auth.sendPhoneOtp(account.id)
      yield* TestClock.adjust(Duration.seconds(900 - 300 - 1))
      expect(yield* Effect.flip(Auth.sendEmailOtp(account.id))).toMatchObject({ retryAfterSeconds: 1 })
      yield* TestClock.adjust(Duration.seconds(1))
      yield* Auth.sendEmailOtp(account.id)
      expect((yield* Sent.all).filter((m) => m.kind === "email_verification")).toHaveLength(6)
    })))

  it.effect("no cooldown once the code is spent: two gated operations back to back need no wait", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      const first = yield* Auth.requestActionOtp(account.id)
      // outstanding: the cooldown applies
      expect(yield* Effect.flip(Auth.requestActionOtp(account.id))).toMatchObject({ _tag: "OtpCooldown", retryAfterSeconds: 60 })
      yield* Auth.passOtpGate(account.id, first.pinId, yield* Sent.lastCode("action_confirmation"))
      // spent: a new one at once, and it works
      const second = yield* Auth.requestActionOtp(account.id)
      yield* Auth.passOtpGate(account.id, second.pinId, yield* Sent.lastCode("action_confirmation"))
      // a code spent by a wrong guess is spent too
      const third = yield* Auth.requestActionOtp(account.id)
      yield* Effect.flip(Auth.passOtpGate(account.id, third.pinId, "000000"))
      yield* Auth.requestActionOtp(account.id)
      expect((yield* Sent.all).filter((m) => m.kind === "action_confirmation")).toHaveLength(4)
    })))

  it.effect("spent codes still count towards the window: the 6th in 15 minutes is refused", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      for (let i = 0; i < 5; i++) {
        const { pinId } = yield* Auth.requestActionOtp(account.id)
        yield* Auth.passOtpGate(account.id, pinId, yield* Sent.lastCode("action_confirmation"))
        yield* TestClock.adjust(Duration.seconds(10))
      }
      expect(yield* Effect.flip(Auth.requestActionOtp(account.id))).toMatchObject({
        _tag: "OtpCooldown",
        retryAfterSeconds: 900 - 50
      })
    })))

  it.effect("a verification code out of attempts is not outstanding: a new one comes at once", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      const code = yield* Sent.lastCode("email_verification")
      for (let i = 0; i < 5; i++) yield* Effect.flip(Auth.verifyEmailOtp(account.id, wrongCode(code)))
      yield* Auth.sendEmailOtp(account.id)
      yield* Auth.verifyEmailOtp(account.id, yield* Sent.lastCode("email_verification"))
    })))

  it("windowRemaining counts from the oldest code that still fills the window", () => {
    const now = new Date(10_000_000)
    const times = (...s: Array<number>) => s.map((x) => new Date(now.getTime() - x * 1000))
    expect(Otp.windowRemaining(times(800, 600, 400, 200), now)).toBe(0)
    expect(Otp.windowRemaining(times(800, 600, 400, 200, 100), now)).toBe(100)
    expect(Otp.windowRemaining(times(850, 800, 600, 400, 200, 100), now)).toBe(100)
  })

  it.effect("the cooldown is per account and per purpose", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      const bola = yield* registerBola
      yield* Auth.sendEmailOtp(account.id)
      yield* Auth.sendEmailOtp(bola.account.id)
      yield* Auth.sendPhoneOtp(account.id)
      yield* Auth.requestActionOtp(account.id)
      expect(yield* Sent.all).toHaveLength(4)
    })))

  it.effect("a code of one account does not pass for another (and costs it no attempt)", () =>
    inMemory(Effect.gen(function*() {
      const ada = yield* registerAda()
      const bola = yield* registerBola
      const { pinId } = yield* Auth.requestActionOtp(ada.account.id)
      const code = yield* Sent.lastCode("action_confirmation")
      expect(yield* guess(pinId, bola.account.id, "sensitive_action", code)).toBe("invalid")
      expect(yield* Effect.flip(Auth.passOtpGate(bola.account.id, pinId, code))).toMatchObject({ _tag: "OtpGateRejected" })
      expect((yield* Store.otp(pinId))).toMatchObject({ attempts: 0, consumedAt: null })
      yield* Auth.passOtpGate(ada.account.id, pinId, code)
      expect((yield* Store.otp(pinId)).consumedAt).not.toBeNull()
    })))

  it.effect("a pinId is opaque: a malformed or unknown one is an invalid code, never a lookup error", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.requestActionOtp(account.id)
      const code = yield* Sent.lastCode("action_confirmation")
      for (const pinId of ["", "x", "not-a-uuid", "00000000-0000-4000-8000-00000000ffff", "1'; drop table otps; --"]) {
        expect(yield* Effect.flip(Auth.passOtpGate(account.id, pinId, code))).toMatchObject({ _tag: "OtpGateRejected" })
      }
    })))

  it.effect("a code of one purpose does not pass for another", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      const emailCode = yield* Sent.lastCode("email_verification")
      const [emailOtp] = yield* Store.otps
      for (const purpose of ["phone_verification", "password_reset", "sensitive_action"] as const) {
        expect(yield* guess(emailOtp!.id, account.id, purpose, emailCode)).toBe("invalid")
      }
      expect(yield* Effect.flip(Auth.verifyPhoneOtp(account.id, emailCode))).toMatchObject({
        _tag: "OtpRejected",
        reason: "invalid"
      })
      expect(yield* Effect.flip(Auth.passOtpGate(account.id, emailOtp!.id, emailCode))).toMatchObject({
        _tag: "OtpGateRejected"
      })
      expect(
        yield* Effect.flip(Auth.resetPassword({ email: ADA.email, code: emailCode, password: pw("a brand new password") }))
      ).toMatchObject({ _tag: "OtpGateRejected" })
      // none of that touched the email code
      expect((yield* Store.otp(emailOtp!.id)).attempts).toBe(0)
      yield* Auth.verifyEmailOtp(account.id, emailCode)
    })))

  it("cooldownRemaining", () => {
    const now = new Date(100_000)
    expect(Otp.cooldownRemaining(Option.none(), now)).toBe(0)
    const live = { consumedAt: null, expiresAt: new Date(700_000), attempts: 0, maxAttempts: 5 }
    const at = (ms: number, patch: object = {}) => Option.some({ ...live, createdAt: new Date(ms), ...patch } as never)
    expect(Otp.cooldownRemaining(at(100_000), now)).toBe(60)
    expect(Otp.cooldownRemaining(at(40_001), now)).toBe(1)
    expect(Otp.cooldownRemaining(at(40_000), now)).toBe(0)
    expect(Otp.cooldownRemaining(at(0), now)).toBe(0)
    // only an outstanding code holds the cooldown: spent, expired or out of attempts do not
    expect(Otp.cooldownRemaining(at(100_000, { consumedAt: new Date(100_000) }), now)).toBe(0)
    expect(Otp.cooldownRemaining(at(100_000, { expiresAt: new Date(100_000) }), now)).toBe(0)
    expect(Otp.cooldownRemaining(at(100_000, { attempts: 5 }), now)).toBe(0)
  })
})
