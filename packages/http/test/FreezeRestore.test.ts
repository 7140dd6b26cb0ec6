/**
 * Unfreezing restores, never promotes (issue 37, item 9), and a four-eyes approval lifts only the
 * freeze it was filed for (issue 36). Played over HTTP against the real stack:
 * - a customer who was only `verified` (no bank account) is frozen by three PIN lockouts and then
 *   unfrozen by staff: they are `verified` again, not `active` without an account (stuck);
 * - under ADMIN_FOUR_EYES, an unfreeze request left pending while the customer was unfrozen by
 *   another request and frozen again for a new reason cannot lift the new freeze when approved late.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminGet, adminServer, member, rootToken } from "./support/AdminFixtures.js"
import { actionOtp, bankCustomer, bvnBody, createAccount, verifyBvn } from "./support/BankingFixtures.js"
import { expectFailure, expectSuccess, me, post, verifiedAccount } from "./support/Fixtures.js"
import { CustomerId } from "@app/domain"

const CUSTOMERS = "/api/v1/admin/customers"
const PIN = "/api/v1/auth/pin"
const VERIFY = "/api/v1/auth/pin/verify"
const RESET = "/api/v1/auth/pin/reset"

const freeze = (id: string, reason: string, token: string) => post(`${CUSTOMERS}/${id}/freeze`, { reason }, token)
const unfreeze = (id: string, token: string) => post(`${CUSTOMERS}/${id}/unfreeze`, undefined, token)
const statusOf = (customerId: CustomerId, token: string) =>
  Effect.map(adminGet(`${CUSTOMERS}/${customerId}`, token), (r) => expectSuccess(r, { apiObject: "Admin" }).customer.customerStatus)

/** Three PIN lockouts (a reset between them): the account is frozen (403 suspended on the third). */
const freezeByPinLockouts = (c: { readonly accessToken: string; readonly email: string }) =>
  Effect.gen(function*() {
    expectSuccess(yield* post(PIN, { pin: "1234" }, c.accessToken))
    const fiveWrong = Effect.gen(function*() {
      for (let i = 0; i < 4; i++) expectFailure(yield* post(VERIFY, { pin: "0000" }, c.accessToken), 401, "Incorrect PIN")
      return yield* post(VERIFY, { pin: "0000" }, c.accessToken)
    })
    for (let lockout = 1; lockout <= 2; lockout++) {
      expectFailure(yield* fiveWrong, 423, /Too many incorrect PINs/)
      expectSuccess(yield* post(RESET, { pin: "1234", ...(yield* actionOtp(c.accessToken, c.email)) }, c.accessToken))
    }
    expectFailure(yield* fiveWrong, 403, "Account suspended")
  })

layer(adminServer(), { excludeTestServices: true, timeout: "120 seconds" })("unfreeze restores the status before the freeze", (it) => {
  describe("a PIN-lockout freeze", () => {
    it.effect("of a verified customer without a bank account: the unfreeze gives back `verified`, and the account can still be opened", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const c = yield* verifiedAccount("pin-frozen-verified")
        expectSuccess(yield* verifyBvn(bvnBody(), c.accessToken), { message: "BVN verified." })
        expect(expectSuccess(yield* me(c.accessToken), { apiObject: "Customer" }).customerStatus).toBe("verified")
        yield* freezeByPinLockouts(c)
        expect(yield* statusOf(c.customerId, token)).toBe("suspended")

        const lifted = expectSuccess(yield* unfreeze(c.customerId, token), { apiObject: "Admin", message: "Customer unfrozen." })
        expect(lifted).toMatchObject({ frozen: false, customerStatus: "verified" })
        expect(yield* statusOf(c.customerId, token)).toBe("verified")
        // not stuck: signing in again, the customer opens the bank account that `active` requires
        const tokens = expectSuccess(yield* post("/api/v1/auth/login", { email: c.email, password: c.password }))
        expect(expectSuccess(yield* createAccount(tokens.accessToken), { status: 201, apiObject: "Customer" }).accountNumber).toMatch(/^\d{10}$/)
        expect(yield* statusOf(c.customerId, token)).toBe("active")
      }))

    it.effect("then a staff freeze on top, then the unfreeze: still the status before the first freeze", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const c = yield* verifiedAccount("pin-then-staff")
        yield* freezeByPinLockouts(c)
        const staffFreeze = expectSuccess(yield* freeze(c.customerId, "reviewing the lockouts", token), { apiObject: "Admin" })
        expect(staffFreeze.customerStatus).toBe("suspended")
        expect(expectSuccess(yield* unfreeze(c.customerId, token), { apiObject: "Admin" }).customerStatus).toBe("verified")
      }))

    it.effect("of an active customer: the unfreeze gives back `active` and lifts the bank's freeze", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const c = yield* bankCustomer("pin-frozen-active")
        yield* freezeByPinLockouts(c)
        expect(expectSuccess(yield* unfreeze(c.customerId, token), { apiObject: "Admin" })).toMatchObject({
          customerStatus: "active",
          providerFreeze: "lifted"
        })
      }))
  })
})

layer(adminServer({ adminFourEyes: true }), { excludeTestServices: true, timeout: "120 seconds" })("four-eyes approvals are bound to one freeze", (it) => {
  it.effect("a stale unfreeze request, approved after the customer was frozen again, is refused (409) and lifts nothing", () =>
    Effect.gen(function*() {
      const token = yield* rootToken
      const c = yield* bankCustomer("stale-approval")
      const first = expectSuccess(yield* freeze(c.customerId, "suspected takeover", token), { apiObject: "Admin" })
      const asker = yield* member("admin")
      const stale = expectSuccess(yield* unfreeze(c.customerId, asker.token), { status: 202, apiObject: "Admin" }).pendingApproval
      expect(stale.action).toMatchObject({ _tag: "customer.unfreeze", customerId: c.customerId, freezeId: first.freezeId })
      // another request lifts the first freeze
      const other = yield* member("admin")
      const lifting = expectSuccess(yield* unfreeze(c.customerId, other.token), { status: 202, apiObject: "Admin" }).pendingApproval
      const approver = yield* member("admin")
      expectSuccess(yield* post(`/api/v1/admin/approvals/${lifting.id}/approve`, undefined, approver.token), { apiObject: "Admin" })
      expect(yield* statusOf(c.customerId, token)).toBe("active")

      // a new incident: frozen again
      const second = expectSuccess(yield* freeze(c.customerId, "fraud confirmed by the bank", token), { apiObject: "Admin" })
      expect(second.freezeId).not.toBe(first.freezeId)
      // the old request, approved now, must not lift the new freeze
      const refused = expectFailure(
        yield* post(`/api/v1/admin/approvals/${stale.id}/approve`, undefined, approver.token),
        409,
        /freeze this request was filed for/,
        "Admin"
      )
      expect(refused.code).toBe("APPROVAL_STALE")
      expect(yield* statusOf(c.customerId, token)).toBe("suspended")
      expect(expectFailure(yield* me(c.accessToken), 403, "Account suspended", "Customer").code).toBe("ACCOUNT_SUSPENDED")
      // a request filed for the new freeze works
      const fresh = expectSuccess(yield* unfreeze(c.customerId, asker.token), { status: 202, apiObject: "Admin" }).pendingApproval
      expect(fresh.action.freezeId).toBe(second.freezeId)
      expectSuccess(yield* post(`/api/v1/admin/approvals/${fresh.id}/approve`, undefined, approver.token), { apiObject: "Admin" })
      expect(yield* statusOf(c.customerId, token)).toBe("active")
    }))
})
