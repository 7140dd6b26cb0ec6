/**
 * The ledger in the back office: transaction search with every filter, disbursements and failed
 * payouts (real payouts through the saga and the sandbox), the read-only requery, and refusals by role.
 */
import { CustomerId, Plans } from "@app/domain"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { adminGet, adminServer, member, rootToken, sandboxTransfer } from "./support/AdminFixtures.js"
import { bankCustomer } from "./support/BankingFixtures.js"
import { expectFailure, expectSuccess, expectValidation, post } from "./support/Fixtures.js"
import { deposit, makeDue, planCustomer } from "./support/PlanFixtures.js"

const search = (query: string, token: string) =>
  Effect.map(adminGet(`/api/v1/admin/transactions?${query}`, token), (r) => expectSuccess(r, { apiObject: "Admin" }))

const transfer = sandboxTransfer

layer(adminServer(), { excludeTestServices: true, timeout: "90 seconds" })("admin ledger", (it) => {
  describe("GET /admin/transactions", () => {
    it.effect("filters by customer, purpose, status, id, reference and amount; pages newest first", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const ada = yield* bankCustomer("ledger-ada")
        yield* deposit(ada.accessToken, 2_000_000)
        yield* deposit(ada.accessToken, 3_000_000)
        const sent = yield* transfer(ada.accessToken, 150_000)
        const all = yield* search(`customerId=${ada.customerId}`, token)
        expect(all.total).toBe(3)
        expect(all.items.map((t: any) => t.purpose)).toEqual(["manual_transfer", "deposit", "deposit"])
        expect((yield* search(`customerId=${ada.customerId}&purpose=deposit`, token)).total).toBe(2)
        expect((yield* search(`customerId=${ada.customerId}&status=confirmed&minAmountKobo=2500000`, token)).items.map((t: any) => t.amountKobo))
          .toEqual(["3000000"])
        expect((yield* search(`customerId=${ada.customerId}&maxAmountKobo=200000`, token)).items.map((t: any) => t.amountKobo)).toEqual(["150000"])
        const row = all.items[0]
        expect((yield* search(`id=${row.id}`, token)).items.map((t: any) => t.id)).toEqual([row.id])
        expect((yield* search(`reference=${row.transferReference}`, token)).items.map((t: any) => t.id)).toEqual([row.id])
        const today = new Date().toISOString().slice(0, 10)
        expect((yield* search(`customerId=${ada.customerId}&from=${today}&to=${today}`, token)).total).toBe(3)
        expect((yield* search(`customerId=${ada.customerId}&to=2001-01-01`, token)).total).toBe(0)
        const paged = yield* search(`customerId=${ada.customerId}&page=2&pageSize=2`, token)
        expect(paged).toMatchObject({ page: 2, pageSize: 2, total: 3, totalPages: 2 })
        expect(paged.items).toHaveLength(1)
        expect(sent.status).toBe("confirmed")
      }))

    it.effect("400 for malformed filters; 401 without a staff token", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        expectValidation(yield* adminGet("/api/v1/admin/transactions?id=x&status=done&purpose=gift&minAmountKobo=-1", token), {
          fields: ["id", "status", "purpose", "minAmountKobo"],
          apiObject: "Admin"
        })
        expectValidation(yield* adminGet("/api/v1/admin/transactions?minAmountKobo=500&maxAmountKobo=100", token), {
          fields: ["maxAmountKobo"],
          apiObject: "Admin"
        })
        expectFailure(yield* adminGet("/api/v1/admin/transactions"), 401, "Authentication required", "Admin")
      }))
  })

  describe("POST /admin/transactions/{id}/requery", () => {
    it.effect("the provider's answer beside ours, changing nothing; a deposit has no reference of ours; 404 unknown; audited", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const bola = yield* bankCustomer("ledger-bola")
        yield* deposit(bola.accessToken, 1_000_000)
        yield* transfer(bola.accessToken, 100_000)
        const rows = (yield* search(`customerId=${bola.customerId}`, token)).items
        const sent = rows.find((t: any) => t.purpose === "manual_transfer")
        const answer = expectSuccess(yield* post(`/api/v1/admin/transactions/${sent.id}/requery`, undefined, token), { apiObject: "Admin" })
        expect(answer.transaction).toEqual(sent)
        expect(answer.provider.transfer).toEqual({ reference: sent.transferReference, status: "successful" })
        expect(answer.provider.debit).toMatchObject({ reference: sent.retrievalReference })
        const dep = rows.find((t: any) => t.purpose === "deposit")
        const none = expectSuccess(yield* post(`/api/v1/admin/transactions/${dep.id}/requery`, undefined, token), { apiObject: "Admin" })
        expect(none.provider).toEqual({ debit: null, transfer: null })
        expect((yield* search(`id=${sent.id}`, token)).items[0]).toEqual(sent)
        expectFailure(yield* post(`/api/v1/admin/transactions/${randomUUID()}/requery`, undefined, token), 404, "Transaction not found", "Admin")
        expectValidation(yield* post("/api/v1/admin/transactions/nope/requery", undefined, token), { fields: ["id"], apiObject: "Admin" })
        const audit = expectSuccess(yield* adminGet(`/api/v1/admin/audit?action=transaction.requery&targetId=${sent.id}`, token), { apiObject: "Admin" })
        expect(audit.items[0].after).toEqual({ ours: "confirmed", debit: answer.provider.debit.status, transfer: "successful" })
        const support = yield* member("support")
        expect(expectFailure(yield* post(`/api/v1/admin/transactions/${sent.id}/requery`, undefined, support.token), 403, /role/, "Admin").permission)
          .toBe("transactions:requery")
      }))
  })

  describe("disbursements and failed jobs", () => {
    it.effect("a paid and a failed payout: /disbursements lists both (by status too), /jobs/failed the failed one; roles", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const paid = yield* planCustomer("ledger-paid")
        const failing = yield* planCustomer("ledger-failing", { body: { withdrawalAccountNumber: "0123450003" } })
        yield* makeDue(paid.plan.id)
        yield* makeDue(failing.plan.id)
        yield* Plans.processDuePayouts({ batchSize: 10, concurrency: 2 })
        const mine = (p: any) => p.items.filter((t: any) => t.customerId === paid.customerId || t.customerId === failing.customerId)
        const all = mine(expectSuccess(yield* adminGet("/api/v1/admin/disbursements?pageSize=100", token), { apiObject: "Admin" }))
        expect(all.map((t: any) => [t.customerId, t.status]).sort()).toEqual(
          [[paid.customerId, "confirmed"], [failing.customerId, "failed"]].sort()
        )
        const failed = mine(expectSuccess(yield* adminGet("/api/v1/admin/jobs/failed?pageSize=100", token), { apiObject: "Admin" }))
        expect(failed.map((t: any) => t.customerId)).toEqual([failing.customerId])
        expect(failed[0].failureReason).not.toBeNull()
        const confirmed = mine(expectSuccess(yield* adminGet("/api/v1/admin/disbursements?status=confirmed&pageSize=100", token), { apiObject: "Admin" }))
        expect(confirmed.map((t: any) => t.customerId)).toEqual([paid.customerId])
        const support = yield* member("support")
        expectSuccess(yield* adminGet("/api/v1/admin/disbursements", support.token), { apiObject: "Admin" })
        expect(expectFailure(yield* adminGet("/api/v1/admin/jobs/failed", support.token), 403, /role/, "Admin").permission).toBe("jobs:read")
      }))

    it.effect("retry: the failed payout's plan is due now and the next run pays it through the saga; 400, 403, 404, 409; audited", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const paid = yield* planCustomer("retry-paid")
        const failing = yield* planCustomer("retry-failing", { body: { withdrawalAccountNumber: "0123450003" } })
        yield* makeDue(paid.plan.id)
        yield* makeDue(failing.plan.id)
        yield* Plans.processDuePayouts({ batchSize: 10, concurrency: 2 })
        const ofCustomer = (customerId: CustomerId) =>
          Effect.map(adminGet(`/api/v1/admin/disbursements?pageSize=100`, token), (r) =>
            expectSuccess(r, { apiObject: "Admin" }).items.filter((t: any) => t.customerId === customerId))
        const [failed] = yield* ofCustomer(failing.customerId)
        const [confirmed] = yield* ofCustomer(paid.customerId)
        const retry = (id: string, as = token) => post(`/api/v1/admin/jobs/failed/${id}/retry`, undefined, as)

        const support = yield* member("support")
        expect(expectFailure(yield* retry(failed.id, support.token), 403, /role/, "Admin").permission).toBe("jobs:retry")
        expectFailure(yield* retry(randomUUID()), 404, "Transaction not found", "Admin")
        expectValidation(yield* retry("not-a-uuid"), { fields: ["id"], apiObject: "Admin" })
        expect(expectFailure(yield* retry(confirmed.id), 409, /cannot be retried/, "Admin").code).toBe("JOB_RETRY_REFUSED")

        const done = expectSuccess(yield* retry(failed.id), { apiObject: "Admin" })
        expect(done).toMatchObject({ transactionId: failed.id, planId: failing.plan.id, state: "active" })
        expect(Date.parse(done.nextDueAt)).toBeLessThanOrEqual(Date.now())
        // the next run makes a new attempt (the destination still refuses it: a second failed row)
        yield* Plans.processDuePayouts({ batchSize: 10, concurrency: 2 })
        expect((yield* ofCustomer(failing.customerId)).map((t: any) => t.status)).toEqual(["failed", "failed"])
        const audit = expectSuccess(yield* adminGet(`/api/v1/admin/audit?action=job.retry&targetId=${failing.plan.id}`, token), { apiObject: "Admin" })
        expect(audit.items).toHaveLength(1)
      }))

    it.effect("400 naming each bad status, page or pageSize of /disbursements and /jobs/failed", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const bad = (url: string, fields: ReadonlyArray<string>) =>
          Effect.map(adminGet(url, token), (r) => expectValidation(r, { fields, apiObject: "Admin" }))
        yield* bad("/api/v1/admin/disbursements?status=paid", ["status"])
        yield* bad("/api/v1/admin/disbursements?status=CONFIRMED&page=0&pageSize=101", ["status", "page", "pageSize"])
        yield* bad("/api/v1/admin/disbursements?page=x&pageSize=0", ["page", "pageSize"])
        yield* bad("/api/v1/admin/disbursements?page=1.5&pageSize=-1", ["page", "pageSize"])
        yield* bad("/api/v1/admin/jobs/failed?page=0", ["page"])
        yield* bad("/api/v1/admin/jobs/failed?pageSize=101", ["pageSize"])
        yield* bad("/api/v1/admin/jobs/failed?page=abc&pageSize=1e2", ["page", "pageSize"])
        // the edges are fine
        expect(expectSuccess(yield* adminGet("/api/v1/admin/disbursements?status=failed&page=1&pageSize=100", token), { apiObject: "Admin" }))
          .toMatchObject({ page: 1, pageSize: 100 })
        expect(expectSuccess(yield* adminGet("/api/v1/admin/jobs/failed?pageSize=1", token), { apiObject: "Admin" })).toMatchObject({ pageSize: 1 })
      }))
  })
})
