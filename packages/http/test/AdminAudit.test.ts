/**
 * The audit log over HTTP: staff actions appear newest first with their filters, the chain
 * verifies, and a row edited in SQL is caught by verify (the last test: it breaks the chain).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminGet, adminServer, rootToken } from "./support/AdminFixtures.js"
import { api, expectFailure, expectSuccess, expectValidation, post, uniqueEmail } from "./support/Fixtures.js"
import { lastCode } from "./support/TestServer.js"

const Server = adminServer()
const get = adminGet

const invite = (token: string, role: string) =>
  Effect.gen(function*() {
    const email = uniqueEmail(role)
    const invited = expectSuccess(yield* post("/api/v1/admin/admins", { email, firstName: "Ada", lastName: "Eze", role }, token), {
      status: 201,
      apiObject: "Admin"
    })
    return { id: invited.id as string, email }
  })

layer(Server, { excludeTestServices: true, timeout: "60 seconds" })("admin audit log", (it) => {
  describe("GET /admin/audit", () => {
    it.effect("lists staff actions newest first, filtered by action and target; before/after carry no full email", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const invited = yield* invite(token, "support")
        const page = expectSuccess(yield* get("/api/v1/admin/audit?pageSize=5", token), { apiObject: "Admin" })
        expect(page).toMatchObject({ page: 1, pageSize: 5 })
        expect(page.items[0]).toMatchObject({ action: "staff.invite", actorKind: "staff", targetKind: "staff", targetId: invited.id })
        expect(page.items[0].after).toEqual({ email: `${invited.email[0]}***@example.com`, role: "support" })
        expect(JSON.stringify(page)).not.toContain(invited.email)
        const seqs = page.items.map((e: any) => e.seq)
        expect(seqs).toEqual([...seqs].sort((a, b) => b - a))
        const filtered = expectSuccess(yield* get(`/api/v1/admin/audit?action=staff.invite&targetId=${invited.id}`, token), { apiObject: "Admin" })
        expect(filtered.total).toBe(1)
        const actions = expectSuccess(yield* get("/api/v1/admin/audit?targetKind=staff&pageSize=100", token), { apiObject: "Admin" })
        expect(actions.items.map((e: any) => e.action)).toEqual(expect.arrayContaining(["staff.bootstrap", "staff.sign_in", "staff.invite"]))
        const today = new Date().toISOString().slice(0, 10)
        const dated = expectSuccess(yield* get(`/api/v1/admin/audit?from=${today}&to=${today}`, token), { apiObject: "Admin" })
        expect(dated.total).toBeGreaterThanOrEqual(3)
        expect(expectSuccess(yield* get("/api/v1/admin/audit?from=2001-01-01&to=2001-01-02", token), { apiObject: "Admin" }).total).toBe(0)
      }))

    it.effect("400 for bad dates or paging; 401 without a staff token; 403 for a role without audit:read", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        expectValidation(yield* get("/api/v1/admin/audit?from=2026-02-30&pageSize=1000", token), { fields: ["from", "pageSize"], apiObject: "Admin" })
        expectValidation(yield* get("/api/v1/admin/audit?from=2026-03-02&to=2026-03-01", token), { fields: ["to"], apiObject: "Admin" })
        expectFailure(yield* get("/api/v1/admin/audit"), 401, "Authentication required", "Admin")
        const support = yield* invite(token, "support")
        const session = expectSuccess(
          yield* post(`/api/v1/admin/auth/links/${lastCode(support.email, "staff_invite")}`, { password: "support long password" }),
          { apiObject: "Admin" }
        )
        expect(expectFailure(yield* get("/api/v1/admin/audit", session.token), 403, /role/, "Admin").permission).toBe("audit:read")
        expectFailure(yield* post("/api/v1/admin/audit/verify", undefined, session.token), 403, /role/, "Admin")
      }))
  })

  describe("POST /admin/audit/verify", () => {
    it.effect("a setting whose value is not the after of its latest audit row fails verify (issue 36)", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const KEY = "/api/v1/admin/settings/plans.borrow.lifetimeCap"
        expectSuccess(yield* api("PATCH", KEY, { value: 4 }, token), { apiObject: "Admin" })
        expect(expectSuccess(yield* post("/api/v1/admin/audit/verify", undefined, token), { apiObject: "Admin" }).ok).toBe(true)
        // a change that reached the settings without its audit row (as a second process on the same
        // embedded database left one): the chain itself is intact, the settings are not
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE app_settings SET value = '7'::jsonb WHERE key = 'plans.borrow.lifetimeCap'`
        const latest = expectSuccess(yield* adminGet("/api/v1/admin/audit?action=settings.update&targetId=plans.borrow.lifetimeCap&pageSize=1", token), { apiObject: "Admin" }).items[0]
        const broken = expectSuccess(yield* post("/api/v1/admin/audit/verify", undefined, token), { apiObject: "Admin" })
        expect(broken).toMatchObject({ ok: false, brokenAt: latest.seq, reason: "setting plans.borrow.lifetimeCap's value is not the after of its latest audit row" })
        // a setting with a value and no audit row at all
        yield* sql`INSERT INTO app_settings (key, value, updated_at) VALUES ('plans.extraCash', '{"feeBasisPoints":"400","perDay":3,"perPlan":5}'::jsonb, now())
                   ON CONFLICT (key) DO NOTHING`
        // an audited change puts it right again
        expectSuccess(yield* api("PATCH", KEY, { value: 3 }, token), { apiObject: "Admin" })
        const extra = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_log WHERE action = 'settings.update' AND target_id = 'plans.extraCash'`
        const again = expectSuccess(yield* post("/api/v1/admin/audit/verify", undefined, token), { apiObject: "Admin" })
        if (extra[0]!.n === 0) {
          expect(again).toMatchObject({ ok: false, brokenAt: 0, reason: expect.stringMatching(/has a value but no audit row/) })
          yield* sql`DELETE FROM app_settings WHERE key = 'plans.extraCash'`
        }
        expect(expectSuccess(yield* post("/api/v1/admin/audit/verify", undefined, token), { apiObject: "Admin" }).ok).toBe(true)
      }))

    it.effect("an intact chain verifies; a row edited in SQL is named as the first broken row", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        yield* invite(token, "officer")
        const intact = expectSuccess(yield* post("/api/v1/admin/audit/verify", undefined, token), { apiObject: "Admin" })
        expect(intact.ok).toBe(true)
        expect(intact.rows).toBeGreaterThanOrEqual(4)
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE audit_log SET after_json = '{"role":"superadmin"}' WHERE seq = 3`
        const broken = expectSuccess(yield* post("/api/v1/admin/audit/verify", undefined, token), { apiObject: "Admin" })
        expect(broken).toMatchObject({ ok: false, rows: 2, brokenAt: 3, reason: "its content does not match its hash" })
      }))
  })
})
