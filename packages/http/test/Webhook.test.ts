/**
 * POST /api/v1/webhooks/core-banking: the shared header, the immediate acknowledgement, and the
 * background sync that records an inbound transfer exactly once however often it is announced.
 */
import { describe, expect, layer } from "@effect/vitest"
import { DevelopmentSecrets } from "@app/adapters"
import { Effect } from "effect"
import { expectFailure, expectSuccess, me } from "./support/Fixtures.js"
import {
  allTransactionCount,
  bankCustomer,
  depositRows,
  get,
  inboundTransfer,
  pollUntil,
  webhook,
  WEBHOOK_HEADER
} from "./support/BankingFixtures.js"
import { TestServer } from "./support/TestServer.js"

const SECRET = DevelopmentSecrets.WEBHOOK_SECRET
const INVALID = "Invalid webhook credentials"

const notification = (accountNumber: string, reference: string, amount: number) => ({
  event: "transaction.posted",
  accountNumber,
  reference,
  type: "C",
  amount,
  postedAt: new Date().toISOString()
})

const balanceOf = (token: string) =>
  Effect.map(get("/api/v1/customers/balance", token), (r) => expectSuccess(r, { apiObject: "Customer" }).balanceKobo as number)

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("webhook", (it) => {
  describe("authentication by the shared header → 401 envelope", () => {
    it.effect("missing header, wrong secret, wrong header name, secret with a different length or case", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("wh-auth")
        const body = notification(customer.accountNumber, "NIP999999999", 100)
        const attempts: ReadonlyArray<Record<string, string>> = [
          {},
          { [WEBHOOK_HEADER]: "" },
          { [WEBHOOK_HEADER]: "wrong" },
          { [WEBHOOK_HEADER]: SECRET.slice(0, -1) + (SECRET.endsWith("x") ? "y" : "x") },
          { [WEBHOOK_HEADER]: SECRET + "x" },
          { [WEBHOOK_HEADER]: SECRET.toUpperCase() },
          { "x-webhook-token": SECRET },
          { authorization: `Bearer ${SECRET}` }
        ]
        for (const headers of attempts) {
          const reply = yield* webhook(body, headers)
          expect(reply.text).not.toContain(SECRET)
          expectFailure(reply, 401, INVALID, "Webhook")
        }
        expect(yield* depositRows(customer.customerId)).toEqual([])
      }))
  })

  describe("acknowledgement", () => {
    it.effect("the right header → 200 'Acknowledged.' at once, whatever the body", () =>
      Effect.gen(function*() {
        for (const body of [{}, { event: "something.else" }, { accountNumber: 12 }, ["x"]]) {
          const started = Date.now()
          const reply = yield* webhook(body)
          expect(Date.now() - started).toBeLessThan(2_000)
          expect(expectSuccess(reply, { apiObject: "Webhook", message: "Acknowledged." })).toEqual({})
        }
      }))

    it.effect("the header name is case-insensitive (HTTP headers are)", () =>
      Effect.gen(function*() {
        expectSuccess(yield* webhook({}, { "X-Webhook-Secret": SECRET }), { apiObject: "Webhook" })
      }))
  })

  describe("inbound transfers announced by the sandbox", () => {
    it.effect("are recorded without any sync call; pndActive drops and the balance follows", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("wh-deposit")
        yield* inboundTransfer(customer.accountNumber, 250_000n)
        const rows = yield* pollUntil(depositRows(customer.customerId), (r) => r.length > 0)
        expect(rows).toHaveLength(1)
        expect(rows[0]).toMatchObject({ type: "credit", purpose: "deposit", status: "confirmed", amountKobo: "250000" })
        expect(expectSuccess(yield* me(customer.accessToken), { apiObject: "Customer" })).toMatchObject({
          pndActive: false,
          balanceKobo: 250_000
        })
        // a second transfer is recorded too, once
        yield* inboundTransfer(customer.accountNumber, 1_000n)
        const both = yield* pollUntil(depositRows(customer.customerId), (r) => r.length > 1)
        expect(both.map((r) => r.amountKobo).sort()).toEqual(["1000", "250000"])
        yield* Effect.sleep("300 millis")
        expect(yield* depositRows(customer.customerId)).toHaveLength(2)
      }))

    it.effect("the same notification replayed 5 times (sequentially and at once) is still recorded once", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("wh-replay")
        yield* inboundTransfer(customer.accountNumber, 80_000n)
        const recorded = yield* pollUntil(depositRows(customer.customerId), (r) => r.length > 0)
        expect(recorded).toHaveLength(1)
        const reference = recorded[0]!.providerReference!
        expect(reference).toMatch(/\S/)
        const replay = notification(customer.accountNumber, reference, 80_000)
        for (let i = 0; i < 5; i++) expectSuccess(yield* webhook(replay), { apiObject: "Webhook" })
        const parallel = yield* Effect.all(Array.from({ length: 5 }, () => webhook(replay)), { concurrency: "unbounded" })
        for (const reply of parallel) expectSuccess(reply, { apiObject: "Webhook" })
        yield* Effect.sleep("750 millis")
        const rows = yield* depositRows(customer.customerId)
        expect(rows).toHaveLength(1)
        expect(rows[0]).toMatchObject({ amountKobo: "80000", providerReference: reference })
        expect(yield* balanceOf(customer.accessToken)).toBe(80_000)
      }))

    it.effect("a forged notification (the provider has no such posting) records nothing", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("wh-forged")
        const before = yield* allTransactionCount
        expectSuccess(yield* webhook(notification(customer.accountNumber, "NIP000000999", 9_999_999)), { apiObject: "Webhook" })
        yield* Effect.sleep("500 millis")
        expect(yield* depositRows(customer.customerId)).toEqual([])
        expect(yield* allTransactionCount).toBe(before)
        expect(yield* balanceOf(customer.accessToken)).toBe(0)
        expect(expectSuccess(yield* me(customer.accessToken), { apiObject: "Customer" }).pndActive).toBe(true)
      }))

    it.effect("an unknown account number → 200 (acknowledged) and nothing recorded", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("wh-unknown")
        yield* inboundTransfer(customer.accountNumber, 5_000n)
        yield* pollUntil(depositRows(customer.customerId), (r) => r.length > 0)
        const before = yield* allTransactionCount
        expect(before).toBeGreaterThan(0)
        const unknown = customer.accountNumber === "0000000001" ? "0000000002" : "0000000001"
        const reply = yield* webhook(notification(unknown, "NIP000000777", 5_000))
        expectSuccess(reply, { apiObject: "Webhook", message: "Acknowledged." })
        expect(reply.text).not.toContain("No customer")
        yield* Effect.sleep("500 millis")
        expect(yield* allTransactionCount).toBe(before)
      }))
  })
})
