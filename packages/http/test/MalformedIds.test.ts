/**
 * A malformed id in a path is the client's mistake: 400 with the envelope, before any permission
 * check or look-up, never a 404 or a 500. An id that is text but not a UUID names `id` in
 * `error.fieldErrors`; a path that is not even validly percent-encoded (`%ZZ`, a cut-off UTF-8
 * sequence) is refused as a whole, in `error.formErrors`. The staff routes, and one route or two
 * of each kind of id carried since (alert, approval, deletion, freeze, beneficiary, spending).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminGet, adminServer, member, rootToken } from "./support/AdminFixtures.js"
import { api, expectSuccess, expectValidation, uniqueEmail, verifiedAccount } from "./support/Fixtures.js"

/** Text, but not a UUID: decoding names `id`. */
const NOT_UUIDS = ["not-a-uuid", "123", "00000000-0000-4000-8000-00000000000", "%20", "00000000-0000-4000-8000-00000000000g"]
/** Not even a percent-encoded path: refused before routing. */
const UNDECODABLE = ["%ZZ", "%", "abc%E0%A4%A", "%C3%28"]

type Method = "POST" | "PATCH" | "DELETE"
interface Route {
  readonly name: string
  readonly method: Method
  readonly path: (id: string) => string
  readonly body?: unknown
  readonly apiObject: string
  readonly customer?: true
}

const STAFF_ROUTES: ReadonlyArray<Route> = [
  { name: "change role", method: "PATCH", path: (id) => `/api/v1/admin/staff/${id}/role`, body: { role: "admin" }, apiObject: "Admin" },
  { name: "change email", method: "PATCH", path: (id) => `/api/v1/admin/staff/${id}/email`, body: { email: "x@example.com" }, apiObject: "Admin" },
  { name: "deactivate", method: "POST", path: (id) => `/api/v1/admin/staff/${id}/deactivate`, apiObject: "Admin" },
  { name: "reactivate", method: "POST", path: (id) => `/api/v1/admin/staff/${id}/reactivate`, apiObject: "Admin" },
  { name: "send link", method: "POST", path: (id) => `/api/v1/admin/officers/${id}/send-link`, body: {}, apiObject: "Admin" }
]

const KIND_ROUTES: ReadonlyArray<Route> = [
  { name: "alert", method: "POST", path: (id) => `/api/v1/admin/alerts/${id}/acknowledge`, apiObject: "Admin" },
  { name: "approval", method: "POST", path: (id) => `/api/v1/admin/approvals/${id}/approve`, apiObject: "Admin" },
  { name: "approval", method: "POST", path: (id) => `/api/v1/admin/approvals/${id}/reject`, body: {}, apiObject: "Admin" },
  { name: "deletion", method: "POST", path: (id) => `/api/v1/admin/deletions/${id}/review`, body: {}, apiObject: "Admin" },
  // a freeze is asked for by its customer's id; its own id is only in the answer
  { name: "freeze", method: "POST", path: (id) => `/api/v1/admin/customers/${id}/freeze`, body: { reason: "x" }, apiObject: "Admin" },
  { name: "unfreeze", method: "POST", path: (id) => `/api/v1/admin/customers/${id}/unfreeze`, apiObject: "Admin" },
  { name: "beneficiary", method: "PATCH", path: (id) => `/api/v1/beneficiaries/${id}/default`, apiObject: "Beneficiary", customer: true },
  {
    name: "beneficiary",
    method: "DELETE",
    path: (id) => `/api/v1/beneficiaries/${id}`,
    body: { otpPinId: "x", otpCode: "123456" },
    apiObject: "Beneficiary",
    customer: true
  },
  { name: "spending", method: "PATCH", path: (id) => `/api/v1/spendings/${id}`, body: { category: "food" }, apiObject: "Spending", customer: true },
  { name: "spending", method: "DELETE", path: (id) => `/api/v1/spendings/${id}`, apiObject: "Spending", customer: true }
]

const call = (route: Route, id: string, token: string) => api(route.method, route.path(id), route.body, token)

/** Every route with every malformed id: 400 naming `id`, or refusing the path as a whole. */
const expectRefused = (routes: ReadonlyArray<Route>, tokenFor: (route: Route) => string) =>
  Effect.gen(function*() {
    for (const route of routes) {
      for (const id of NOT_UUIDS) {
        const error = expectValidation(yield* call(route, id, tokenFor(route)), { fields: ["id"], apiObject: route.apiObject })
        expect(error.fieldErrors.id, `${route.name} ${route.method} ${id}`).toEqual(["Must be a valid UUID"])
      }
      for (const id of UNDECODABLE) {
        const error = expectValidation(yield* call(route, id, tokenFor(route)), { form: true, apiObject: route.apiObject })
        expect(error.formErrors, `${route.name} ${route.method} ${id}`).toEqual(["The URL's path is not validly percent-encoded"])
      }
    }
  })

layer(adminServer(), { excludeTestServices: true, timeout: "120 seconds" })("malformed ids in paths", (it) => {
  it.effect("the staff routes: 400 for a superadmin and for a role without the permission alike; nothing changes", () =>
    Effect.gen(function*() {
      const root = yield* rootToken
      const officer = yield* member("officer")
      for (const token of [root, officer.token]) yield* expectRefused(STAFF_ROUTES, () => token)
      const staff = expectSuccess(yield* adminGet("/api/v1/admin/staff", root), { apiObject: "Admin" }).items as Array<any>
      expect(staff.find((s) => s.id === officer.id)).toMatchObject({ role: "officer", status: "active", email: officer.email })
    }))

  it.effect("alert, approval, deletion, freeze, beneficiary and spending routes: 400 naming id", () =>
    Effect.gen(function*() {
      const root = yield* rootToken
      const customer = yield* verifiedAccount("malformed-ids")
      yield* expectRefused(KIND_ROUTES, (route) => route.customer ? customer.accessToken : root)
    }))

  it.effect("a well-formed id still reaches its route (a 404 of its kind), upper case included", () =>
    Effect.gen(function*() {
      const root = yield* rootToken
      const unknown = "6F1C2A3B-4D5E-4F60-8A7B-9C0D1E2F3A4B"
      const reply = yield* api("POST", `/api/v1/admin/alerts/${unknown}/acknowledge`, undefined, root)
      expect(reply.status).toBe(404)
      expect((reply.body as any).error.code).toBe("ALERT_NOT_FOUND")
      const email = yield* api("PATCH", `/api/v1/admin/staff/${unknown.toLowerCase()}/email`, { email: uniqueEmail("x") }, root)
      expect((email.body as any).error.code).toBe("STAFF_NOT_FOUND")
    }))
})
