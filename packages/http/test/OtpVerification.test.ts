/**
 * Email and phone one-time codes: POST /auth/otp/email/send, /otp/email/verify, /otp/phone/send,
 * /otp/phone/verify, and the outbox line format of operations.md.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import {
  expectFailure,
  expectSuccess,
  expectValidation,
  expireOtps,
  me,
  otherCode,
  post,
  register
} from "./support/Fixtures.js"
import { lastCode, outbox, TestServer } from "./support/TestServer.js"

const EMAIL_SEND = "/api/v1/auth/otp/email/send"
const EMAIL_VERIFY = "/api/v1/auth/otp/email/verify"
const PHONE_SEND = "/api/v1/auth/otp/phone/send"
const PHONE_VERIFY = "/api/v1/auth/otp/phone/verify"

const COOLDOWN = /^Please wait \d+ seconds/

const OUTBOX_KEYS = ["at", "channel", "code", "kind", "subject", "text", "to"]

const linesTo = (to: string) => outbox().filter((line) => line.to === to)

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("one-time codes", (it) => {
  describe("POST /auth/otp/email/send", () => {
    it.effect("200 with no data, and emails a 6-digit code (outbox line format)", () =>
      Effect.gen(function*() {
        const account = yield* register("esend")
        const before = Date.now()
        const reply = yield* post(EMAIL_SEND, { accountId: account.id })
        expect(expectSuccess(reply)).toEqual({})
        const lines = linesTo(account.email)
        expect(lines).toHaveLength(1)
        const line = lines[0]!
        expect(Object.keys(line).sort()).toEqual(OUTBOX_KEYS)
        expect(line).toMatchObject({ channel: "email", to: account.email, kind: "email_verification" })
        expect(line.code).toMatch(/^\d{6}$/)
        expect(line.text).toContain(line.code!)
        expect(typeof line.subject).toBe("string")
        expect(new Date(line.at).toISOString()).toBe(line.at)
        expect(Date.parse(line.at)).toBeGreaterThanOrEqual(before - 1000)
        expect(Date.parse(line.at)).toBeLessThanOrEqual(Date.now() + 1000)
        // the code itself is never in the HTTP reply
        expect(reply.text).not.toContain(line.code!)
      }))

    it.effect("a resend within 60 s is 429 with error.retryAfterSeconds, and sends nothing", () =>
      Effect.gen(function*() {
        const account = yield* register("eresend")
        expectSuccess(yield* post(EMAIL_SEND, { accountId: account.id }))
        const refused = yield* post(EMAIL_SEND, { accountId: account.id })
        const error = expectFailure(refused, 429, COOLDOWN)
        expect(error.code).toBe("OTP_COOLDOWN")
        const retry = error.retryAfterSeconds
        expect(refused.headers["retry-after"]).toBe(String(retry))
        expect(Number.isInteger(retry)).toBe(true)
        expect(retry).toBeGreaterThanOrEqual(55)
        expect(retry).toBeLessThanOrEqual(60)
        expect(linesTo(account.email)).toHaveLength(1)
      }))

    it.effect("an unknown accountId is 400 'Account not found'", () =>
      Effect.gen(function*() {
        expectFailure(yield* post(EMAIL_SEND, { accountId: randomUUID() }), 400, "Account not found")
      }))

    it.effect("a non-uuid accountId is a validation error naming accountId", () =>
      Effect.gen(function*() {
        expectValidation(yield* post(EMAIL_SEND, { accountId: "12345" }), { fields: ["accountId"] })
      }))

    it.effect("a missing accountId is a validation error naming accountId", () =>
      Effect.gen(function*() {
        expectValidation(yield* post(EMAIL_SEND, {}), { fields: ["accountId"] })
      }))
  })

  describe("POST /auth/otp/email/verify", () => {
    it.effect("the right code → 200 {accessToken, refreshToken}; emailVerified and customerStatus verified", () =>
      Effect.gen(function*() {
        const account = yield* register("everify")
        expectSuccess(yield* post(EMAIL_SEND, { accountId: account.id }))
        const reply = yield* post(EMAIL_VERIFY, { accountId: account.id, pin: lastCode(account.email, "email_verification") })
        const tokens = expectSuccess(reply)
        expect(Object.keys(tokens).sort()).toEqual(["accessToken", "refreshToken"])
        expect(tokens.accessToken).toBeTypeOf("string")
        expect(tokens.refreshToken).toBeTypeOf("string")
        const profile = expectSuccess(yield* me(tokens.accessToken), { apiObject: "Customer" })
        expect(profile).toMatchObject({
          id: account.id,
          emailVerified: true,
          phoneVerified: false,
          customerStatus: "verified"
        })
      }))

    it.effect("a wrong code is 400 'Incorrect OTP' and the right one still works afterwards", () =>
      Effect.gen(function*() {
        const account = yield* register("ewrong")
        expectSuccess(yield* post(EMAIL_SEND, { accountId: account.id }))
        const code = lastCode(account.email, "email_verification")
        expectFailure(yield* post(EMAIL_VERIFY, { accountId: account.id, pin: otherCode(code) }), 400, "Incorrect OTP")
        expectSuccess(yield* post(EMAIL_VERIFY, { accountId: account.id, pin: code }))
      }))

    it.effect("no code sent yet is 400 'OTP expired or invalid'", () =>
      Effect.gen(function*() {
        const account = yield* register("enone")
        expectFailure(yield* post(EMAIL_VERIFY, { accountId: account.id, pin: "123456" }), 400, "OTP expired or invalid")
      }))

    it.effect("a used code cannot be reused: 400 'OTP expired or invalid'", () =>
      Effect.gen(function*() {
        const account = yield* register("eused")
        expectSuccess(yield* post(EMAIL_SEND, { accountId: account.id }))
        const code = lastCode(account.email, "email_verification")
        expectSuccess(yield* post(EMAIL_VERIFY, { accountId: account.id, pin: code }))
        expectFailure(yield* post(EMAIL_VERIFY, { accountId: account.id, pin: code }), 400, "OTP expired or invalid")
      }))

    it.effect("an expired code is 400 'OTP expired or invalid'", () =>
      Effect.gen(function*() {
        const account = yield* register("eexpired")
        expectSuccess(yield* post(EMAIL_SEND, { accountId: account.id }))
        const code = lastCode(account.email, "email_verification")
        yield* expireOtps(account.id)
        expectFailure(yield* post(EMAIL_VERIFY, { accountId: account.id, pin: code }), 400, "OTP expired or invalid")
        const profile = expectSuccess(
          yield* post("/api/v1/auth/login", { email: account.email, password: account.password })
        )
        expect(expectSuccess(yield* me(profile.accessToken), { apiObject: "Customer" })).toMatchObject({
          emailVerified: false,
          customerStatus: "unverified"
        })
      }))

    it.effect("5 wrong tries burn the code: the right code is then refused", () =>
      Effect.gen(function*() {
        const account = yield* register("eburn")
        expectSuccess(yield* post(EMAIL_SEND, { accountId: account.id }))
        const code = lastCode(account.email, "email_verification")
        for (let i = 0; i < 5; i++) {
          expectFailure(yield* post(EMAIL_VERIFY, { accountId: account.id, pin: otherCode(code) }), 400, "Incorrect OTP")
        }
        expectFailure(yield* post(EMAIL_VERIFY, { accountId: account.id, pin: code }), 400, "OTP expired or invalid")
      }))

    it.effect("another account's code is refused", () =>
      Effect.gen(function*() {
        const a = yield* register("eowner")
        const b = yield* register("eother")
        expectSuccess(yield* post(EMAIL_SEND, { accountId: a.id }))
        expectSuccess(yield* post(EMAIL_SEND, { accountId: b.id }))
        const codeA = lastCode(a.email, "email_verification")
        const codeB = lastCode(b.email, "email_verification")
        if (codeA !== codeB) {
          expectFailure(yield* post(EMAIL_VERIFY, { accountId: a.id, pin: codeB }), 400, "Incorrect OTP")
        }
        expectSuccess(yield* post(EMAIL_VERIFY, { accountId: a.id, pin: codeA }))
      }))

    it.effect("an unknown accountId is 400 'Account not found'", () =>
      Effect.gen(function*() {
        expectFailure(yield* post(EMAIL_VERIFY, { accountId: randomUUID(), pin: "123456" }), 400, "Account not found")
      }))

    it.effect("a 5-character pin is a validation error naming pin", () =>
      Effect.gen(function*() {
        const account = yield* register("epin5")
        expectValidation(yield* post(EMAIL_VERIFY, { accountId: account.id, pin: "12345" }), { fields: ["pin"] })
      }))

    it.effect("a numeric pin, a missing pin and a non-uuid accountId are validation errors", () =>
      Effect.gen(function*() {
        const account = yield* register("epintype")
        expectValidation(yield* post(EMAIL_VERIFY, { accountId: account.id, pin: 123456 }), { fields: ["pin"] })
        expectValidation(yield* post(EMAIL_VERIFY, { accountId: account.id }), { fields: ["pin"] })
        expectValidation(yield* post(EMAIL_VERIFY, { accountId: "not-a-uuid", pin: "123456" }), {
          fields: ["accountId"]
        })
      }))
  })

  describe("POST /auth/otp/phone/send", () => {
    it.effect("200, and texts a 6-digit code to the +234 number (outbox line format)", () =>
      Effect.gen(function*() {
        const account = yield* register("psend", { withPhone: true })
        const reply = yield* post(PHONE_SEND, { accountId: account.id })
        expect(expectSuccess(reply)).toEqual({})
        const lines = linesTo(account.phone!.e164)
        expect(lines).toHaveLength(1)
        const line = lines[0]!
        expect(Object.keys(line).sort()).toEqual(OUTBOX_KEYS)
        expect(line).toMatchObject({ channel: "sms", to: account.phone!.e164, kind: "phone_verification" })
        expect(line.code).toMatch(/^\d{6}$/)
        expect(line.text).toContain(line.code!)
        expect(new Date(line.at).toISOString()).toBe(line.at)
        expect(linesTo(account.phone!.national)).toHaveLength(0)
        expect(linesTo(account.email)).toHaveLength(0)
      }))

    it.effect("an account without a phone is 400 'No phone number on file'", () =>
      Effect.gen(function*() {
        const account = yield* register("pnone")
        expectFailure(yield* post(PHONE_SEND, { accountId: account.id }), 400, "No phone number on file")
      }))

    it.effect("a resend within 60 s is 429 with error.retryAfterSeconds", () =>
      Effect.gen(function*() {
        const account = yield* register("presend", { withPhone: true })
        expectSuccess(yield* post(PHONE_SEND, { accountId: account.id }))
        const error = expectFailure(yield* post(PHONE_SEND, { accountId: account.id }), 429, COOLDOWN)
        expect(error.retryAfterSeconds).toBeGreaterThan(0)
        expect(error.retryAfterSeconds).toBeLessThanOrEqual(60)
        expect(linesTo(account.phone!.e164)).toHaveLength(1)
      }))

    it.effect("the email and phone cooldowns are separate", () =>
      Effect.gen(function*() {
        const account = yield* register("pboth", { withPhone: true })
        expectSuccess(yield* post(EMAIL_SEND, { accountId: account.id }))
        expectSuccess(yield* post(PHONE_SEND, { accountId: account.id }))
      }))

    it.effect("an unknown accountId is 400 'Account not found'; a non-uuid one is a validation error", () =>
      Effect.gen(function*() {
        expectFailure(yield* post(PHONE_SEND, { accountId: randomUUID() }), 400, "Account not found")
        expectValidation(yield* post(PHONE_SEND, { accountId: 42 }), { fields: ["accountId"] })
      }))
  })

  describe("POST /auth/otp/phone/verify", () => {
    it.effect("the right code → tokens and phoneVerified; status stays unverified until the email is verified", () =>
      Effect.gen(function*() {
        const account = yield* register("pverify", { withPhone: true })
        expectSuccess(yield* post(PHONE_SEND, { accountId: account.id }))
        const phoneCode = lastCode(account.phone!.e164, "phone_verification")
        const tokens = expectSuccess(yield* post(PHONE_VERIFY, { accountId: account.id, pin: phoneCode }))
        expect(Object.keys(tokens).sort()).toEqual(["accessToken", "refreshToken"])
        expect(expectSuccess(yield* me(tokens.accessToken), { apiObject: "Customer" })).toMatchObject({
          phoneVerified: true,
          emailVerified: false,
          customerStatus: "unverified"
        })
        expectSuccess(yield* post(EMAIL_SEND, { accountId: account.id }))
        const emailTokens = expectSuccess(
          yield* post(EMAIL_VERIFY, { accountId: account.id, pin: lastCode(account.email, "email_verification") })
        )
        expect(expectSuccess(yield* me(emailTokens.accessToken), { apiObject: "Customer" })).toMatchObject({
          phoneVerified: true,
          emailVerified: true,
          customerStatus: "verified"
        })
      }))

    it.effect("after email verification, phone verification keeps the customer verified (and answers no tokens: OtpBudget.test.ts)", () =>
      Effect.gen(function*() {
        const account = yield* register("pafter", { withPhone: true })
        expectSuccess(yield* post(EMAIL_SEND, { accountId: account.id }))
        const tokens = expectSuccess(
          yield* post(EMAIL_VERIFY, { accountId: account.id, pin: lastCode(account.email, "email_verification") })
        )
        expectSuccess(yield* post(PHONE_SEND, { accountId: account.id }))
        expect(expectSuccess(
          yield* post(PHONE_VERIFY, { accountId: account.id, pin: lastCode(account.phone!.e164, "phone_verification") })
        )).toEqual({})
        expect(expectSuccess(yield* me(tokens.accessToken), { apiObject: "Customer" })).toMatchObject({
          phoneVerified: true,
          emailVerified: true,
          customerStatus: "verified"
        })
      }))

    it.effect("wrong code → 'Incorrect OTP'; used code → 'OTP expired or invalid'", () =>
      Effect.gen(function*() {
        const account = yield* register("pwrong", { withPhone: true })
        expectSuccess(yield* post(PHONE_SEND, { accountId: account.id }))
        const code = lastCode(account.phone!.e164, "phone_verification")
        expectFailure(yield* post(PHONE_VERIFY, { accountId: account.id, pin: otherCode(code) }), 400, "Incorrect OTP")
        expectSuccess(yield* post(PHONE_VERIFY, { accountId: account.id, pin: code }))
        expectFailure(yield* post(PHONE_VERIFY, { accountId: account.id, pin: code }), 400, "OTP expired or invalid")
      }))

    it.effect("no code sent yet is 'OTP expired or invalid'; the email code does not verify the phone", () =>
      Effect.gen(function*() {
        const account = yield* register("pcross", { withPhone: true })
        expectFailure(yield* post(PHONE_VERIFY, { accountId: account.id, pin: "123456" }), 400, "OTP expired or invalid")
        expectSuccess(yield* post(EMAIL_SEND, { accountId: account.id }))
        const emailCode = lastCode(account.email, "email_verification")
        expectFailure(yield* post(PHONE_VERIFY, { accountId: account.id, pin: emailCode }), 400, "OTP expired or invalid")
      }))

    it.effect("an expired phone code is 'OTP expired or invalid'", () =>
      Effect.gen(function*() {
        const account = yield* register("pexpired", { withPhone: true })
        expectSuccess(yield* post(PHONE_SEND, { accountId: account.id }))
        const code = lastCode(account.phone!.e164, "phone_verification")
        yield* expireOtps(account.id)
        expectFailure(yield* post(PHONE_VERIFY, { accountId: account.id, pin: code }), 400, "OTP expired or invalid")
      }))

    it.effect("unknown accountId → 400 'Account not found'; 5-character pin → validation error", () =>
      Effect.gen(function*() {
        expectFailure(yield* post(PHONE_VERIFY, { accountId: randomUUID(), pin: "123456" }), 400, "Account not found")
        const account = yield* register("ppin5", { withPhone: true })
        expectValidation(yield* post(PHONE_VERIFY, { accountId: account.id, pin: "12345" }), { fields: ["pin"] })
      }))
  })
})
