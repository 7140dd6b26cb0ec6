/**
 * Freezing and unfreezing customers in the back office, end to end with the sandbox bank: the
 * customer is locked out and the core account frozen, unfreezing restores both; every movement's
 * state changes reach the audit chain; four-eyes (ADMIN_FOUR_EYES=true) makes unfreezes and
 * settings changes wait for a second member.
 */
import { StaffAccess } from "@app/domain"
import { SandboxBank } from "@app/sandbox"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { adminGet, adminServer, member, rootToken, sandboxTransfer } from "./support/AdminFixtures.js"
import { bankCustomer } from "./support/BankingFixtures.js"
import { api, expectFailure, expectSuccess, expectValidation, login, me, post, verifiedAccount } from "./support/Fixtures.js"
import { deposit } from "./support/PlanFixtures.js"

const CUSTOMERS = "/api/v1/admin/customers"
const freeze = (id: string, body: unknown, token?: string) => post(`${CUSTOMERS}/${id}/freeze`, body, token)
const unfreeze = (id: string, token?: string) => post(`${CUSTOMERS}/${id}/unfreeze`, undefined, token)

const coreAccount = (accountNumber: string) =>
  Effect.map(SandboxBank, (bank) => {
    const account = bank.accounts.get(accountNumber)!
    return { frozen: account.frozen, freezeReference: account.freezeReference }
  })

/** The reference under which the sandbox bank holds the account's freeze (a change made at the bank, in its memory). */
const setBankFreezeReference = (accountNumber: string, reference: string) =>
  Effect.map(SandboxBank, (bank) => {
    bank.accounts.get(accountNumber)!.freezeReference = reference
  })

layer(adminServer(), { excludeTestServices: true, timeout: "90 seconds" })("admin freeze", (it) => {
  describe("POST /admin/customers/{id}/freeze and /unfreeze", () => {
    it.effect("freeze locks the customer out and freezes the core account; unfreeze restores both; both audited", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const c = yield* bankCustomer("freeze")
        const frozen = expectSuccess(yield* freeze(c.customerId, { reason: "  possible account takeover " }, token), {
          apiObject: "Admin",
          message: "Customer frozen."
        })
        expect(frozen).toMatchObject({ frozen: true, customerStatus: "suspended", providerFreeze: "frozen" })
        expect((yield* coreAccount(c.accountNumber)).frozen).toBe(true)
        expect(expectFailure(yield* me(c.accessToken), 403, "Account suspended", "Customer").code).toBe("ACCOUNT_SUSPENDED")
        expectFailure(yield* post("/api/v1/auth/refresh-token", { refreshToken: c.refreshToken }), 401, /./)
        expectFailure(yield* login({ email: c.email, password: c.password }), 403, "Account suspended")
        // freezing again answers the same
        expect(expectSuccess(yield* freeze(c.customerId, { reason: "again" }, token), { apiObject: "Admin" }).freezeId).toBe(frozen.freezeId)

        const lifted = expectSuccess(yield* unfreeze(c.customerId, token), { apiObject: "Admin", message: "Customer unfrozen." })
        expect(lifted).toMatchObject({ frozen: false, customerStatus: "active", providerFreeze: "lifted" })
        expect((yield* coreAccount(c.accountNumber)).frozen).toBe(false)
        expectSuccess(yield* login({ email: c.email, password: c.password }))

        const file = expectSuccess(yield* adminGet(`${CUSTOMERS}/${c.customerId}`, token), { apiObject: "Admin" })
        expect(file.customer.customerStatus).toBe("active")
        const actions = file.audit.map((a: any) => a.action)
        expect(actions).toEqual(expect.arrayContaining(["customer.freeze", "customer.freeze.provider", "customer.unfreeze"]))
        const row = file.audit.find((a: any) => a.action === "customer.freeze")
        expect(row.after).toMatchObject({ customerStatus: "suspended", reason: "possible account takeover" })
      }))

    it.effect("400 without a reason or with a malformed id; 404 unknown; 409 unfreezing an active customer; 403 for support", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const c = yield* verifiedAccount("freeze-refusals")
        expectValidation(yield* freeze(c.customerId, {}, token), { fields: ["reason"], apiObject: "Admin" })
        expectValidation(yield* freeze(c.customerId, { reason: "   " }, token), { fields: ["reason"], apiObject: "Admin" })
        expectValidation(yield* freeze(c.customerId, { reason: "x".repeat(501) }, token), { fields: ["reason"], apiObject: "Admin" })
        expectValidation(yield* freeze("not-a-uuid", { reason: "x" }, token), { apiObject: "Admin" })
        expect(expectFailure(yield* freeze(randomUUID(), { reason: "x" }, token), 404, "Customer not found", "Admin").code).toBe("CUSTOMER_NOT_FOUND")
        const active = expectFailure(yield* unfreeze(c.customerId, token), 409, "Only a suspended customer can be unfrozen", "Admin")
        expect(active).toEqual({ code: "CUSTOMER_NOT_SUSPENDED", customerStatus: "verified" })
        const support = yield* member("support")
        const denied = expectFailure(yield* freeze(c.customerId, { reason: "x" }, support.token), 403, "Your role does not allow this", "Admin")
        expect(denied.permission).toBe("customers:freeze")
        expectFailure(yield* freeze(c.customerId, { reason: "x" }), 401, "Authentication required", "Admin")
        expectFailure(yield* freeze(c.customerId, { reason: "x" }, c.accessToken), 401, "Authentication required", "Admin")
        // a customer without a bank account is frozen on our side only
        const out = expectSuccess(yield* freeze(c.customerId, { reason: "no bank account yet" }, token), { apiObject: "Admin" })
        expect(out).toMatchObject({ customerStatus: "suspended", providerFreeze: "no_core_account" })
        // and the unfreeze gives back the status it had (verified), not active
        expect(expectSuccess(yield* unfreeze(c.customerId, token), { apiObject: "Admin" }).customerStatus).toBe("verified")
      }))
  })

  describe("unfreeze refusals", () => {
    it.effect("404 unknown, 400 malformed id; the bank refusing the unfreeze is a 502 and the customer stays suspended and frozen", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        expect(expectFailure(yield* unfreeze(randomUUID(), token), 404, "Customer not found", "Admin").code).toBe("CUSTOMER_NOT_FOUND")
        expectValidation(yield* unfreeze("not-a-uuid", token), { fields: ["id"], apiObject: "Admin" })
        const c = yield* bankCustomer("unfreeze-refused")
        expect(expectSuccess(yield* freeze(c.customerId, { reason: "check" }, token), { apiObject: "Admin" }).providerFreeze).toBe("frozen")
        const held = yield* coreAccount(c.accountNumber)
        // someone at the bank re-froze the account under another reference: ours no longer matches ("57")
        yield* setBankFreezeReference(c.accountNumber, "FRZ-BY-THE-BANK")
        const failed = expectFailure(yield* unfreeze(c.customerId, token), 502, /did not unfreeze/, "Admin")
        expect(failed.code).toBe("PROVIDER_UNFREEZE_FAILED")
        expect(failed.reason).toMatch(/^57: /)
        expect((yield* coreAccount(c.accountNumber)).frozen).toBe(true)
        const file = expectSuccess(yield* adminGet(`${CUSTOMERS}/${c.customerId}`, token), { apiObject: "Admin" })
        expect(file.customer.customerStatus).toBe("suspended")
        expect(file.audit.map((a: any) => a.action)).not.toContain("customer.unfreeze")
        expect(expectFailure(yield* me(c.accessToken), 403, "Account suspended", "Customer").code).toBe("ACCOUNT_SUSPENDED")
        // once the bank's freeze is ours again, the same unfreeze goes through
        yield* setBankFreezeReference(c.accountNumber, held.freezeReference!)
        expect(expectSuccess(yield* unfreeze(c.customerId, token), { apiObject: "Admin" }).customerStatus).toBe("active")
        expect((yield* coreAccount(c.accountNumber)).frozen).toBe(false)
      }))
  })

  describe("movements in the audit log", () => {
    it.effect("every state change of a transfer is one chained audit row, folded by the audit-movements job", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const c = yield* bankCustomer("movement-audit")
        yield* deposit(c.accessToken, 1_000_000)
        const tx = yield* sandboxTransfer(c.accessToken, 50_000)
        expect(tx.status).toBe("confirmed")
        yield* StaffAccess.MovementAudit.foldMovementChanges
        const rows = expectSuccess(
          yield* adminGet(`/api/v1/admin/audit?targetKind=transaction&targetId=${tx.id}&pageSize=100`, token),
          { apiObject: "Admin" }
        ).items
        const oldestFirst = [...rows].reverse()
        expect(oldestFirst[0]).toMatchObject({ action: "movement.created", actorKind: "system", actorId: "movements", before: null })
        expect(oldestFirst[0].after).toMatchObject({ status: "pending", purpose: "manual_transfer", amountKobo: "50000", customerId: c.customerId })
        expect(oldestFirst.at(-1).after).toMatchObject({ status: "confirmed" })
        expect(oldestFirst.slice(1).every((r: any) => r.action === "movement.changed" && r.before !== null)).toBe(true)
        // each row changes something, and no account number is kept
        for (const r of oldestFirst.slice(1)) expect(r.before).not.toEqual(r.after)
        expect(JSON.stringify(rows)).not.toContain(c.accountNumber)
        expect(JSON.stringify(rows)).not.toContain("0123450001")
        // folded once: a second run adds nothing
        yield* StaffAccess.MovementAudit.foldMovementChanges
        const again = expectSuccess(
          yield* adminGet(`/api/v1/admin/audit?targetKind=transaction&targetId=${tx.id}&pageSize=100`, token),
          { apiObject: "Admin" }
        )
        expect(again.total).toBe(rows.length)
        expect(expectSuccess(yield* post("/api/v1/admin/audit/verify", undefined, token), { apiObject: "Admin" }).ok).toBe(true)
      }))
  })
})

layer(adminServer({ adminFourEyes: true }), { excludeTestServices: true, timeout: "90 seconds" })("admin four-eyes", (it) => {
  it.effect("an unfreeze waits (202) for a second admin; the requester cannot approve; approved once, then applied", () =>
    Effect.gen(function*() {
      const token = yield* rootToken
      const c = yield* bankCustomer("four-eyes")
      expectSuccess(yield* freeze(c.customerId, { reason: "check" }, token), { apiObject: "Admin" })
      const asking = yield* member("admin")
      const filed = expectSuccess(yield* unfreeze(c.customerId, asking.token), {
        status: 202,
        apiObject: "Admin",
        message: "Unfreeze filed for a second member's approval."
      }).pendingApproval
      expect(filed).toMatchObject({ status: "pending", requestedBy: asking.id, action: { _tag: "customer.unfreeze", customerId: c.customerId } })
      expect(expectFailure(yield* me(c.accessToken), 403, "Account suspended", "Customer").code).toBe("ACCOUNT_SUSPENDED")
      const own = expectFailure(yield* post(`/api/v1/admin/approvals/${filed.id}/approve`, undefined, asking.token), 403, /second member/, "Admin")
      expect(own.code).toBe("OWN_APPROVAL")
      const support = yield* member("support")
      expectFailure(yield* adminGet("/api/v1/admin/approvals", support.token), 403, "Your role does not allow this", "Admin")
      const second = yield* member("admin")
      const pending = expectSuccess(yield* adminGet("/api/v1/admin/approvals?status=pending", second.token), { apiObject: "Admin" })
      expect(pending.items.map((a: any) => a.id)).toContain(filed.id)
      const approved = expectSuccess(yield* post(`/api/v1/admin/approvals/${filed.id}/approve`, undefined, second.token), {
        apiObject: "Admin",
        message: "Approved and applied."
      })
      expect(approved.approval).toMatchObject({ status: "approved", decidedBy: second.id })
      expect(approved.result).toMatchObject({ frozen: false, customerStatus: "active" })
      expectSuccess(yield* me(c.accessToken), { apiObject: "Customer" })
      const decided = expectFailure(yield* post(`/api/v1/admin/approvals/${filed.id}/approve`, undefined, token), 409, "This request was already decided", "Admin")
      expect(decided).toEqual({ code: "APPROVAL_DECIDED", approvalStatus: "approved" })
    }))

  it.effect("a settings change waits for another superadmin, who may reject it; bad input and unknown ids answer 400 and 404", () =>
    Effect.gen(function*() {
      const token = yield* rootToken
      const KEY = "/api/v1/admin/settings/plans.borrow.lifetimeCap"
      expectValidation(yield* api("PATCH", KEY, { value: "many" }, token), { fields: ["value"], apiObject: "Admin" })
      const filed = expectSuccess(yield* api("PATCH", KEY, { value: 5 }, token), { status: 202, apiObject: "Admin" }).pendingApproval
      expect(filed.action).toEqual({ _tag: "settings.update", key: "plans.borrow.lifetimeCap", value: 5 })
      const settings = () => Effect.map(adminGet("/api/v1/admin/settings", token), (r) => expectSuccess(r, { apiObject: "Admin" }))
      const cap = (all: any) => all.find((s: any) => s.key === "plans.borrow.lifetimeCap").value
      expect(cap(yield* settings())).toBe(3)
      // an admin (no settings:write) cannot see or decide it
      const admin = yield* member("admin")
      expectFailure(yield* post(`/api/v1/admin/approvals/${filed.id}/approve`, undefined, admin.token), 404, /No approval/, "Admin")
      const root2 = yield* member("superadmin")
      expectValidation(yield* post(`/api/v1/admin/approvals/${filed.id}/reject`, { note: "x".repeat(1001) }, root2.token), {
        fields: ["note"],
        apiObject: "Admin"
      })
      const rejected = expectSuccess(yield* post(`/api/v1/admin/approvals/${filed.id}/reject`, { note: "not this week" }, root2.token), {
        apiObject: "Admin"
      })
      expect(rejected).toMatchObject({ status: "rejected", note: "not this week", decidedBy: root2.id })
      expect(cap(yield* settings())).toBe(3)
      // another request, approved this time
      const next = expectSuccess(yield* api("PATCH", KEY, { value: 4 }, token), { status: 202, apiObject: "Admin" }).pendingApproval
      const done = expectSuccess(yield* post(`/api/v1/admin/approvals/${next.id}/approve`, undefined, root2.token), { apiObject: "Admin" })
      expect(done.result).toMatchObject({ key: "plans.borrow.lifetimeCap", value: 4 })
      expect(cap(yield* settings())).toBe(4)
      expectValidation(yield* adminGet("/api/v1/admin/approvals?status=bogus", token), { fields: ["status"], apiObject: "Admin" })
      expect(expectFailure(yield* post(`/api/v1/admin/approvals/${randomUUID()}/approve`, undefined, token), 404, /No approval/, "Admin").code)
        .toBe("APPROVAL_NOT_FOUND")
    }))
})
