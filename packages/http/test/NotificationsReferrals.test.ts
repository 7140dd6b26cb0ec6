/**
 * PATCH /customers/notifications and GET /customers/referrals end to end, with the referral code of
 * POST /auth/register.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { api, expectFailure, expectSuccess, expectValidation, me, post, register, uniqueEmail, verifiedAccount } from "./support/Fixtures.js"
import { bankCustomer, inboundTransfer } from "./support/BankingFixtures.js"
import { outbox, TestServer } from "./support/TestServer.js"

const NOTIFICATIONS = "/api/v1/customers/notifications"
const REFERRALS = "/api/v1/customers/referrals"

const patchSettings = (body: unknown, token?: string) => api("PATCH", NOTIFICATIONS, body, token)
const referrals = (token?: string) => api("GET", REFERRALS, undefined, token)

layer(TestServer, { excludeTestServices: true, timeout: "90 seconds" })("notification settings and referrals", (it) => {
  describe("PATCH /customers/notifications", () => {
    it.effect("sets either flag or both; the profile shows them", () =>
      Effect.gen(function*() {
        const c = yield* verifiedAccount("notif")
        expect(expectSuccess(yield* me(c.accessToken), { apiObject: "Customer" }).notificationSettings).toEqual({ smsEnabled: true, emailEnabled: true })
        expect(expectSuccess(yield* patchSettings({ smsEnabled: false }, c.accessToken), {
          apiObject: "Customer",
          message: "Notification settings updated."
        })).toEqual({ smsEnabled: false, emailEnabled: true })
        expect(expectSuccess(yield* patchSettings({ emailEnabled: false }, c.accessToken), { apiObject: "Customer" }))
          .toEqual({ smsEnabled: false, emailEnabled: false })
        expect(expectSuccess(yield* me(c.accessToken), { apiObject: "Customer" }).notificationSettings).toEqual({ smsEnabled: false, emailEnabled: false })
        expect(expectSuccess(yield* patchSettings({ smsEnabled: true, emailEnabled: true }, c.accessToken), { apiObject: "Customer" }))
          .toEqual({ smsEnabled: true, emailEnabled: true })
      }))

    it.effect("neither flag → 400 with a formError; a non-boolean → 400 naming the field; nothing changes", () =>
      Effect.gen(function*() {
        const c = yield* verifiedAccount("notif-bad")
        const neither = expectValidation(yield* patchSettings({}, c.accessToken), { fields: [], form: true, apiObject: "Customer" })
        expect(neither.formErrors).toEqual(["Provide smsEnabled, emailEnabled or both"])
        expectValidation(yield* patchSettings({ smsEnabled: "no" }, c.accessToken), { fields: ["smsEnabled"], apiObject: "Customer" })
        expectValidation(yield* patchSettings({ emailEnabled: null }, c.accessToken), { fields: ["emailEnabled"], apiObject: "Customer" })
        expect(expectSuccess(yield* me(c.accessToken), { apiObject: "Customer" }).notificationSettings).toEqual({ smsEnabled: true, emailEnabled: true })
      }))

    it.effect("401 without a token", () =>
      Effect.gen(function*() {
        expect(expectFailure(yield* patchSettings({ smsEnabled: false }), 401, "Authentication required", "Customer").code).toBe(
          "AUTHENTICATION_REQUIRED"
        )
      }))

    it.effect("email off: the one-time codes still arrive", () =>
      Effect.gen(function*() {
        const c = yield* verifiedAccount("notif-otp")
        expectSuccess(yield* patchSettings({ emailEnabled: false, smsEnabled: false }, c.accessToken), { apiObject: "Customer" })
        expectSuccess(yield* post("/api/v1/auth/otp/request", undefined, c.accessToken))
        expect(outbox().filter((m) => m.to === c.email && m.kind === "action_confirmation")).toHaveLength(1)
      }))
  })

  describe("GET /customers/referrals", () => {
    it.effect("the code, whom it brought in, and who made a first deposit (the referrer is emailed then)", () =>
      Effect.gen(function*() {
        const referrer = yield* verifiedAccount("referrer")
        const code = expectSuccess(yield* me(referrer.accessToken), { apiObject: "Customer" }).referralCode as string
        expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/)
        expect(expectSuccess(yield* referrals(referrer.accessToken), { apiObject: "Customer" })).toEqual({
          referralCode: code,
          totalReferred: 0,
          successfulReferrals: 0,
          referrals: []
        })

        // one referred customer only registers; the other opens a bank account and is funded
        yield* register("referred-idle", { referralCode: code.toLowerCase() })
        const funded = yield* bankCustomer("referred-funded", { referralCode: ` ${code} ` })
        const before = expectSuccess(yield* referrals(referrer.accessToken), { apiObject: "Customer" })
        expect(before).toMatchObject({ totalReferred: 2, successfulReferrals: 0 })
        expect(before.referrals.map((r: any) => r.successful)).toEqual([false, false])

        yield* inboundTransfer(funded.accountNumber, 100_000n)
        expectSuccess(yield* post("/api/v1/transactions/deposit/sync", undefined, funded.accessToken), { apiObject: "Transaction" })
        const after = expectSuccess(yield* referrals(referrer.accessToken), { apiObject: "Customer" })
        expect(after).toMatchObject({ referralCode: code, totalReferred: 2, successfulReferrals: 1 })
        const success = after.referrals.find((r: any) => r.successful)
        expect(success).toMatchObject({ name: "Ada O.", successful: true, firstDepositAt: expect.any(String) })
        expect(Object.keys(success).sort()).toEqual(["firstDepositAt", "joinedAt", "name", "successful"])
        expect(outbox().filter((m) => m.to === referrer.email && m.kind === "referral_success")).toHaveLength(1)
      }))

    it.effect("an unknown referral code at registration → 400 naming referralCode; no account is created", () =>
      Effect.gen(function*() {
        const email = uniqueEmail("badref")
        for (const referralCode of ["ZZZZZZZZ", "0OIL1234", "x"]) {
          const error = expectValidation(yield* post("/api/v1/auth/register", { email, password: "long-enough-1", referralCode }), {
            fields: ["referralCode"]
          })
          expect(error.fieldErrors.referralCode).toEqual(["Unknown referral code"])
        }
        expectValidation(yield* post("/api/v1/auth/register", { email, password: "long-enough-1", referralCode: 42 }), { fields: ["referralCode"] })
        expectSuccess(yield* post("/api/v1/auth/check-email", { email }))
      }))

    it.effect("401 without a token", () =>
      Effect.gen(function*() {
        expectFailure(yield* referrals(), 401, "Authentication required", "Customer")
      }))
  })
})
