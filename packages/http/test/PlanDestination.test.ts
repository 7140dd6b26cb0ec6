/**
 * Issue 37, item 6: POST /disbursements/plan must not redirect an existing plan's payouts without
 * the OTP. PATCH demands the code; POST on an existing plan changed the destination with none, so a
 * stolen 15-minute access token could send every future payout elsewhere. Played by the attacker
 * holding only the token: a POST that changes the account number or the bank of an existing plan
 * needs otpPinId/otpCode exactly as PATCH does; the spec's upsert of the other fields stays.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectFailure, expectSuccess, expectValidation, otherCode } from "./support/Fixtures.js"
import { actionOtp, bankCustomer } from "./support/BankingFixtures.js"
import { DISBURSEMENT, deposit, getPlan, planBody, planCustomer, savePlan } from "./support/PlanFixtures.js"
import { TestServer } from "./support/TestServer.js"

const MULE = "0123459999"
const BAD_OTP = "Invalid or expired OTP"

layer(TestServer, { excludeTestServices: true, timeout: "90 seconds" })("POST /disbursements/plan and the destination", (it) => {
  describe("a stolen token alone cannot redirect the payouts", () => {
    it.effect("a new account number or bank without the OTP is 400 naming otpPinId and otpCode; the plan is unchanged", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("dest-no-otp")
        const before = yield* getPlan(c.accessToken)
        for (const change of [{ withdrawalAccountNumber: MULE }, { withdrawalBankCode: "000014" }]) {
          const reply = yield* savePlan(c.accessToken, { ...c.body, ...change })
          const error = expectValidation(reply, { fields: ["otpPinId", "otpCode"], apiObject: DISBURSEMENT })
          expect(error.code).toBe("VALIDATION_ERROR")
        }
        expect(yield* getPlan(c.accessToken)).toEqual(before)
      }))

    it.effect("a wrong, unknown or reused code is 401 and changes nothing; the right one moves the destination", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("dest-otp")
        const before = yield* getPlan(c.accessToken)
        const moved = { ...c.body, withdrawalAccountNumber: MULE }
        const otp = yield* actionOtp(c.accessToken, c.email)
        expect(expectFailure(yield* savePlan(c.accessToken, { ...moved, otpPinId: otp.otpPinId, otpCode: otherCode(otp.otpCode) }), 401, BAD_OTP, DISBURSEMENT).code)
          .toBe("OTP_INVALID")
        // the wrong guess spent the code, as on PATCH
        expectFailure(yield* savePlan(c.accessToken, { ...moved, ...otp }), 401, BAD_OTP, DISBURSEMENT)
        expectFailure(yield* savePlan(c.accessToken, { ...moved, otpPinId: randomUUID(), otpCode: "123456" }), 401, BAD_OTP, DISBURSEMENT)
        expect(yield* getPlan(c.accessToken)).toEqual(before)

        const fresh = yield* actionOtp(c.accessToken, c.email)
        const saved = expectSuccess(yield* savePlan(c.accessToken, { ...moved, ...fresh }), { apiObject: DISBURSEMENT })
        expect(saved).toMatchObject({ id: before.id, withdrawalAccountNumber: MULE, active: true })
        expectFailure(yield* savePlan(c.accessToken, { ...c.body, ...fresh }), 401, BAD_OTP, DISBURSEMENT)
      }))
  })

  describe("what stays as the spec says", () => {
    it.effect("creating a plan, and editing its other fields (time, name, amount) by POST, need no code", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("dest-upsert")
        yield* deposit(c.accessToken, 2_000_000)
        const created = expectSuccess(yield* savePlan(c.accessToken, planBody({ withdrawalAccountNumber: MULE })), { apiObject: DISBURSEMENT })
        const edited = expectSuccess(
          yield* savePlan(c.accessToken, planBody({ withdrawalAccountNumber: MULE, scheduledTime: "23:10", withdrawalAccountName: "Ada O." })),
          { apiObject: DISBURSEMENT }
        )
        expect(edited).toMatchObject({ id: created.id, scheduledTime: "23:10", withdrawalAccountName: "Ada O.", withdrawalAccountNumber: MULE })
        const bigger = expectSuccess(yield* savePlan(c.accessToken, planBody({ withdrawalAccountNumber: MULE, totalAmountKobo: 1_400_000 })), {
          apiObject: DISBURSEMENT
        })
        expect(bigger).toMatchObject({ id: created.id, totalAmountKobo: "1400000" })
        // a code sent along when nothing needs it is not spent
        const otp = yield* actionOtp(c.accessToken, c.email)
        expectSuccess(yield* savePlan(c.accessToken, { ...planBody({ withdrawalAccountNumber: MULE }), ...otp }), { apiObject: DISBURSEMENT })
        expectSuccess(yield* savePlan(c.accessToken, { ...planBody({ withdrawalAccountNumber: "0123450001" }), ...otp }), { apiObject: DISBURSEMENT })
        expect((yield* getPlan(c.accessToken)).withdrawalAccountNumber).toBe("0123450001")
      }))
  })
})
