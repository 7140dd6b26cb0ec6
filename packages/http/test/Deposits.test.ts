/**
 * Deposits: POST /transactions/deposit/test, POST /transactions/deposit/sync (each inbound transfer
 * recorded once, however often or concurrently synced) and GET /transactions/deposit/fee.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectFailure, expectSuccess, expectValidation, me, post, verifiedAccount } from "./support/Fixtures.js"
import {
  bankCustomer,
  depositRows,
  get,
  inboundTransfer,
  KOBO_STRING,
  kycCustomer
} from "./support/BankingFixtures.js"
import { TestServer } from "./support/TestServer.js"

const TEST_DEPOSIT = "/api/v1/transactions/deposit/test"
const SYNC = "/api/v1/transactions/deposit/sync"
const FEE = "/api/v1/transactions/deposit/fee"
const NO_BANK_ACCOUNT = "No bank account found"

const balanceOf = (token: string) =>
  Effect.map(get("/api/v1/customers/balance", token), (r) => expectSuccess(r, { apiObject: "Customer" }).balanceKobo as number)

const providerRows = (token: string) =>
  Effect.map(get("/api/v1/customers/transactions", token), (r) => expectSuccess(r, { apiObject: "Customer" }) as Array<any>)

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("deposits", (it) => {
  describe("POST /transactions/deposit/test", () => {
    it.effect("default 5000000 kobo; then an explicit amount; each recorded once as a confirmed deposit", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("test-default")
        const first = expectSuccess(yield* post(TEST_DEPOSIT, {}, customer.accessToken), {
          apiObject: "Transaction",
          message: "Test deposit credited."
        })
        expect(first).toStrictEqual({ balanceKobo: 5_000_000 })
        const second = expectSuccess(yield* post(TEST_DEPOSIT, { amountKobo: 1_234 }, customer.accessToken), {
          apiObject: "Transaction"
        })
        expect(second).toStrictEqual({ balanceKobo: 5_001_234 })
        expect(yield* balanceOf(customer.accessToken)).toBe(5_001_234)

        const rows = yield* depositRows(customer.customerId)
        expect(rows.map((r) => r.amountKobo).sort()).toEqual(["1234", "5000000"])
        for (const row of rows) expect(row).toMatchObject({ type: "credit", purpose: "deposit", status: "confirmed" })
        const references = (yield* providerRows(customer.accessToken)).map((r) => r.reference).sort()
        expect(rows.map((r) => r.providerReference).sort()).toEqual(references)
      }))

    // The spec makes amountKobo optional; a client that omits it by sending no body at all (curl -X POST
    // with only the bearer header) must get the default deposit, not a validation error.
    it.effect("without any request body: the default amount", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("test-nobody")
        const reply = yield* Effect.gen(function*() {
          const client = yield* HttpClient.HttpClient
          const response = yield* client.execute(
            HttpClientRequest.post(TEST_DEPOSIT).pipe(HttpClientRequest.bearerToken(customer.accessToken))
          )
          return { status: response.status, body: (yield* response.json) as any }
        }).pipe(Effect.scoped, Effect.orDie)
        expect(reply, JSON.stringify(reply.body)).toMatchObject({
          status: 200,
          body: { status: "success", result: { balanceKobo: 5_000_000 } }
        })
        expect(yield* balanceOf(customer.accessToken)).toBe(5_000_000)
      }))

    it.effect("the maximum 10000000 is accepted; 10000001 → 400", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("test-max")
        expectValidation(yield* post(TEST_DEPOSIT, { amountKobo: 10_000_001 }, customer.accessToken), {
          fields: ["amountKobo"],
          apiObject: "Transaction"
        })
        expectValidation(yield* post(TEST_DEPOSIT, { amountKobo: 50_000_000 }, customer.accessToken), {
          fields: ["amountKobo"],
          apiObject: "Transaction"
        })
        expect(yield* balanceOf(customer.accessToken)).toBe(0)
        expect(
          expectSuccess(yield* post(TEST_DEPOSIT, { amountKobo: 10_000_000 }, customer.accessToken), { apiObject: "Transaction" })
        ).toStrictEqual({ balanceKobo: 10_000_000 })
      }))

    it.effect("0, negative, fractional, string, null and huge amounts → 400 fieldErrors.amountKobo; nothing credited", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("test-invalid")
        for (const amountKobo of [0, -1, -5_000_000, 1.5, "100", null, true, 1e20, "5000000"]) {
          const reply = yield* post(TEST_DEPOSIT, { amountKobo }, customer.accessToken)
          expectValidation(reply, { fields: ["amountKobo"], apiObject: "Transaction" })
        }
        expect(yield* balanceOf(customer.accessToken)).toBe(0)
        expect(yield* providerRows(customer.accessToken)).toEqual([])
        expect(yield* depositRows(customer.customerId)).toEqual([])
      }))

    it.effect("no bank account → 400 'No bank account found' (verified, and BVN-verified)", () =>
      Effect.gen(function*() {
        const verified = yield* verifiedAccount("test-noacct")
        expectFailure(yield* post(TEST_DEPOSIT, {}, verified.accessToken), 400, NO_BANK_ACCOUNT, "Transaction")
        const kyc = yield* kycCustomer("test-noacct-kyc")
        expectFailure(yield* post(TEST_DEPOSIT, { amountKobo: 100 }, kyc.accessToken), 400, NO_BANK_ACCOUNT, "Transaction")
      }))

    it.effect("concurrent test deposits are each credited and recorded exactly once", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("test-concurrent")
        const replies = yield* Effect.all(
          [1_000, 2_000, 3_000, 4_000, 5_000].map((amountKobo) => post(TEST_DEPOSIT, { amountKobo }, customer.accessToken)),
          { concurrency: "unbounded" }
        )
        for (const reply of replies) expectSuccess(reply, { apiObject: "Transaction" })
        yield* Effect.sleep("300 millis")
        expect(yield* balanceOf(customer.accessToken)).toBe(15_000)
        const rows = yield* depositRows(customer.customerId)
        expect(rows.map((r) => r.amountKobo).sort()).toEqual(["1000", "2000", "3000", "4000", "5000"])
        expect(yield* providerRows(customer.accessToken)).toHaveLength(5)
      }))

    it.effect("pndActive is true until the first deposit, false afterwards", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("test-pnd")
        expect(expectSuccess(yield* me(customer.accessToken), { apiObject: "Customer" }).pndActive).toBe(true)
        expectSuccess(yield* post(TEST_DEPOSIT, { amountKobo: 100 }, customer.accessToken), { apiObject: "Transaction" })
        const profile = expectSuccess(yield* me(customer.accessToken), { apiObject: "Customer" })
        expect(profile).toMatchObject({ pndActive: false, balance: 100, balanceKobo: 100 })
      }))

    it.effect("401 without a token", () =>
      Effect.gen(function*() {
        expectFailure(yield* post(TEST_DEPOSIT, {}), 401, "Authentication required", "Transaction")
      }))
  })

  describe("POST /transactions/deposit/sync", () => {
    it.effect("returns the live balance; inbound transfers at the sandbox appear and are recorded", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("sync-basic")
        expect(expectSuccess(yield* post(SYNC, undefined, customer.accessToken), {
          apiObject: "Transaction",
          message: "Deposits synced."
        })).toStrictEqual({ balanceKobo: 0 })
        yield* inboundTransfer(customer.accountNumber, 123_456n)
        yield* inboundTransfer(customer.accountNumber, 654_321n)
        const synced = expectSuccess(yield* post(SYNC, undefined, customer.accessToken), { apiObject: "Transaction" })
        expect(synced).toStrictEqual({ balanceKobo: 777_777 })
        const rows = yield* depositRows(customer.customerId)
        expect(rows.map((r) => r.amountKobo).sort()).toEqual(["123456", "654321"])
        for (const row of rows) {
          expect(row.amountKobo).toMatch(KOBO_STRING)
          expect(row).toMatchObject({ type: "credit", purpose: "deposit", status: "confirmed" })
        }
        expect(yield* providerRows(customer.accessToken)).toHaveLength(2)
        expect(expectSuccess(yield* me(customer.accessToken), { apiObject: "Customer" })).toMatchObject({
          pndActive: false,
          balanceKobo: 777_777
        })
      }))

    it.effect("syncing again records nothing new", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("sync-twice")
        yield* inboundTransfer(customer.accountNumber, 10_000n)
        for (let i = 0; i < 3; i++) {
          expect(expectSuccess(yield* post(SYNC, undefined, customer.accessToken), { apiObject: "Transaction" }))
            .toStrictEqual({ balanceKobo: 10_000 })
        }
        expect(yield* depositRows(customer.customerId)).toHaveLength(1)
        expect(yield* providerRows(customer.accessToken)).toHaveLength(1)
      }))

    it.effect("concurrent syncs (racing the webhook) record each deposit exactly once", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("sync-race")
        yield* inboundTransfer(customer.accountNumber, 1_000n)
        yield* inboundTransfer(customer.accountNumber, 2_000n)
        yield* inboundTransfer(customer.accountNumber, 3_000n)
        const replies = yield* Effect.all(
          Array.from({ length: 6 }, () => post(SYNC, undefined, customer.accessToken)),
          { concurrency: "unbounded" }
        )
        for (const reply of replies) {
          expect(expectSuccess(reply, { apiObject: "Transaction" })).toStrictEqual({ balanceKobo: 6_000 })
        }
        // let any webhook-triggered background sync finish too
        yield* Effect.sleep("500 millis")
        const rows = yield* depositRows(customer.customerId)
        expect(rows.map((r) => r.amountKobo).sort()).toEqual(["1000", "2000", "3000"])
        expect(new Set(rows.map((r) => r.providerReference)).size).toBe(3)
        expect(yield* providerRows(customer.accessToken)).toHaveLength(3)
        expect(yield* balanceOf(customer.accessToken)).toBe(6_000)
      }))

    it.effect("no bank account → 400 'No bank account found'", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("sync-noacct")
        expectFailure(yield* post(SYNC, undefined, account.accessToken), 400, NO_BANK_ACCOUNT, "Transaction")
      }))

    it.effect("401 without a token", () =>
      Effect.gen(function*() {
        expectFailure(yield* post(SYNC), 401, "Authentication required", "Transaction")
      }))
  })

  describe("GET /transactions/deposit/fee", () => {
    const tiers: ReadonlyArray<readonly [string, string, string]> = [
      ["1", "1000", "75"],
      ["500000", "1000", "75"],
      ["500001", "2500", "188"],
      ["1000000", "2500", "188"],
      ["5000000", "2500", "188"],
      ["5000001", "5000", "375"],
      ["6000000", "5000", "375"]
    ]

    it.effect("the NIP fee tiers with VAT; every amount a decimal string; total = amount + fee + vat", () =>
      Effect.gen(function*() {
        const customer = yield* verifiedAccount("fee")
        for (const [amount, fee, vat] of tiers) {
          const reply = yield* get(`${FEE}?amountKobo=${amount}`, customer.accessToken)
          const quote = expectSuccess(reply, { apiObject: "Transaction" })
          expect(quote).toStrictEqual({
            amountKobo: amount,
            feeKobo: fee,
            vatKobo: vat,
            totalKobo: String(BigInt(amount) + BigInt(fee) + BigInt(vat))
          })
        }
        const big = expectSuccess(yield* get(`${FEE}?amountKobo=900000000000`, customer.accessToken), { apiObject: "Transaction" })
        expect(big).toStrictEqual({ amountKobo: "900000000000", feeKobo: "5000", vatKobo: "375", totalKobo: "900000005375" })
      }))

    it.effect("missing or invalid amountKobo → 400 fieldErrors.amountKobo", () =>
      Effect.gen(function*() {
        const customer = yield* verifiedAccount("fee-invalid")
        expectValidation(yield* get(FEE, customer.accessToken), { fields: ["amountKobo"], apiObject: "Transaction" })
        for (const value of ["", "abc", "0", "-100", "1.5", "1e5", "10000000000001"]) {
          expectValidation(yield* get(`${FEE}?amountKobo=${encodeURIComponent(value)}`, customer.accessToken), {
            fields: ["amountKobo"],
            apiObject: "Transaction"
          })
        }
      }))

    // JavaScript's BigInt("0x10") is 16: a hexadecimal, binary or octal literal must not silently
    // become a different amount of kobo; amountKobo is a decimal integer.
    it.effect("hexadecimal, binary and octal literals → 400, not read as another amount", () =>
      Effect.gen(function*() {
        const customer = yield* verifiedAccount("fee-radix")
        for (const value of ["0x10", "0b11", "0o17"]) {
          const reply = yield* get(`${FEE}?amountKobo=${value}`, customer.accessToken)
          expect(reply.status, `${value} → ${reply.text}`).toBe(400)
          expectValidation(reply, { fields: ["amountKobo"], apiObject: "Transaction" })
        }
      }))

    it.effect("401 without a token", () =>
      Effect.gen(function*() {
        expectFailure(yield* get(`${FEE}?amountKobo=500000`), 401, "Authentication required", "Transaction")
      }))
  })
})
