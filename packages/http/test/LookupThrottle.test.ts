/**
 * Issue 37 (suspected): name enquiry was unthrottled (200 look-ups in 0.5 s), each a billed provider
 * call that tells anyone with an account the name behind any account number. Played by the
 * enumerating customer over HTTP: past NAME_ENQUIRY_MAX_PER_HOUR look-ups (GET /beneficiaries/lookup
 * and POST /beneficiaries alike) in an hour, 429 LOOKUP_THROTTLED with Retry-After and no provider
 * call; other customers are not affected. The name enquiries made by a plan's POST/PATCH (its
 * withdrawal account, named in the answer) and by a transfer without a `nipSessionId` count against
 * the same budget: otherwise plan POST is the same oracle.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectFailure, expectSuccess, verifiedAccount } from "./support/Fixtures.js"
import { bankCustomer, get } from "./support/BankingFixtures.js"
import { post } from "./support/Fixtures.js"
import { deposit, PLAN, planBody } from "./support/PlanFixtures.js"
import { testServer } from "./support/TestServer.js"

const lookup = (accountNumber: string, token: string) => get(`/api/v1/beneficiaries/lookup?accountNumber=${accountNumber}&bankCode=000013`, token)

layer(testServer({ nameEnquiryMaxPerHour: 3 }), { excludeTestServices: true, timeout: "90 seconds" })("name enquiry throttle", (it) => {
  describe("per customer, per hour", () => {
    it.effect("the 4th look-up within the hour is 429 with Retry-After; saving a beneficiary counts too; others are unaffected", () =>
      Effect.gen(function*() {
        const enumerator = yield* verifiedAccount("lookup-enum")
        for (const n of ["0123450101", "0123450102"]) {
          expect(expectSuccess(yield* lookup(n, enumerator.accessToken), { apiObject: "Beneficiary" }).accountName).toMatch(/SANDBOX ACCOUNT/)
        }
        expectSuccess(yield* post("/api/v1/beneficiaries", { accountNumber: "0123450103", bankCode: "000013", bankName: "GTBank" }, enumerator.accessToken), {
          status: 201,
          apiObject: "Beneficiary"
        })
        const refused = yield* lookup("0123450104", enumerator.accessToken)
        const error = expectFailure(refused, 429, /Too many account look-ups/, "Beneficiary")
        expect(error.code).toBe("LOOKUP_THROTTLED")
        expect(error.retryAfterSeconds).toBeGreaterThan(3500)
        expect(error.retryAfterSeconds).toBeLessThanOrEqual(3600)
        expect(refused.headers["retry-after"]).toBe(String(error.retryAfterSeconds))
        expect(refused.text).not.toContain("SANDBOX ACCOUNT")
        expectFailure(
          yield* post("/api/v1/beneficiaries", { accountNumber: "0123450105", bankCode: "000013", bankName: "GTBank" }, enumerator.accessToken),
          429,
          /Too many account look-ups/,
          "Beneficiary"
        )
        const other = yield* verifiedAccount("lookup-other")
        expectSuccess(yield* lookup("0123450106", other.accessToken), { apiObject: "Beneficiary" })
      }))

    it.effect("plan POST is no way around it: its name enquiry counts, and past the budget it is 429 without the holder's name", () =>
      Effect.gen(function*() {
        const attacker = yield* bankCustomer("lookup-plan")
        // a plan POST names the withdrawal account's holder when no name is supplied
        const named = expectSuccess(yield* post(PLAN, planBody({ withdrawalAccountNumber: "0123450301" }), attacker.accessToken), {
          apiObject: "Disbursement"
        })
        expect(named.withdrawalAccountName).toBe("SANDBOX ACCOUNT 0301")
        for (const n of ["0123450302", "0123450303"]) {
          expectSuccess(yield* lookup(n, attacker.accessToken), { apiObject: "Beneficiary" })
        }
        // the budget (3) is spent: neither a plan POST nor a look-up names anyone
        const refused = yield* post(PLAN, planBody({ withdrawalAccountNumber: "0123450301" }), attacker.accessToken)
        expect(expectFailure(refused, 429, /Too many account look-ups/, "Disbursement").code).toBe("LOOKUP_THROTTLED")
        expect(refused.text).not.toContain("SANDBOX ACCOUNT")
        expectFailure(yield* lookup("0123450304", attacker.accessToken), 429, /Too many account look-ups/, "Beneficiary")
      }))

    it.effect("a transfer without a nipSessionId makes a name enquiry: it counts too", () =>
      Effect.gen(function*() {
        const sender = yield* bankCustomer("lookup-transfer")
        yield* deposit(sender.accessToken, 100_000)
        for (const n of ["0123450401", "0123450402", "0123450403"]) {
          expectSuccess(yield* lookup(n, sender.accessToken), { apiObject: "Beneficiary" })
        }
        const refused = yield* post("/api/v1/transactions/transfer", {
          destinationAccountNumber: "0123450001",
          destinationBankCode: "000013",
          destinationBankName: "GTBank",
          destinationAccountName: "SANDBOX ACCOUNT 0001",
          amountKobo: 10_000,
          idempotencyKey: randomUUID()
        }, sender.accessToken)
        expect(expectFailure(refused, 429, /Too many account look-ups/, "Transaction").code).toBe("LOOKUP_THROTTLED")
      }))

    it.effect("a burst of 10 concurrent look-ups gets at most 3 names", () =>
      Effect.gen(function*() {
        const burst = yield* verifiedAccount("lookup-burst")
        const replies = yield* Effect.all(
          Array.from({ length: 10 }, (_, i) => lookup(`01234502${String(i).padStart(2, "0")}`, burst.accessToken)),
          { concurrency: "unbounded" }
        )
        expect(replies.filter((r) => r.status === 200).length).toBe(3)
        expect(replies.filter((r) => r.status === 429).length).toBe(7)
      }))
  })
})
