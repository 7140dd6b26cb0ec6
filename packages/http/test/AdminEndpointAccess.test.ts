/**
 * Access to every admin endpoint, enumerated from the served OpenAPI document (an endpoint added
 * without an entry here fails the test): 401 AUTHENTICATION_REQUIRED without a token and with a
 * customer's token, and 403 PERMISSION_DENIED naming the permission for a role the matrix denies it.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { StaffAccess } from "@app/domain"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { adminServer, member, type Member } from "./support/AdminFixtures.js"
import { api, expectFailure, uniqueEmail, verifiedAccount } from "./support/Fixtures.js"

type Method = "GET" | "POST" | "PATCH" | "DELETE"
type Permission = StaffAccess.Permission
const { allPermissions, permissionMatrix } = StaffAccess
/** A permission; "staff": any signed-in member (approvals answer 404 to a role that cannot decide); "public": no token. */
type Access = Permission | "staff" | "public"

interface Entry {
  readonly access: Access
  readonly body?: () => unknown
}

const ENDPOINTS: Record<string, Entry> = {
  "POST /api/v1/admin/auth/sign-in": { access: "public" },
  "GET /api/v1/admin/auth/links/{token}": { access: "public" },
  "POST /api/v1/admin/auth/links/{token}": { access: "public" },
  "GET /api/v1/admin/auth/me": { access: "staff" },
  "POST /api/v1/admin/admins": { access: "staff:invite", body: () => ({ email: uniqueEmail("matrix"), firstName: "A", lastName: "B", role: "officer" }) },
  "POST /api/v1/admin/officers/{id}/send-link": { access: "staff:send_link" },
  "POST /api/v1/admin/auth/sign-out": { access: "staff" },
  "PATCH /api/v1/admin/staff/{id}/email": { access: "staff:change_email", body: () => ({ email: uniqueEmail("matrix-email") }) },
  "GET /api/v1/admin/staff": { access: "staff:read" },
  "PATCH /api/v1/admin/staff/{id}/role": { access: "staff:change_role", body: () => ({ role: "support" }) },
  "POST /api/v1/admin/staff/{id}/deactivate": { access: "staff:deactivate" },
  "POST /api/v1/admin/staff/{id}/reactivate": { access: "staff:deactivate" },
  "GET /api/v1/admin/audit": { access: "audit:read" },
  "POST /api/v1/admin/audit/verify": { access: "audit:verify" },
  "GET /api/v1/admin/settings": { access: "settings:read" },
  "PATCH /api/v1/admin/settings/{key}": { access: "settings:write", body: () => ({ value: 3 }) },
  "GET /api/v1/admin/alerts": { access: "alerts:read" },
  "POST /api/v1/admin/alerts/{id}/acknowledge": { access: "alerts:ack" },
  "GET /api/v1/admin/transactions": { access: "transactions:read" },
  "POST /api/v1/admin/transactions/{id}/requery": { access: "transactions:requery" },
  "POST /api/v1/admin/transactions/{id}/resolve": { access: "transactions:resolve", body: () => ({ outcome: "delivered", note: "matrix" }) },
  "GET /api/v1/admin/disbursements": { access: "disbursements:read" },
  "GET /api/v1/admin/jobs/failed": { access: "jobs:read" },
  "POST /api/v1/admin/jobs/failed/{id}/retry": { access: "jobs:retry" },
  "GET /api/v1/admin/overview": { access: "overview:read" },
  // every member: each kind within is filtered by the role (AdminAttention.test.ts)
  "GET /api/v1/admin/attention": { access: "staff" },
  "GET /api/v1/admin/support/tickets": { access: "support:read" },
  "GET /api/v1/admin/support/tickets/{id}": { access: "support:read" },
  "POST /api/v1/admin/support/tickets/{id}/messages": { access: "support:reply", body: () => ({ message: "Hello" }) },
  "POST /api/v1/admin/support/tickets/{id}/notes": { access: "support:note", body: () => ({ note: "A note" }) },
  "POST /api/v1/admin/support/tickets/{id}/assign": { access: "support:assign", body: () => ({ staffId: null }) },
  "POST /api/v1/admin/support/tickets/{id}/resolve": { access: "support:resolve" },
  "POST /api/v1/admin/support/tickets/{id}/close": { access: "support:resolve" },
  "GET /api/v1/admin/customers": { access: "customers:read" },
  "GET /api/v1/admin/customers/{id}": { access: "customers:read" },
  "GET /api/v1/admin/customers/{id}/plan": { access: "customers:read" },
  "GET /api/v1/admin/customers/{id}/messages": { access: "customers:read" },
  "POST /api/v1/admin/customers/{id}/freeze": { access: "customers:freeze", body: () => ({ reason: "matrix" }) },
  "POST /api/v1/admin/customers/{id}/unfreeze": { access: "customers:unfreeze" },
  "GET /api/v1/admin/deletions": { access: "deletions:read" },
  "POST /api/v1/admin/deletions/{id}/review": { access: "deletions:review", body: () => ({ note: "ok" }) },
  "GET /api/v1/admin/approvals": { access: "customers:unfreeze" },
  "POST /api/v1/admin/approvals/{id}/approve": { access: "staff" },
  "POST /api/v1/admin/approvals/{id}/reject": { access: "staff", body: () => ({ note: "no" }) }
}

const ROLES = ["officer", "support", "admin", "superadmin"] as const

/** The path with its parameters filled (ids are random UUIDs; the setting is a real key). */
const concrete = (path: string) =>
  path.replace("{key}", "plans.borrow.lifetimeCap").replace("{token}", "x".repeat(43)).replace("{id}", randomUUID())

const call = (key: string, token?: string) => {
  const [method, path] = key.split(" ") as [Method, string]
  return api(method, concrete(path), ENDPOINTS[key]!.body?.(), token)
}

describe("the admin access table", () => {
  it("names only permissions of the matrix, and every permission guards some endpoint", () => {
    for (const { access } of Object.values(ENDPOINTS)) {
      if (access !== "staff" && access !== "public") expect(allPermissions).toContain(access)
    }
    // every permission is needed by some endpoint
    const used = new Set(Object.values(ENDPOINTS).map((e) => e.access))
    expect(allPermissions.filter((p) => !used.has(p))).toEqual([])
  })
})

layer(adminServer(), { excludeTestServices: true, timeout: "120 seconds" })("every admin endpoint", (it) => {
  it.effect("is in the table, and answers 401 without a token or with a customer's token", () =>
    Effect.gen(function*() {
      const doc = (yield* api("GET", "/api/v1/openapi.json")).body
      const served = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
        .filter(([path]) => path.startsWith("/api/v1/admin"))
        .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      expect(served.sort()).toEqual(Object.keys(ENDPOINTS).sort())
      const customer = yield* verifiedAccount("admin-matrix")
      for (const [key, entry] of Object.entries(ENDPOINTS)) {
        if (entry.access === "public") continue
        for (const token of [undefined, customer.accessToken]) {
          const reply = yield* call(key, token)
          expect(reply.status, `${key} with ${token === undefined ? "no token" : "a customer token"}`).toBe(401)
          expect(expectFailure(reply, 401, "Authentication required", "Admin").code).toBe("AUTHENTICATION_REQUIRED")
        }
      }
    }))

  it.effect("answers 403 PERMISSION_DENIED naming the permission to every role the matrix denies it", () =>
    Effect.gen(function*() {
      const members: Record<string, Member> = {}
      for (const role of ROLES) members[role] = yield* member(role)
      let checked = 0
      for (const [key, entry] of Object.entries(ENDPOINTS)) {
        if (entry.access === "public" || entry.access === "staff") continue
        const permission = entry.access
        for (const role of ROLES.filter((r) => !permissionMatrix[r].includes(permission))) {
          const reply = yield* call(key, members[role]!.token)
          expect(reply.status, `${key} as ${role}`).toBe(403)
          const error = expectFailure(reply, 403, "Your role does not allow this", "Admin")
          expect(error, `${key} as ${role}`).toEqual({ code: "PERMISSION_DENIED", permission })
          checked++
        }
        // and a role holding it gets past the check (whatever the lookup then answers)
        const allowed = ROLES.find((r) => permissionMatrix[r].includes(permission))!
        expect((yield* call(key, members[allowed]!.token)).status, `${key} as ${allowed}`).not.toBe(403)
      }
      expect(checked).toBeGreaterThan(30)
    }))
})
