/**
 * POST /api/v1/transactions/transfer and GET /api/v1/transactions/transfer/fee end to end, against
 * the in-process sandbox bank through the real adapter. After every test the sandbox's books
 * balance (customers + settlement + paid out = deposits).
 */
import { conservation } from "@app/sandbox"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { bankCustomer, get } from "./support/BankingFixtures.js"
import { expectFailure, expectSuccess, expectValidation, post } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"

const TRANSFER = "/api/v1/transactions/transfer"

/** ₦2,500 → ₦10 fee + ₦0.75 VAT */
const AMOUNT = 250_000
const FEE = 1_075

const body = (patch: Record<string, unknown> = {}) => ({
  destinationAccountNumber: "0123450001",
  destinationBankCode: "000013",
  destinationBankName: "GTBank",
  destinationAccountName: "SANDBOX ACCOUNT 0001",
  amountKobo: AMOUNT,
  idempotencyKey: randomUUID(),
  ...patch
})

/** A customer with a bank account and a confirmed first deposit of `kobo`. */
const funded = (tag: string, kobo = 1_000_000) =>
  Effect.gen(function*() {
    const customer = yield* bankCustomer(tag)
    expectSuccess(yield* post("/api/v1/transactions/deposit/test", { amountKobo: kobo }, customer.accessToken), {
      apiObject: "Transaction"
    })
    return customer
  })

const balanceOf = (token: string) =>
  Effect.map(get("/api/v1/customers/balance", token), (r) => r.body.result.balanceKobo as number)

const booksBalance = Effect.gen(function*() {
  const check = yield* conservation
  expect(check.problems).toEqual([])
  expect(check.ok).toBe(true)
})

layer(TestServer, { excludeTestServices: true, timeout: "90 seconds" })("transfers", (it) => {
  describe("POST /transactions/transfer", () => {
    it.effect("confirmed: the wallet pays amount + fee; the transaction row is returned", () =>
      Effect.gen(function*() {
        const c = yield* funded("tr-ok")
        const result = expectSuccess(yield* post(TRANSFER, body(), c.accessToken), { apiObject: "Transaction" })
        expect(result).toMatchObject({
          type: "transfer",
          purpose: "manual_transfer",
          status: "confirmed",
          amountKobo: String(AMOUNT),
          feeKobo: String(FEE),
          failureReason: null
        })
        expect(result.retrievalReference).toMatch(/^D[0-9A-Z]{11}$/)
        expect(yield* balanceOf(c.accessToken)).toBe(1_000_000 - AMOUNT - FEE)
        yield* booksBalance
      }))

    it.effect("50 identical concurrent requests: one debit, one transaction; a later repeat returns it", () =>
      Effect.gen(function*() {
        const c = yield* funded("tr-50")
        const request = body()
        const replies = yield* Effect.all(Array.from({ length: 50 }, () => post(TRANSFER, request, c.accessToken)), {
          concurrency: "unbounded"
        })
        // every one gets the original transaction back, none is told "in progress"
        expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200))
        const ok = replies
        expect(new Set(ok.map((r) => r.body.result.id)).size).toBe(1)
        const again = expectSuccess(yield* post(TRANSFER, request, c.accessToken), { apiObject: "Transaction" })
        expect(again.id).toBe(ok[0]!.body.result.id)
        expect(yield* balanceOf(c.accessToken)).toBe(1_000_000 - AMOUNT - FEE)
        const rows = (yield* get("/api/v1/customers/transactions", c.accessToken)).body.result as Array<any>
        expect(rows.filter((r) => r.type === "debit")).toHaveLength(1)
        yield* booksBalance
      }))

    it.effect("concurrent different requests against a balance that covers one: exactly one succeeds", () =>
      Effect.gen(function*() {
        const c = yield* funded("tr-race", 300_000)
        const replies = yield* Effect.all(Array.from({ length: 8 }, () => post(TRANSFER, body(), c.accessToken)), {
          concurrency: "unbounded"
        })
        expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
        expect(yield* balanceOf(c.accessToken)).toBe(300_000 - AMOUNT - FEE)
        yield* booksBalance
      }))

    it.effect("the same idempotencyKey with a different body is 409", () =>
      Effect.gen(function*() {
        const c = yield* funded("tr-409")
        const request = body()
        expectSuccess(yield* post(TRANSFER, request, c.accessToken), { apiObject: "Transaction" })
        expectFailure(yield* post(TRANSFER, { ...request, amountKobo: AMOUNT + 1 }, c.accessToken), 409, /already used/, "Transaction")
      }))

    it.effect("0003: a failed transfer is 400 'Transfer failed' and the debit is reversed", () =>
      Effect.gen(function*() {
        const c = yield* funded("tr-0003")
        const reply = yield* post(TRANSFER, body({ destinationAccountNumber: "0123450003" }), c.accessToken)
        const error = expectFailure(reply, 400, /^Transfer failed/, "Transaction")
        expect(error.transactionId).toBeDefined()
        expect(yield* balanceOf(c.accessToken)).toBe(1_000_000)
        yield* booksBalance
      }))

    it.effect("0002: pending (the wallet is debited, the account restored)", () =>
      Effect.gen(function*() {
        const c = yield* funded("tr-0002")
        const result = expectSuccess(yield* post(TRANSFER, body({ destinationAccountNumber: "0123450002" }), c.accessToken), {
          apiObject: "Transaction"
        })
        expect(result.status).toBe("pending")
        expect(yield* balanceOf(c.accessToken)).toBe(1_000_000 - AMOUNT - FEE)
        // the account is not held: another transfer may go
        expectSuccess(yield* post(TRANSFER, body(), c.accessToken), { apiObject: "Transaction" })
        yield* booksBalance
      }))

    it.effect("insufficient balance (the fee counts) and no first deposit are 400s; nothing moves", () =>
      Effect.gen(function*() {
        const c = yield* funded("tr-short", AMOUNT)
        const short = expectFailure(yield* post(TRANSFER, body(), c.accessToken), 400, "Insufficient balance", "Transaction")
        expect(short).toEqual({ code: "INSUFFICIENT_BALANCE", requiredKobo: String(AMOUNT + FEE), availableKobo: String(AMOUNT) })
        const fresh = yield* bankCustomer("tr-nodeposit")
        expectFailure(yield* post(TRANSFER, body(), fresh.accessToken), 400, /first deposit/, "Transaction")
        expect(yield* balanceOf(c.accessToken)).toBe(AMOUNT)
      }))

    it.effect("validation: every bad field is named; 401 without a token", () =>
      Effect.gen(function*() {
        const c = yield* funded("tr-val")
        const reply = yield* post(
          TRANSFER,
          body({ destinationAccountNumber: "123", amountKobo: 10.5, idempotencyKey: "nope", destinationBankName: undefined }),
          c.accessToken
        )
        expectValidation(reply, { fields: ["destinationAccountNumber", "amountKobo", "idempotencyKey", "destinationBankName"], apiObject: "Transaction" })
        expectValidation(yield* post(TRANSFER, body({ amountKobo: 0 }), c.accessToken), { fields: ["amountKobo"], apiObject: "Transaction" })
        expectFailure(yield* post(TRANSFER, body()), 401, "Authentication required", "Transaction")
      }))
  })

  describe("GET /transactions/transfer/fee", () => {
    it.effect("NIP tiers with VAT, as decimal strings", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("fee")
        const fee = (amount: string) => get(`/api/v1/transactions/transfer/fee?amountKobo=${amount}`, c.accessToken)
        expect(expectSuccess(yield* fee("500000"), { apiObject: "Transaction" })).toEqual({
          amountKobo: "500000",
          feeKobo: "1000",
          vatKobo: "75",
          totalKobo: "501075"
        })
        expect(expectSuccess(yield* fee("500001"), { apiObject: "Transaction" }).feeKobo).toBe("2500")
        expect(expectSuccess(yield* fee("5000001"), { apiObject: "Transaction" }).vatKobo).toBe("375")
        expectValidation(yield* fee("abc"), { fields: ["amountKobo"], apiObject: "Transaction" })
        expectValidation(yield* get("/api/v1/transactions/transfer/fee", c.accessToken), { fields: ["amountKobo"], apiObject: "Transaction" })
      }))
  })
})
