/**
 * One-time codes under attack (issue 37, item 5), over HTTP:
 * - one budget per account across purposes: 10 wrong codes in 24 hours lock that account's code
 *   checks (the right code then answers 429 OTP_LOCKED, an OTP-gated operation its usual 401), and
 *   staff get the `otp_checks_locked` alert; before, each purpose had its own window (~75 guesses
 *   per 15 minutes);
 * - a verification code verifies but never signs in an account that was already verified; the
 *   first verification keeps the spec's tokens;
 * - a burst of concurrent code requests issues one code, not one per request.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminGet, adminServer, rootToken } from "./support/AdminFixtures.js"
import { expectFailure, expectSuccess, me, otherCode, post, register, verifiedAccount } from "./support/Fixtures.js"
import { lastCode, outbox } from "./support/TestServer.js"

const EMAIL_SEND = "/api/v1/auth/otp/email/send"
const EMAIL_VERIFY = "/api/v1/auth/otp/email/verify"
const PHONE_SEND = "/api/v1/auth/otp/phone/send"
const PHONE_VERIFY = "/api/v1/auth/otp/phone/verify"

const locked = (reply: { status: number; body: any; text: string; headers: Record<string, string> }) => {
  const error = expectFailure(reply, 429, "Too many incorrect codes; try again later")
  expect(error.code).toBe("OTP_LOCKED")
  expect(error.retryAfterSeconds).toBeGreaterThan(23 * 3600)
  expect(Number(reply.headers["retry-after"])).toBe(error.retryAfterSeconds)
}

/** Five wrong guesses at a password reset code (the code's own 5 attempts). */
const wrongResets = (email: string, n: number) =>
  Effect.gen(function*() {
    expectSuccess(yield* post("/api/v1/auth/forgot-password", { email }))
    const code = lastCode(email, "password_reset")
    for (let i = 0; i < n; i++) {
      expectFailure(yield* post("/api/v1/auth/reset-password", { email, code: otherCode(code), password: "a brand new password" }), 401, /OTP/)
    }
  })

layer(adminServer(), { excludeTestServices: true, timeout: "300 seconds" })("one-time code hardening", (it) => {
  describe("one budget of wrong codes per account", () => {
    it.effect("5 wrong email codes and 5 wrong phone codes lock every check: the right code is then 429; staff are alerted", () =>
      Effect.gen(function*() {
        const victim = yield* register("otp-budget", { withPhone: true })
        expectSuccess(yield* post(EMAIL_SEND, { accountId: victim.id }))
        const emailCode = lastCode(victim.email, "email_verification")
        for (let i = 0; i < 5; i++) {
          expectFailure(yield* post(EMAIL_VERIFY, { accountId: victim.id, pin: otherCode(emailCode) }), 400, "Incorrect OTP")
        }
        expectSuccess(yield* post(PHONE_SEND, { accountId: victim.id }))
        const phoneCode = lastCode(victim.phone!.e164, "phone_verification")
        for (let i = 0; i < 5; i++) {
          expectFailure(yield* post(PHONE_VERIFY, { accountId: victim.id, pin: otherCode(phoneCode) }), 400, "Incorrect OTP")
        }
        // a fresh, right code of any purpose is refused without being compared
        expectSuccess(yield* post(EMAIL_SEND, { accountId: victim.id }))
        locked(yield* post(EMAIL_VERIFY, { accountId: victim.id, pin: lastCode(victim.email, "email_verification") }))
        expectSuccess(yield* post("/api/v1/auth/forgot-password", { email: victim.email }))
        locked(yield* post("/api/v1/auth/reset-password", {
          email: victim.email,
          code: lastCode(victim.email, "password_reset"),
          password: "a brand new password"
        }))
        const alerts = expectSuccess(yield* adminGet("/api/v1/admin/alerts", yield* rootToken), { apiObject: "Admin" }) as Array<any>
        const alert = alerts.find((a) => a.kind === "otp_checks_locked" && a.message.includes(victim.id))
        expect(alert).toMatchObject({ severity: "critical", occurrences: 1 })
      }))

    it.effect("the OTP gate counts too, and while locked answers its usual 401 even for the right code; nothing changes", () =>
      Effect.gen(function*() {
        const owner = yield* verifiedAccount("otp-gate-budget")
        yield* wrongResets(owner.email, 5)
        for (let i = 0; i < 4; i++) {
          const { pinId } = expectSuccess(yield* post("/api/v1/auth/otp/request", undefined, owner.accessToken))
          const code = lastCode(owner.email, "action_confirmation")
          expectFailure(yield* post("/api/v1/auth/pin/reset", { pin: "4321", otpPinId: pinId, otpCode: otherCode(code) }, owner.accessToken), 401, /OTP/)
        }
        // the 10th wrong code: the one that locks
        expectSuccess(yield* post(EMAIL_SEND, { accountId: owner.id }))
        expectFailure(yield* post(EMAIL_VERIFY, { accountId: owner.id, pin: otherCode(lastCode(owner.email, "email_verification")) }), 400, "Incorrect OTP")
        const { pinId } = expectSuccess(yield* post("/api/v1/auth/otp/request", undefined, owner.accessToken))
        const right = lastCode(owner.email, "action_confirmation")
        expectFailure(yield* post("/api/v1/auth/pin/reset", { pin: "4321", otpPinId: pinId, otpCode: right }, owner.accessToken), 401, /OTP/)
        expect(expectSuccess(yield* me(owner.accessToken), { apiObject: "Customer" }).hasPin).toBe(false)
      }))

    it.effect("right codes are not counted: 9 wrong and a right one leave the account usable", () =>
      Effect.gen(function*() {
        const owner = yield* verifiedAccount("otp-budget-right")
        yield* wrongResets(owner.email, 5)
        expectSuccess(yield* post("/api/v1/auth/forgot-password", { email: owner.email }))
        const code = lastCode(owner.email, "password_reset")
        for (let i = 0; i < 4; i++) {
          expectFailure(yield* post("/api/v1/auth/reset-password", { email: owner.email, code: otherCode(code), password: "a brand new password" }), 401, /OTP/)
        }
        expectSuccess(yield* post("/api/v1/auth/reset-password", { email: owner.email, code, password: "a brand new password" }))
        const { pinId } = expectSuccess(yield* post("/api/v1/auth/otp/request", undefined, owner.accessToken))
        expectSuccess(yield* post("/api/v1/auth/pin/reset", { pin: "4321", otpPinId: pinId, otpCode: lastCode(owner.email, "action_confirmation") }, owner.accessToken))
      }))
  })

  describe("verification codes verify; they do not sign in", () => {
    it.effect("verifying an unverified account answers the spec's tokens; once verified, a code verifies and answers no tokens (no cookie)", () =>
      Effect.gen(function*() {
        const owner = yield* verifiedAccount("verify-no-tokens", { withPhone: true })
        expectSuccess(yield* post(PHONE_SEND, { accountId: owner.id }))
        const phone = yield* post(PHONE_VERIFY, { accountId: owner.id, pin: lastCode(owner.phone!.e164, "phone_verification") })
        expect(expectSuccess(phone, { message: "Phone number verified." })).toEqual({})
        expect(phone.headers["set-cookie"]).toBeUndefined()
        expectSuccess(yield* post(EMAIL_SEND, { accountId: owner.id }))
        const email = yield* post(EMAIL_VERIFY, { accountId: owner.id, pin: lastCode(owner.email, "email_verification") })
        expect(expectSuccess(email, { message: "Email verified." })).toEqual({})
        expect(email.headers["set-cookie"]).toBeUndefined()
        expect(expectSuccess(yield* me(owner.accessToken), { apiObject: "Customer" })).toMatchObject({ emailVerified: true, phoneVerified: true })
        // an unverified account's verifications still answer tokens, as the spec says: phone first, then email
        const fresh = yield* register("verify-phone-first", { withPhone: true })
        expectSuccess(yield* post(PHONE_SEND, { accountId: fresh.id }))
        const first = expectSuccess(yield* post(PHONE_VERIFY, { accountId: fresh.id, pin: lastCode(fresh.phone!.e164, "phone_verification") }))
        expect(Object.keys(first).sort()).toEqual(["accessToken", "refreshToken"])
        expectSuccess(yield* post(EMAIL_SEND, { accountId: fresh.id }))
        const second = expectSuccess(yield* post(EMAIL_VERIFY, { accountId: fresh.id, pin: lastCode(fresh.email, "email_verification") }))
        expect(Object.keys(second).sort()).toEqual(["accessToken", "refreshToken"])
        // now verified: a phone code no longer signs in
        expectSuccess(yield* post(PHONE_SEND, { accountId: fresh.id }))
        expect(expectSuccess(yield* post(PHONE_VERIFY, { accountId: fresh.id, pin: lastCode(fresh.phone!.e164, "phone_verification") }))).toEqual({})
      }))
  })

  describe("issuing codes", () => {
    it.effect("20 concurrent requests for a code issue one code; the others wait (429)", () =>
      Effect.gen(function*() {
        const owner = yield* verifiedAccount("otp-burst")
        const before = outbox().filter((m) => m.to === owner.email && m.kind === "password_reset").length
        const replies = yield* Effect.all(
          Array.from({ length: 20 }, () => post("/api/v1/auth/forgot-password", { email: owner.email })),
          { concurrency: "unbounded" }
        )
        expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
        expect(replies.filter((r) => r.status === 429)).toHaveLength(19)
        expect(outbox().filter((m) => m.to === owner.email && m.kind === "password_reset").length - before).toBe(1)
      }))
  })
})
