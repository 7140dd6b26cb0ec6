/**
 * What the customer page of the console reads besides the file: the plan made readable (per-cycle
 * fee, Borrow and Extra Cash used, the bank's name) and the message log for "I did not get my code"
 * tickets, which never holds a code's value or a message's body.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { OutboxQueue } from "@app/adapters/notifications/OutboxQueueSql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { adminGet, adminServer, member, rootToken } from "./support/AdminFixtures.js"
import { expectFailure, expectSuccess, expectValidation, expireOtps, post, verifiedAccount } from "./support/Fixtures.js"
import { extraCashYesterday, EXTRA_CASH, nipFee, planCustomer } from "./support/PlanFixtures.js"
import { outbox } from "./support/TestServer.js"

const CUSTOMERS = "/api/v1/admin/customers"

layer(adminServer(), { excludeTestServices: true, timeout: "90 seconds" })("the customer page's reads", (it) => {
  describe("GET /admin/customers/{id}/plan", () => {
    it.effect("the plan with its bank's name, cycles, per-cycle fee, and Borrow and Extra Cash used against the caps", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const c = yield* planCustomer("adminplan", { fundKobo: 3_000_000, body: { scheduledTimezone: "Africa/Lagos" } })
        expectSuccess(yield* post(EXTRA_CASH, { amountKobo: 100_000, idempotencyKey: randomUUID() }, c.accessToken), { apiObject: "Disbursement" })
        yield* extraCashYesterday(c.plan.id)
        expectSuccess(yield* post(EXTRA_CASH, { amountKobo: 100_000, idempotencyKey: randomUUID() }, c.accessToken), { apiObject: "Disbursement" })
        const read = expectSuccess(yield* adminGet(`${CUSTOMERS}/${c.customerId}/plan`, token), { apiObject: "Admin" })
        expect(read.plan).toMatchObject({
          id: c.plan.id,
          customerId: c.customerId,
          status: "active",
          amount: "100000",
          totalAmountKobo: "700000",
          cyclesTotal: 7,
          cyclesPaid: 0,
          withdrawalBankCode: "000013",
          withdrawalBankName: "Guaranty Trust Bank (GTBank)",
          perCycleFeeKobo: nipFee(100_000n).toString(),
          borrow: { used: 0, cap: 3 },
          extraCash: { usedToday: 1, perDay: 3, usedTotal: 2, perPlan: 5, feeBasisPoints: "400" }
        })
        expect(read.plan.scheduledTimezone).toBe("Africa/Lagos")
        expect(Date.parse(read.plan.nextDueAt)).toBeGreaterThan(Date.now())
      }))

    it.effect("null for a customer without a plan; 404 for an unknown one, 400 for a malformed id; 401 without a token", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const c = yield* verifiedAccount("noplan")
        expect(expectSuccess(yield* adminGet(`${CUSTOMERS}/${c.customerId}/plan`, token), { apiObject: "Admin" })).toEqual({ plan: null })
        expect(expectFailure(yield* adminGet(`${CUSTOMERS}/${randomUUID()}/plan`, token), 404, "Customer not found", "Admin").code)
          .toBe("CUSTOMER_NOT_FOUND")
        expectValidation(yield* adminGet(`${CUSTOMERS}/nope/plan`, token), { fields: ["id"], apiObject: "Admin" })
        expectFailure(yield* adminGet(`${CUSTOMERS}/${c.customerId}/plan`), 401, "Authentication required", "Admin")
      }))
  })

  describe("GET /admin/customers/{id}/messages", () => {
    it.effect("codes sent (used, replaced, open) and queued messages with their status, masked, and never a code or a body", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const c = yield* verifiedAccount("msglog", { withPhone: true })
        const phone = c.phone!.e164
        // a phone code, expired and sent again: the first is replaced by the second, which stays open
        expectSuccess(yield* post("/api/v1/auth/otp/phone/send", { accountId: c.id }))
        yield* expireOtps(c.id)
        expectSuccess(yield* post("/api/v1/auth/otp/phone/send", { accountId: c.id }))
        // what the notifier queues when a transport is configured (the test server has none): one sent, one failed
        const queue = yield* OutboxQueue
        const body = "Your spending report for October: you spent NGN 12,500 on food"
        const sentId = randomUUID()
        yield* queue.enqueue(sentId, { channel: "email", to: c.email, kind: "spending_report", subject: "Your report", text: body }, new Date())
        yield* queue.markSent(sentId, new Date())
        const failedId = randomUUID()
        yield* queue.enqueue(failedId, { channel: "sms", to: phone, kind: "plan_completed", text: body }, new Date())
        yield* queue.markFailed(failedId, "http 503", null)

        const reply = yield* adminGet(`${CUSTOMERS}/${c.customerId}/messages`, token)
        const log = expectSuccess(reply, { apiObject: "Admin" }) as Array<any>
        const byKind = (kind: string) => log.filter((m) => m.kind === kind)
        expect(byKind("email_verification")).toEqual([
          expect.objectContaining({ source: "one_time_code", channel: "email", status: "sent", codeState: "used", deliveryAttempts: null })
        ])
        expect(byKind("phone_verification").map((m) => m.codeState)).toEqual(["open", "replaced"])
        expect(byKind("spending_report")).toEqual([
          expect.objectContaining({ id: sentId, source: "outbox", channel: "email", status: "sent", codeState: null, deliveryAttempts: 0 })
        ])
        expect(byKind("plan_completed")).toEqual([
          expect.objectContaining({ id: failedId, source: "outbox", channel: "sms", status: "failed", lastError: "http 503", sentAt: null })
        ])
        // newest first
        const times = log.map((m) => Date.parse(m.createdAt))
        expect([...times].sort((a, b) => b - a)).toEqual(times)
        // masked destinations
        const [local, domain] = c.email.split("@")
        expect(byKind("email_verification")[0].destination).toBe(`${local![0]}***@${domain}`)
        for (const m of byKind("phone_verification")) expect(m.destination).toBe(`${"*".repeat(phone.length - 3)}${phone.slice(-3)}`)
        // not a single code sent to this customer, nor a body, nor an address in full, anywhere in the answer
        const codes = outbox().filter((m) => (m.to === c.email || m.to === phone) && m.code !== null).map((m) => m.code!)
        expect(codes.length).toBe(3)
        for (const code of codes) expect(reply.text).not.toContain(code)
        expect(reply.text).not.toContain("NGN 12,500")
        expect(reply.text).not.toContain(c.email)
        expect(reply.text).not.toContain(phone.slice(1))
        const [hashes] = yield* (yield* SqlClient.SqlClient)<{ h: Array<string> }>`
          SELECT array_agg(code_hash) AS h FROM one_time_codes WHERE account_id = ${c.id}`
        for (const hash of hashes!.h) expect(reply.text).not.toContain(hash)
      }))

    it.effect("every role reads it (customers:read, which support and officers hold); a customer's token, none or an unknown customer are refused", () =>
      Effect.gen(function*() {
        const c = yield* verifiedAccount("msgroles")
        for (const role of ["support", "officer"] as const) {
          const log = expectSuccess(yield* adminGet(`${CUSTOMERS}/${c.customerId}/messages`, (yield* member(role)).token), { apiObject: "Admin" })
          expect(log.map((m: any) => m.kind)).toEqual(["email_verification"])
        }
        expect(expectFailure(yield* adminGet(`${CUSTOMERS}/${randomUUID()}/messages`, yield* rootToken), 404, "Customer not found", "Admin").code)
          .toBe("CUSTOMER_NOT_FOUND")
        expectFailure(yield* adminGet(`${CUSTOMERS}/${c.customerId}/messages`), 401, "Authentication required", "Admin")
        expectFailure(yield* adminGet(`${CUSTOMERS}/${c.customerId}/messages`, c.accessToken), 401, "Authentication required", "Admin")
        expectFailure(yield* adminGet(`${CUSTOMERS}/${c.customerId}/plan`, c.accessToken), 401, "Authentication required", "Admin")
      }))
  })
})
