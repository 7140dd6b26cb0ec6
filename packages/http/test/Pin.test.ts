/**
 * The transaction PIN over HTTP: POST /auth/pin (set, change), /auth/pin/verify and /auth/pin/reset,
 * every status of the spec, the lock (423 with Retry-After, even for the right PIN) and the atomic
 * count of concurrent wrong tries, and the freeze after three lockouts (reached here by resetting
 * the PIN between lockouts; the rolling 24 hours are covered with the TestClock in the domain tests,
 * packages/domain/test/Pin.test.ts).
 */
import { describe, expect, layer } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { SandboxBank } from "@app/sandbox"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectFailure, expectSuccess, expectValidation, login, me, post, verifiedAccount } from "./support/Fixtures.js"
import { actionOtp, bankCustomer } from "./support/BankingFixtures.js"
import { TestServer } from "./support/TestServer.js"

const PIN = "/api/v1/auth/pin"
const VERIFY = "/api/v1/auth/pin/verify"
const RESET = "/api/v1/auth/pin/reset"

const withPin = (tag: string, pin = "1234") =>
  Effect.gen(function*() {
    const account = yield* verifiedAccount(tag)
    expectSuccess(yield* post(PIN, { pin }, account.accessToken))
    return account
  })

layer(TestServer, { excludeTestServices: true, timeout: "90 seconds" })("transaction PIN", (it) => {
  describe("POST /auth/pin", () => {
    it.effect("sets the first PIN; hasPin becomes true in the profile and in the sign-in answer", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("pin-set")
        expect(expectSuccess(yield* me(account.accessToken), { apiObject: "Customer" }).hasPin).toBe(false)
        expect(expectSuccess(yield* login({ email: account.email, password: account.password })).hasPin).toBe(false)
        expectSuccess(yield* post(PIN, { pin: "0000" }, account.accessToken))
        expect(expectSuccess(yield* me(account.accessToken), { apiObject: "Customer" }).hasPin).toBe(true)
        expect(expectSuccess(yield* login({ email: account.email, password: account.password })).hasPin).toBe(true)
        expectSuccess(yield* post(VERIFY, { pin: "0000" }, account.accessToken))
      }))

    it.effect("400 for a PIN that is not exactly 4 digits, naming the field; never counted as a try", () =>
      Effect.gen(function*() {
        const account = yield* withPin("pin-format")
        for (const pin of ["123", "12345", "12a4", " 1234", "١٢٣٤", ""]) {
          const error = expectValidation(yield* post(VERIFY, { pin }, account.accessToken), { fields: ["pin"] })
          expect(error.code).toBe("VALIDATION_ERROR")
        }
        expectValidation(yield* post(VERIFY, { pin: 1234 }, account.accessToken), { fields: ["pin"] })
        expectValidation(yield* post(VERIFY, {}, account.accessToken), { fields: ["pin"] })
        expectValidation(yield* post(PIN, { pin: "9999", currentPin: "12" }, account.accessToken), { fields: ["currentPin"] })
        // none of the above counted: five wrong tries are still needed for the lock
        for (let i = 0; i < 4; i++) expectFailure(yield* post(VERIFY, { pin: "9999" }, account.accessToken), 401, "Incorrect PIN")
        expectSuccess(yield* post(VERIFY, { pin: "1234" }, account.accessToken))
      }))

    it.effect("changing needs the current PIN: 400 without it, 401 when wrong, 200 when right", () =>
      Effect.gen(function*() {
        const account = yield* withPin("pin-change")
        const missing = expectFailure(yield* post(PIN, { pin: "5678" }, account.accessToken), 400, /currentPin is required/)
        expect(missing.code).toBe("CURRENT_PIN_REQUIRED")
        const wrong = expectFailure(yield* post(PIN, { pin: "5678", currentPin: "4321" }, account.accessToken), 401, "Incorrect PIN")
        expect(wrong.code).toBe("PIN_INCORRECT")
        expectSuccess(yield* post(PIN, { pin: "5678", currentPin: "1234" }, account.accessToken))
        expectFailure(yield* post(VERIFY, { pin: "1234" }, account.accessToken), 401, "Incorrect PIN")
        expectSuccess(yield* post(VERIFY, { pin: "5678" }, account.accessToken))
      }))

    it.effect("401 without a token, on every PIN endpoint", () =>
      Effect.gen(function*() {
        for (const url of [PIN, VERIFY, RESET]) {
          const error = expectFailure(yield* post(url, { pin: "1234" }), 401, "Authentication required")
          expect(error.code).toBe("AUTHENTICATION_REQUIRED")
        }
      }))
  })

  describe("POST /auth/pin/verify", () => {
    it.effect("400 PIN_NOT_SET before a PIN is set", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("pin-unset")
        const error = expectFailure(yield* post(VERIFY, { pin: "1234" }, account.accessToken), 400, /Set a transaction PIN/)
        expect(error.code).toBe("PIN_NOT_SET")
      }))

    it.effect("the 5th wrong PIN locks for 15 minutes: 423 with Retry-After, even for the right PIN", () =>
      Effect.gen(function*() {
        const account = yield* withPin("pin-lock")
        for (let i = 0; i < 4; i++) expectFailure(yield* post(VERIFY, { pin: "0000" }, account.accessToken), 401, "Incorrect PIN")
        const locking = yield* post(VERIFY, { pin: "0000" }, account.accessToken)
        const error = expectFailure(locking, 423, /Too many incorrect PINs/)
        expect(error.code).toBe("PIN_LOCKED")
        expect(error.retryAfterSeconds).toBeGreaterThan(14 * 60)
        expect(error.retryAfterSeconds).toBeLessThanOrEqual(15 * 60)
        expect(locking.headers["retry-after"]).toBe(String(error.retryAfterSeconds))
        const right = yield* post(VERIFY, { pin: "1234" }, account.accessToken)
        expect(expectFailure(right, 423, /Too many incorrect PINs/).code).toBe("PIN_LOCKED")
        expect(Number(right.headers["retry-after"])).toBeGreaterThan(0)
        // changing the PIN is a try too
        expectFailure(yield* post(PIN, { pin: "5555", currentPin: "1234" }, account.accessToken), 423, /Too many incorrect PINs/)
      }))

    it.effect("a right PIN clears the count of wrong ones", () =>
      Effect.gen(function*() {
        const account = yield* withPin("pin-clear")
        for (let round = 0; round < 2; round++) {
          for (let i = 0; i < 4; i++) expectFailure(yield* post(VERIFY, { pin: "0000" }, account.accessToken), 401, "Incorrect PIN")
          expectSuccess(yield* post(VERIFY, { pin: "1234" }, account.accessToken))
        }
      }))

    it.effect("20 concurrent wrong PINs buy exactly 5 tries: 4 answer 401, the rest 423", () =>
      Effect.gen(function*() {
        const account = yield* withPin("pin-race")
        const replies = yield* Effect.all(
          Array.from({ length: 20 }, () => post(VERIFY, { pin: "0000" }, account.accessToken)),
          { concurrency: "unbounded" }
        )
        const statuses = replies.map((r) => r.status)
        expect(statuses.filter((s) => s === 401)).toHaveLength(4)
        expect(statuses.filter((s) => s === 423)).toHaveLength(16)
        expectFailure(yield* post(VERIFY, { pin: "1234" }, account.accessToken), 423, /Too many incorrect PINs/)
      }))
  })

  describe("POST /auth/pin/reset", () => {
    it.effect("with a valid OTP: sets the new PIN and lifts a running lock", () =>
      Effect.gen(function*() {
        const account = yield* withPin("pin-reset")
        for (let i = 0; i < 5; i++) yield* post(VERIFY, { pin: "0000" }, account.accessToken)
        expectFailure(yield* post(VERIFY, { pin: "1234" }, account.accessToken), 423, /Too many incorrect PINs/)
        const otp = yield* actionOtp(account.accessToken, account.email)
        expectSuccess(yield* post(RESET, { pin: "2468", ...otp }, account.accessToken))
        expectSuccess(yield* post(VERIFY, { pin: "2468" }, account.accessToken))
        expectFailure(yield* post(VERIFY, { pin: "1234" }, account.accessToken), 401, "Incorrect PIN")
      }))

    it.effect("401 for an invalid OTP, 400 for a bad PIN or missing fields; nothing changes", () =>
      Effect.gen(function*() {
        const account = yield* withPin("pin-reset-bad")
        const otp = yield* actionOtp(account.accessToken, account.email)
        const wrongCode = otp.otpCode === "000000" ? "111111" : "000000"
        const bad = expectFailure(yield* post(RESET, { pin: "2468", otpPinId: otp.otpPinId, otpCode: wrongCode }, account.accessToken), 401, "Invalid or expired OTP")
        expect(bad.code).toBe("OTP_INVALID")
        expectFailure(yield* post(RESET, { pin: "2468", otpPinId: randomUUID(), otpCode: otp.otpCode }, account.accessToken), 401, "Invalid or expired OTP")
        expectValidation(yield* post(RESET, { pin: "24680", otpPinId: otp.otpPinId, otpCode: otp.otpCode }, account.accessToken), { fields: ["pin"] })
        expectValidation(yield* post(RESET, { pin: "2468" }, account.accessToken), { fields: ["otpPinId", "otpCode"] })
        expectSuccess(yield* post(VERIFY, { pin: "1234" }, account.accessToken))
      }))
  })

  describe("the freeze", () => {
    it.effect("three lockouts within 24 hours: suspended, core account frozen, sessions revoked, staff alerted", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("pin-freeze")
        expectSuccess(yield* post(PIN, { pin: "1234" }, c.accessToken))
        const fiveWrong = Effect.gen(function*() {
          for (let i = 0; i < 4; i++) expectFailure(yield* post(VERIFY, { pin: "0000" }, c.accessToken), 401, "Incorrect PIN")
          return yield* post(VERIFY, { pin: "0000" }, c.accessToken)
        })
        for (let lockout = 1; lockout <= 2; lockout++) {
          expect(expectFailure(yield* fiveWrong, 423, /Too many incorrect PINs/).code).toBe("PIN_LOCKED")
          // a reset lifts the lock but not the lockout history; its code comes without a wait
          const otp = yield* actionOtp(c.accessToken, c.email)
          expectSuccess(yield* post(RESET, { pin: "1234", ...otp }, c.accessToken))
        }
        const frozen = expectFailure(yield* fiveWrong, 403, "Account suspended")
        expect(frozen.code).toBe("ACCOUNT_SUSPENDED")

        // the account can do nothing more: the access token is refused, sessions are gone, no sign-in
        expectFailure(yield* post(VERIFY, { pin: "1234" }, c.accessToken), 403, "Account suspended")
        expect(expectFailure(yield* me(c.accessToken), 403, "Account suspended", "Customer").code).toBe("ACCOUNT_SUSPENDED")
        expect(expectFailure(yield* post("/api/v1/auth/refresh-token", { refreshToken: c.refreshToken }), 401, /./).code).toBe(
          "INVALID_REFRESH_TOKEN"
        )
        expect(expectFailure(yield* login({ email: c.email, password: c.password }), 403, "Account suspended").code).toBe(
          "ACCOUNT_SUSPENDED"
        )

        const sql = yield* SqlClient.SqlClient
        const [status] = yield* sql<{ customerStatus: string }>`SELECT customer_status FROM customers WHERE account_id = ${c.id}`
        expect(status?.customerStatus).toBe("suspended")
        const bankAccount = (yield* SandboxBank).accounts.get(c.accountNumber)
        const core = bankAccount && { frozen: bankAccount.frozen, freezeReference: bankAccount.freezeReference }
        expect(core).toMatchObject({ frozen: true, freezeReference: expect.stringMatching(/^FRZ\d+$/) })
        const kept = yield* sql<{ freezeReference: string }>`
          SELECT f.freeze_reference FROM provider_freezes f JOIN customers cu ON cu.id = f.customer_id WHERE cu.account_id = ${c.id}`
        expect(kept.map((r) => r.freezeReference)).toEqual([core!.freezeReference])
        const alerts = yield* sql<{ kind: string; severity: string }>`
          SELECT a.kind, a.severity FROM staff_alerts a JOIN customers cu ON cu.id = a.customer_id
          WHERE cu.account_id = ${c.id} AND a.acknowledged_at IS NULL`
        expect(alerts).toEqual([{ kind: "account_frozen_pin_lockout", severity: "critical" }])
      }))
  })
})
