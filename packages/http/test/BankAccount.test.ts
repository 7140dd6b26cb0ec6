/**
 * The customer's bank account: POST /customers/create-account (and its alias create-bank-account),
 * GET /customers/balance, GET /customers/transactions and the banking fields of /customers/me.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import {
  expectFailure,
  expectSuccess,
  login,
  me,
  post,
  uniqueEmail,
  verifiedAccount
} from "./support/Fixtures.js"
import {
  bankCustomer,
  bvnBody,
  createAccount,
  get,
  KOBO_STRING,
  kycCustomer,
  sandboxAccountCount,
  verifyBvn
} from "./support/BankingFixtures.js"
import { TestServer } from "./support/TestServer.js"

const NO_BANK_ACCOUNT = "No bank account found"
const ACCOUNT_EXISTS = "Bank account already exists"

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("bank account", (it) => {
  describe("POST /customers/create-account and /customers/create-bank-account", () => {
    for (const path of ["create-account", "create-bank-account"] as const) {
      it.effect(`${path}: 201 with accountNumber = bankAccountNumber; the profile becomes active with PND and balance 0`, () =>
        Effect.gen(function*() {
          const customer = yield* kycCustomer(`open-${path}`)
          const reply = yield* createAccount(customer.accessToken, path)
          const result = expectSuccess(reply, { status: 201, apiObject: "Customer", message: "Bank account created." })
          expect(Object.keys(result).sort()).toEqual(["accountNumber", "bankAccountNumber"])
          expect(result.accountNumber).toMatch(/^\d{10}$/)
          expect(result.bankAccountNumber).toBe(result.accountNumber)

          const profile = expectSuccess(yield* me(customer.accessToken), { apiObject: "Customer" })
          expect(profile).toMatchObject({
            coreAccountNumber: result.accountNumber,
            pndActive: true,
            balance: 0,
            balanceKobo: 0,
            customerStatus: "active",
            kycStatus: "bvn_verified"
          })
          expect(typeof profile.balance).toBe("number")
          expect(typeof profile.balanceKobo).toBe("number")
          expect(yield* sandboxAccountCount(customer.email)).toBe(1)
        }))

      it.effect(`${path}: a second call → 400 'Bank account already exists' on both paths; no second account is opened`, () =>
        Effect.gen(function*() {
          const customer = yield* bankCustomer(`again-${path}`)
          for (const again of ["create-account", "create-bank-account"] as const) {
            const error = expectFailure(yield* createAccount(customer.accessToken, again), 400, ACCOUNT_EXISTS, "Customer")
            expect(error).toMatchObject({ accountNumber: customer.accountNumber })
          }
          const profile = expectSuccess(yield* me(customer.accessToken), { apiObject: "Customer" })
          expect(profile.coreAccountNumber).toBe(customer.accountNumber)
          expect(profile.customerStatus).toBe("active")
          expect(yield* sandboxAccountCount(customer.email)).toBe(1)
        }))
    }

    it.effect("concurrent openings open exactly one account; every success names it", () =>
      Effect.gen(function*() {
        const customer = yield* kycCustomer("open-race")
        const replies = yield* Effect.all(
          [
            createAccount(customer.accessToken, "create-account"),
            createAccount(customer.accessToken, "create-bank-account"),
            createAccount(customer.accessToken, "create-account"),
            createAccount(customer.accessToken, "create-bank-account")
          ],
          { concurrency: "unbounded" }
        )
        const profile = expectSuccess(yield* me(customer.accessToken), { apiObject: "Customer" })
        expect(profile.coreAccountNumber).toMatch(/^\d{10}$/)
        expect(replies.some((r) => r.status === 201)).toBe(true)
        for (const reply of replies) {
          if (reply.status === 201) {
            expect(expectSuccess(reply, { status: 201, apiObject: "Customer" }).accountNumber).toBe(profile.coreAccountNumber)
          } else {
            expect(expectFailure(reply, 400, ACCOUNT_EXISTS, "Customer").accountNumber).toBe(profile.coreAccountNumber)
          }
        }
        expect(yield* sandboxAccountCount(customer.email)).toBe(1)
      }))

    it.effect("before BVN verification → 400, nothing opened", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("open-nobvn")
        for (const path of ["create-account", "create-bank-account"] as const) {
          expectFailure(yield* createAccount(account.accessToken, path), 400, "Verify your BVN before opening a bank account", "Customer")
        }
        const profile = expectSuccess(yield* me(account.accessToken), { apiObject: "Customer" })
        expect(profile).not.toHaveProperty("coreAccountNumber")
        expect(profile.customerStatus).toBe("verified")
        expect(yield* sandboxAccountCount(account.email)).toBe(0)
      }))

    it.effect("before email verification (BVN verified) → 400, nothing opened", () =>
      Effect.gen(function*() {
        const email = uniqueEmail("open-noemail")
        expectSuccess(yield* post("/api/v1/auth/register", { email, password: "open-noemail-1" }), { status: 201 })
        const tokens = expectSuccess(yield* login({ email, password: "open-noemail-1" }))
        expectSuccess(yield* verifyBvn(bvnBody(), tokens.accessToken))
        for (const path of ["create-account", "create-bank-account"] as const) {
          expectFailure(
            yield* createAccount(tokens.accessToken, path),
            400,
            "Verify your email before opening a bank account",
            "Customer"
          )
        }
        const profile = expectSuccess(yield* me(tokens.accessToken), { apiObject: "Customer" })
        expect(profile).not.toHaveProperty("coreAccountNumber")
        expect(profile.customerStatus).toBe("unverified")
        expect(yield* sandboxAccountCount(email)).toBe(0)
      }))

    it.effect("401 without a token", () =>
      Effect.gen(function*() {
        expectFailure(yield* createAccount(undefined, "create-account"), 401, "Authentication required", "Customer")
        expectFailure(yield* createAccount(undefined, "create-bank-account"), 401, "Authentication required", "Customer")
      }))
  })

  describe("GET /customers/balance and /customers/transactions", () => {
    it.effect("400 'No bank account found' before an account exists (also after BVN)", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("bal-none")
        expectFailure(yield* get("/api/v1/customers/balance", account.accessToken), 400, NO_BANK_ACCOUNT, "Customer")
        expectFailure(yield* get("/api/v1/customers/transactions", account.accessToken), 400, NO_BANK_ACCOUNT, "Customer")
        const kyc = yield* kycCustomer("bal-kyc")
        expectFailure(yield* get("/api/v1/customers/balance", kyc.accessToken), 400, NO_BANK_ACCOUNT, "Customer")
        expectFailure(yield* get("/api/v1/customers/transactions", kyc.accessToken), 400, NO_BANK_ACCOUNT, "Customer")
      }))

    it.effect("a new account: balance 0 (a number), no transactions", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("bal-zero")
        const balance = expectSuccess(yield* get("/api/v1/customers/balance", customer.accessToken), { apiObject: "Customer" })
        expect(balance).toStrictEqual({ balanceKobo: 0 })
        const rows = expectSuccess(yield* get("/api/v1/customers/transactions", customer.accessToken), { apiObject: "Customer" })
        expect(rows).toEqual([])
      }))

    it.effect("after a test deposit: balanceKobo is a number; the raw provider row is an inbound NIP credit", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("bal-deposit")
        const started = Date.now()
        expectSuccess(yield* post("/api/v1/transactions/deposit/test", { amountKobo: 4_321_000 }, customer.accessToken), {
          apiObject: "Transaction"
        })
        const balance = expectSuccess(yield* get("/api/v1/customers/balance", customer.accessToken), { apiObject: "Customer" })
        expect(balance).toStrictEqual({ balanceKobo: 4_321_000 })

        const reply = yield* get("/api/v1/customers/transactions", customer.accessToken)
        const rows = expectSuccess(reply, { apiObject: "Customer" })
        expect(rows).toHaveLength(1)
        const [row] = rows
        expect(row).toMatchObject({
          type: "credit",
          channel: "nip_inbound",
          amountKobo: "4321000",
          amount: "4321000"
        })
        expect(row.amountKobo).toMatch(KOBO_STRING)
        expect(typeof row.reference).toBe("string")
        expect(row.reference.length).toBeGreaterThan(0)
        expect(typeof row.narration).toBe("string")
        expect(new Date(row.postedAt).toISOString()).toBe(row.postedAt)
        expect(Date.parse(row.postedAt)).toBeGreaterThanOrEqual(started - 5_000)
        expect(Object.keys(row).sort()).toEqual([
          "amount",
          "amountKobo",
          "channel",
          "counterpartyAccountNumber",
          "counterpartyBankCode",
          "counterpartyName",
          "narration",
          "postedAt",
          "reference",
          "type"
        ])
        // amounts are strings in the raw text, not numbers
        expect(reply.text).toContain(`"amountKobo":"4321000"`)

        const profile = expectSuccess(yield* me(customer.accessToken), { apiObject: "Customer" })
        expect(profile).toMatchObject({ balance: 4_321_000, balanceKobo: 4_321_000 })
      }))

    it.effect("each customer sees only their own account", () =>
      Effect.gen(function*() {
        const a = yield* bankCustomer("bal-own-a")
        const b = yield* bankCustomer("bal-own-b")
        expect(a.accountNumber).not.toBe(b.accountNumber)
        expectSuccess(yield* post("/api/v1/transactions/deposit/test", { amountKobo: 700 }, a.accessToken), {
          apiObject: "Transaction"
        })
        expect(expectSuccess(yield* get("/api/v1/customers/balance", b.accessToken), { apiObject: "Customer" }))
          .toStrictEqual({ balanceKobo: 0 })
        expect(expectSuccess(yield* get("/api/v1/customers/transactions", b.accessToken), { apiObject: "Customer" }))
          .toEqual([])
        expect(expectSuccess(yield* get("/api/v1/customers/balance", a.accessToken), { apiObject: "Customer" }))
          .toStrictEqual({ balanceKobo: 700 })
      }))

    it.effect("401 without a token", () =>
      Effect.gen(function*() {
        expectFailure(yield* get("/api/v1/customers/balance"), 401, "Authentication required", "Customer")
        expectFailure(yield* get("/api/v1/customers/transactions"), 401, "Authentication required", "Customer")
      }))
  })
})
