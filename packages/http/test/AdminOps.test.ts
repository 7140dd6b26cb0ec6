/**
 * App settings and staff alerts in the back office: listing, a superadmin's validated change (it
 * takes effect, is audited, and a bad value changes nothing), 403 by role, 404 for unknown keys;
 * open alerts listed and acknowledged once.
 */
import { Alerts, TransactionId } from "@app/domain"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { adminGet, adminServer, member, rootToken } from "./support/AdminFixtures.js"
import { api, expectFailure, expectSuccess, expectValidation, post, verifiedAccount } from "./support/Fixtures.js"

const patch = (key: string, body: unknown, token?: string) => api("PATCH", `/api/v1/admin/settings/${key}`, body, token)
const setting = (key: string, token: string) =>
  Effect.map(adminGet("/api/v1/admin/settings", token), (r) =>
    (expectSuccess(r, { apiObject: "Admin" }) as Array<any>).find((s) => s.key === key))

layer(adminServer(), { excludeTestServices: true, timeout: "60 seconds" })("admin settings and alerts", (it) => {
  describe("settings", () => {
    it.effect("GET lists every key with value, default and description; an admin may read, support may not", () =>
      Effect.gen(function*() {
        const all = expectSuccess(yield* adminGet("/api/v1/admin/settings", yield* rootToken), { apiObject: "Admin" }) as Array<any>
        expect(all.map((s) => s.key).sort()).toEqual(
          ["fees.nip", "plans.borrow.lifetimeCap", "plans.extraCash", "plans.limits", "plans.payoutRetry"]
        )
        expect(all.find((s) => s.key === "plans.extraCash")).toMatchObject({
          value: { feeBasisPoints: "400", perDay: 3, perPlan: 5 },
          defaultValue: { feeBasisPoints: "400", perDay: 3, perPlan: 5 }
        })
        for (const s of all) expect(s.description.length).toBeGreaterThan(10)
        const admin = yield* member("admin")
        expectSuccess(yield* adminGet("/api/v1/admin/settings", admin.token), { apiObject: "Admin" })
        const support = yield* member("support")
        expect(expectFailure(yield* adminGet("/api/v1/admin/settings", support.token), 403, /role/, "Admin").permission).toBe("settings:read")
        expectFailure(yield* adminGet("/api/v1/admin/settings"), 401, "Authentication required", "Admin")
      }))

    it.effect("a superadmin's change takes effect (the transfer fee quote follows it) and is audited before → after", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const customer = yield* verifiedAccount("fees")
        const quote = () => Effect.map(api("GET", "/api/v1/transactions/transfer/fee?amountKobo=100000", undefined, customer.accessToken), (r) =>
          expectSuccess(r, { apiObject: "Transaction" }))
        expect(yield* quote()).toMatchObject({ feeKobo: "1000", vatKobo: "75" })
        const fees = { tiers: [{ upToKobo: null, feeKobo: 2000 }], vatBasisPoints: 750 }
        const updated = expectSuccess(yield* patch("fees.nip", { value: fees }, token), { apiObject: "Admin", message: "Setting updated." })
        expect(updated).toMatchObject({ key: "fees.nip", value: { tiers: [{ upToKobo: null, feeKobo: "2000" }], vatBasisPoints: "750" } })
        expect(yield* quote()).toMatchObject({ feeKobo: "2000", vatKobo: "150" })
        const audit = expectSuccess(yield* adminGet("/api/v1/admin/audit?action=settings.update&targetId=fees.nip", token), { apiObject: "Admin" })
        expect(audit.items[0]).toMatchObject({
          actorKind: "staff",
          before: { vatBasisPoints: "750" },
          after: { tiers: [{ upToKobo: null, feeKobo: "2000" }], vatBasisPoints: "750" }
        })
        expect(audit.items[0].before.tiers).toHaveLength(3)
      }))

    it.effect("an invalid value is a 400 naming value and changes nothing; unknown key 404; a non-superadmin 403", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        for (const value of [-1, 1.5, "three", null, { tiers: [] }]) {
          expectValidation(yield* patch("plans.borrow.lifetimeCap", { value }, token), { fields: ["value"], apiObject: "Admin" })
        }
        expectValidation(yield* patch("plans.borrow.lifetimeCap", {}, token), { fields: ["value"], apiObject: "Admin" })
        expect((yield* setting("plans.borrow.lifetimeCap", token)).value).toBe(3)
        expect(expectFailure(yield* patch("no.such.key", { value: 1 }, token), 404, "No such setting", "Admin")).toEqual({
          code: "SETTING_NOT_FOUND",
          key: "no.such.key"
        })
        const admin = yield* member("admin")
        expectFailure(yield* patch("plans.borrow.lifetimeCap", { value: 4 }, admin.token), 403, /role/, "Admin")
        expectSuccess(yield* patch("plans.borrow.lifetimeCap", { value: 4 }, token), { apiObject: "Admin" })
        expect((yield* setting("plans.borrow.lifetimeCap", token)).value).toBe(4)
      }))
  })

  describe("a setting's fields", () => {
    it.effect("a 400 names each bad field by its path in the value (what the console shows next to the field); the old value stays", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const error = expectValidation(
          yield* patch("plans.extraCash", { value: { feeBasisPoints: "-5", perDay: 1.5, perPlan: 5 } }, token),
          { fields: ["value.feeBasisPoints", "value.perDay"], apiObject: "Admin" }
        )
        expect(Object.keys(error.fieldErrors).sort()).toEqual(["value.feeBasisPoints", "value.perDay"])
        expectValidation(yield* patch("plans.extraCash", { value: { feeBasisPoints: 400, perDay: 3 } }, token), {
          fields: ["value.perPlan"],
          apiObject: "Admin"
        })
        expect((yield* setting("plans.extraCash", token)).value).toEqual({ feeBasisPoints: "400", perDay: 3, perPlan: 5 })
      }))
  })

  describe("alerts", () => {
    it.effect("open alerts are listed newest first and acknowledged once (404 after); an officer may not list them", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const transactionId = randomUUID()
        const raised = yield* Alerts.raiseAlert({
          kind: "reversal_refused",
          dedupKey: `reversal_refused:${transactionId}`,
          message: `The bank refused the reversal of movement ${transactionId}: credit it back by hand.`,
          transactionId: TransactionId.make(transactionId)
        })
        const open = expectSuccess(yield* adminGet("/api/v1/admin/alerts", token), { apiObject: "Admin" }) as Array<any>
        expect(open[0]).toMatchObject({ id: raised.id, kind: "reversal_refused", severity: "critical", transactionId, occurrences: 1 })
        expectSuccess(yield* post(`/api/v1/admin/alerts/${raised.id}/acknowledge`, undefined, token), {
          apiObject: "Admin",
          message: "Alert acknowledged."
        })
        const after = expectSuccess(yield* adminGet("/api/v1/admin/alerts", token), { apiObject: "Admin" }) as Array<any>
        expect(after.map((a) => a.id)).not.toContain(raised.id)
        expect(expectFailure(yield* post(`/api/v1/admin/alerts/${raised.id}/acknowledge`, undefined, token), 404, /No open alert/, "Admin").code)
          .toBe("ALERT_NOT_FOUND")
        expectValidation(yield* post("/api/v1/admin/alerts/nope/acknowledge", undefined, token), { fields: ["id"], apiObject: "Admin" })
        const officer = yield* member("officer")
        expectFailure(yield* adminGet("/api/v1/admin/alerts", officer.token), 403, /role/, "Admin")
        const support = yield* member("support")
        expectSuccess(yield* adminGet("/api/v1/admin/alerts", support.token), { apiObject: "Admin" })
        expectFailure(yield* post(`/api/v1/admin/alerts/${randomUUID()}/acknowledge`, undefined, support.token), 403, /role/, "Admin")
      }))
  })
})
