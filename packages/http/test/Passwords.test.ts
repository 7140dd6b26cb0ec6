/**
 * POST /auth/check-email, /auth/forgot-password, /auth/reset-password, /auth/otp/request (bearer)
 * and /auth/change-password (bearer).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import {
  expectFailure,
  expectSuccess,
  expectValidation,
  expireOtps,
  login,
  otherCode,
  post,
  register,
  UUID_PATTERN,
  uniqueEmail,
  verifiedAccount
} from "./support/Fixtures.js"
import { lastCode, outbox, TestServer } from "./support/TestServer.js"

const CHECK_EMAIL = "/api/v1/auth/check-email"
const FORGOT = "/api/v1/auth/forgot-password"
const RESET = "/api/v1/auth/reset-password"
const OTP_REQUEST = "/api/v1/auth/otp/request"
const CHANGE = "/api/v1/auth/change-password"

const GATE_REJECTED = "Invalid or expired OTP"

/** forgot-password for the account, then its emailed reset code. */
const resetCodeFor = (email: string) =>
  Effect.gen(function*() {
    expectSuccess(yield* post(FORGOT, { email }))
    return lastCode(email, "password_reset")
  })

/** otp/request for the signed-in account, then {pinId, code}. */
const actionOtp = (account: { readonly email: string; readonly accessToken: string }) =>
  Effect.gen(function*() {
    const { pinId } = expectSuccess(yield* post(OTP_REQUEST, undefined, account.accessToken))
    return { pinId: pinId as string, code: lastCode(account.email, "action_confirmation") }
  })

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("passwords", (it) => {
  describe("POST /auth/check-email", () => {
    it.effect("a free email → 200 'Email is available.'", () =>
      Effect.gen(function*() {
        expect(expectSuccess(yield* post(CHECK_EMAIL, { email: uniqueEmail("free") }), { message: "Email is available." }))
          .toEqual({})
      }))

    it.effect("a taken email → 400 'Email already registered', whatever its case", () =>
      Effect.gen(function*() {
        const account = yield* register("taken")
        expectFailure(yield* post(CHECK_EMAIL, { email: account.email }), 400, "Email already registered")
        expectFailure(yield* post(CHECK_EMAIL, { email: account.email.toUpperCase() }), 400, "Email already registered")
      }))

    it.effect("missing, invalid or non-string email → 400 naming email", () =>
      Effect.gen(function*() {
        expectValidation(yield* post(CHECK_EMAIL, {}), { fields: ["email"] })
        expectValidation(yield* post(CHECK_EMAIL, { email: "nobody-at-example.com" }), { fields: ["email"] })
        expectValidation(yield* post(CHECK_EMAIL, { email: 42 }), { fields: ["email"] })
      }))
  })

  describe("POST /auth/forgot-password", () => {
    it.effect("a known email → 200 and a 6-digit reset code is emailed", () =>
      Effect.gen(function*() {
        const account = yield* register("forgot")
        expect(expectSuccess(yield* post(FORGOT, { email: account.email.toUpperCase() }))).toEqual({})
        const lines = outbox().filter((l) => l.to === account.email && l.kind === "password_reset")
        expect(lines).toHaveLength(1)
        expect(lines[0]).toMatchObject({ channel: "email" })
        expect(lines[0]!.code).toMatch(/^\d{6}$/)
      }))

    it.effect("an unknown email → 400 'Account not found'", () =>
      Effect.gen(function*() {
        expectFailure(yield* post(FORGOT, { email: uniqueEmail("unknown") }), 400, "Account not found")
      }))

    it.effect("a second request within 60 s → 429 with error.retryAfterSeconds", () =>
      Effect.gen(function*() {
        const account = yield* register("forgot429")
        expectSuccess(yield* post(FORGOT, { email: account.email }))
        const error = expectFailure(yield* post(FORGOT, { email: account.email }), 429, /^Please wait \d+ seconds/)
        expect(error.retryAfterSeconds).toBeGreaterThan(0)
        expect(error.retryAfterSeconds).toBeLessThanOrEqual(60)
      }))

    it.effect("missing or invalid email → 400 naming email", () =>
      Effect.gen(function*() {
        expectValidation(yield* post(FORGOT, {}), { fields: ["email"] })
        expectValidation(yield* post(FORGOT, { email: "x" }), { fields: ["email"] })
      }))
  })

  describe("POST /auth/reset-password", () => {
    it.effect("success: old password refused, new one accepted, every refresh token revoked", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("reset")
        const session = expectSuccess(yield* login({ email: account.email, password: account.password }))
        const code = yield* resetCodeFor(account.email)
        const reply = yield* post(RESET, { email: account.email, code, password: "brand-new-pass-1" })
        expect(expectSuccess(reply)).toEqual({})
        expect(reply.text).not.toContain("brand-new-pass-1")
        expectFailure(yield* login({ email: account.email, password: account.password }), 401, "Invalid credentials")
        expectSuccess(yield* login({ email: account.email, password: "brand-new-pass-1" }))
        for (const refreshToken of [account.refreshToken, session.refreshToken]) {
          expect((yield* post("/api/v1/auth/refresh-token", { refreshToken })).status).toBe(401)
          expect((yield* post("/api/v1/auth/token", { refreshToken })).status).toBe(401)
        }
      }))

    it.effect("a wrong code → 401 'Invalid or expired OTP' and the password is unchanged", () =>
      Effect.gen(function*() {
        const account = yield* register("resetwrong")
        const code = yield* resetCodeFor(account.email)
        expectFailure(
          yield* post(RESET, { email: account.email, code: otherCode(code), password: "another-pass-1" }),
          401,
          GATE_REJECTED
        )
        expectSuccess(yield* login({ email: account.email, password: account.password }))
        expectFailure(yield* login({ email: account.email, password: "another-pass-1" }), 401, "Invalid credentials")
      }))

    it.effect("no code requested, an expired code, or a used code → 401", () =>
      Effect.gen(function*() {
        const account = yield* register("resetnone")
        expectFailure(yield* post(RESET, { email: account.email, code: "123456", password: "another-pass-1" }), 401, GATE_REJECTED)
        const code = yield* resetCodeFor(account.email)
        yield* expireOtps(account.id)
        expectFailure(yield* post(RESET, { email: account.email, code, password: "another-pass-1" }), 401, GATE_REJECTED)

        const other = yield* register("resetused")
        const otherCodeValue = yield* resetCodeFor(other.email)
        expectSuccess(yield* post(RESET, { email: other.email, code: otherCodeValue, password: "another-pass-1" }))
        expectFailure(
          yield* post(RESET, { email: other.email, code: otherCodeValue, password: "yet-another-pass-2" }),
          401,
          GATE_REJECTED
        )
      }))

    it.effect("an email-verification code is not a reset code", () =>
      Effect.gen(function*() {
        const account = yield* register("resetpurpose")
        expectSuccess(yield* post("/api/v1/auth/otp/email/send", { accountId: account.id }))
        const code = lastCode(account.email, "email_verification")
        expectFailure(yield* post(RESET, { email: account.email, code, password: "another-pass-1" }), 401, GATE_REJECTED)
      }))

    it.effect("an unknown email → 401", () =>
      Effect.gen(function*() {
        expectFailure(
          yield* post(RESET, { email: uniqueEmail("resetghost"), code: "123456", password: "another-pass-1" }),
          401,
          GATE_REJECTED
        )
      }))

    it.effect("the same password again → 400 and spends the code; a new one comes at once", () =>
      Effect.gen(function*() {
        const account = yield* register("resetsame")
        const code = yield* resetCodeFor(account.email)
        expectFailure(
          yield* post(RESET, { email: account.email, code, password: account.password }),
          400,
          "New password must be different from the current password"
        )
        expectFailure(yield* post(RESET, { email: account.email, code, password: "different-pass-1" }), 401, "Invalid or expired OTP")
        const fresh = yield* resetCodeFor(account.email)
        expectSuccess(yield* post(RESET, { email: account.email, code: fresh, password: "different-pass-1" }))
      }))

    it.effect("missing fields and a short password → 400 naming the field", () =>
      Effect.gen(function*() {
        const email = uniqueEmail("resetval")
        expectValidation(yield* post(RESET, { email, password: "long-enough-1" }), { fields: ["code"] })
        expectValidation(yield* post(RESET, { email, code: "123456" }), { fields: ["password"] })
        expectValidation(yield* post(RESET, { code: "123456", password: "long-enough-1" }), { fields: ["email"] })
        expectValidation(yield* post(RESET, { email, code: "123456", password: "short" }), { fields: ["password"] })
      }))
  })

  describe("POST /auth/otp/request (bearer)", () => {
    it.effect("returns {pinId} and emails a 6-digit code to the registered email", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("otpreq")
        const reply = yield* post(OTP_REQUEST, undefined, account.accessToken)
        const result = expectSuccess(reply)
        expect(Object.keys(result)).toEqual(["pinId"])
        expect(result.pinId).toMatch(UUID_PATTERN)
        const lines = outbox().filter((l) => l.to === account.email && l.kind === "action_confirmation")
        expect(lines).toHaveLength(1)
        expect(lines[0]).toMatchObject({ channel: "email", to: account.email })
        expect(lines[0]!.code).toMatch(/^\d{6}$/)
        expect(reply.text).not.toContain(lines[0]!.code!)
      }))

    it.effect("a second request within 60 s → 429", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("otpreq429")
        expectSuccess(yield* post(OTP_REQUEST, undefined, account.accessToken))
        const error = expectFailure(
          yield* post(OTP_REQUEST, undefined, account.accessToken),
          429,
          /^Please wait \d+ seconds/
        )
        expect(error.retryAfterSeconds).toBeGreaterThan(0)
      }))

    it.effect("without a token → 401 'Authentication required'", () =>
      Effect.gen(function*() {
        expectFailure(yield* post(OTP_REQUEST), 401, "Authentication required")
        expectFailure(yield* post(OTP_REQUEST, undefined, "garbage"), 401, "Authentication required")
      }))
  })

  describe("POST /auth/change-password (bearer)", () => {
    it.effect("success → 200; the old password is refused and the new one accepted", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("change")
        const { code, pinId } = yield* actionOtp(account)
        const reply = yield* post(CHANGE, {
          currentPassword: account.password,
          newPassword: "changed-pass-1",
          otpPinId: pinId,
          otpCode: code
        }, account.accessToken)
        expect(expectSuccess(reply)).toEqual({})
        expectFailure(yield* login({ email: account.email, password: account.password }), 401, "Invalid credentials")
        expectSuccess(yield* login({ email: account.email, password: "changed-pass-1" }))
      }))

    it.effect("a used code cannot change the password again", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("changeused")
        const { code, pinId } = yield* actionOtp(account)
        const body = { currentPassword: account.password, newPassword: "changed-pass-1", otpPinId: pinId, otpCode: code }
        expectSuccess(yield* post(CHANGE, body, account.accessToken))
        expectFailure(
          yield* post(CHANGE, { ...body, currentPassword: "changed-pass-1", newPassword: "changed-pass-2" }, account.accessToken),
          401,
          GATE_REJECTED
        )
      }))

    it.effect("a wrong current password → 401 'Invalid credentials'; the retry with a new code needs no wait", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("changecur")
        const { code, pinId } = yield* actionOtp(account)
        const error = expectFailure(
          yield* post(CHANGE, { currentPassword: "not-my-password", newPassword: "changed-pass-1", otpPinId: pinId, otpCode: code }, account.accessToken),
          401,
          "Invalid credentials"
        )
        expect(error.code).toBe("INVALID_CREDENTIALS")
        expectSuccess(yield* login({ email: account.email, password: account.password }))
        // the code was spent by that attempt: it cannot be used again
        expectFailure(
          yield* post(CHANGE, { currentPassword: account.password, newPassword: "changed-pass-1", otpPinId: pinId, otpCode: code }, account.accessToken),
          401,
          GATE_REJECTED
        )
        // and a new one is sent at once (no resend cooldown for a spent code)
        const fresh = yield* actionOtp(account)
        expectSuccess(yield* post(CHANGE, { currentPassword: account.password, newPassword: "changed-pass-1", otpPinId: fresh.pinId, otpCode: fresh.code }, account.accessToken))
        expectSuccess(yield* login({ email: account.email, password: "changed-pass-1" }))
      }))

    it.effect("a wrong code → 401 'Invalid or expired OTP'", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("changeotp")
        const { code, pinId } = yield* actionOtp(account)
        expectFailure(
          yield* post(CHANGE, { currentPassword: account.password, newPassword: "changed-pass-1", otpPinId: pinId, otpCode: otherCode(code) }, account.accessToken),
          401,
          GATE_REJECTED
        )
        expectSuccess(yield* login({ email: account.email, password: account.password }))
      }))

    it.effect("an unknown pinId → 401", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("changepin")
        expectFailure(
          yield* post(CHANGE, { currentPassword: account.password, newPassword: "changed-pass-1", otpPinId: randomUUID(), otpCode: "123456" }, account.accessToken),
          401,
          GATE_REJECTED
        )
      }))

    it.effect("another account's pinId and code → 401, and that code stays usable by its owner", () =>
      Effect.gen(function*() {
        const victim = yield* verifiedAccount("changevictim")
        const attacker = yield* verifiedAccount("changeattacker")
        const foreign = yield* actionOtp(victim)
        expectFailure(
          yield* post(CHANGE, { currentPassword: attacker.password, newPassword: "changed-pass-1", otpPinId: foreign.pinId, otpCode: foreign.code }, attacker.accessToken),
          401,
          GATE_REJECTED
        )
        expectSuccess(yield* login({ email: attacker.email, password: attacker.password }))
        expectSuccess(
          yield* post(CHANGE, { currentPassword: victim.password, newPassword: "victim-new-pass", otpPinId: foreign.pinId, otpCode: foreign.code }, victim.accessToken)
        )
      }))

    it.effect("a password-reset code is not an action code", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("changepurpose")
        expectSuccess(yield* post(FORGOT, { email: account.email }))
        const resetCode = lastCode(account.email, "password_reset")
        const { pinId } = yield* actionOtp(account)
        const actionCode = lastCode(account.email, "action_confirmation")
        if (resetCode !== actionCode) {
          expectFailure(
            yield* post(CHANGE, { currentPassword: account.password, newPassword: "changed-pass-1", otpPinId: pinId, otpCode: resetCode }, account.accessToken),
            401,
            GATE_REJECTED
          )
        }
      }))

    it.effect("missing fields and a short new password → 400 naming the field", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("changeval")
        const full = { currentPassword: account.password, newPassword: "changed-pass-1", otpPinId: randomUUID(), otpCode: "123456" }
        for (const field of ["currentPassword", "newPassword", "otpPinId", "otpCode"] as const) {
          const { [field]: _omitted, ...rest } = full
          expectValidation(yield* post(CHANGE, rest, account.accessToken), { fields: [field] })
        }
        expectValidation(yield* post(CHANGE, { ...full, newPassword: "short" }, account.accessToken), {
          fields: ["newPassword"]
        })
      }))

    it.effect("without a valid token → 401 'Authentication required'", () =>
      Effect.gen(function*() {
        const body = { currentPassword: "x-password", newPassword: "changed-pass-1", otpPinId: randomUUID(), otpCode: "123456" }
        expectFailure(yield* post(CHANGE, body), 401, "Authentication required")
        expectFailure(yield* post(CHANGE, body, "not.a.jwt"), 401, "Authentication required")
      }))
  })
})
