/**
 * The customer's Transaction rows: GET /transactions (paginated, newest first), GET
 * /transactions/{id} (only the customer's own) and GET /transactions/report (JSON totals or a CSV
 * attachment). Rows dated in the past are written straight into the database, as the clock of a
 * running server cannot be moved back.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { api, expectFailure, expectSuccess, expectValidation, post, UUID_PATTERN, verifiedAccount } from "./support/Fixtures.js"
import { bankCustomer, get, KOBO_STRING } from "./support/BankingFixtures.js"
import { parseCsv } from "./support/Csv.js"
import { TestServer } from "./support/TestServer.js"
import { CustomerId } from "@app/domain"

const LIST = "/api/v1/transactions"
const REPORT = "/api/v1/transactions/report"
const TEST_DEPOSIT = "/api/v1/transactions/deposit/test"
const NOT_FOUND = "Transaction not found"
const NO_BANK_ACCOUNT = "No bank account found"

const SPEC_FIELDS = [
  "amountKobo",
  "createdAt",
  "customerId",
  "failureReason",
  "feeKobo",
  "id",
  "planId",
  "purpose",
  "retrievalReference",
  "retryCount",
  "status",
  "transferReference",
  "type",
  "updatedAt"
]

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const listed = (token: string, query = "") =>
  Effect.map(get(`${LIST}${query}`, token), (r) => expectSuccess(r, { apiObject: "Transaction" }))

const deposit = (token: string, amountKobo: number) =>
  Effect.map(post(TEST_DEPOSIT, { amountKobo }, token), (r) => expectSuccess(r, { apiObject: "Transaction" }))

interface PastRow {
  readonly createdAt: string
  readonly type?: "credit" | "debit"
  readonly purpose?: "deposit" | "disbursement" | "early_withdrawal"
  readonly amountKobo: bigint
  readonly feeKobo?: bigint
  readonly status?: "pending" | "confirmed" | "failed"
  readonly reference?: string
}

/** Writes a Transaction row dated `createdAt` for the customer; returns its id. */
const insertRow = (customerId: CustomerId, r: PastRow) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = randomUUID()
    const type = r.type ?? "credit"
    const reference = r.reference ?? `R${id.slice(0, 11)}`
    yield* sql`
      INSERT INTO transactions (
        id, customer_id, plan_id, type, purpose, amount_kobo, fee_kobo, status, retrieval_reference,
        transfer_reference, provider_reference, failure_reason, retry_count, created_at, updated_at
      ) VALUES (
        ${id}, ${customerId}, NULL, ${type}, ${r.purpose ?? (type === "credit" ? "deposit" : "disbursement")},
        ${r.amountKobo.toString()}, ${(r.feeKobo ?? 0n).toString()}, ${r.status ?? "confirmed"},
        ${type === "credit" ? null : reference}, NULL, ${type === "credit" ? reference : null},
        ${r.status === "failed" ? "destination bank unavailable" : null}, 0,
        ${r.createdAt}::timestamptz, ${r.createdAt}::timestamptz
      )`
    return id
  }).pipe(Effect.orDie)

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10)

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("transactions", (it) => {
  describe("GET /transactions", () => {
    it.effect("defaults page 1 and pageSize 20; the spec's fields, kobo as decimal strings, newest first", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("list-fields")
        const empty = yield* listed(customer.accessToken)
        expect(empty).toStrictEqual({ items: [], page: 1, pageSize: 20, total: 0, totalPages: 0 })
        for (const amount of [1_000, 2_500, 700]) yield* deposit(customer.accessToken, amount)

        const page = yield* listed(customer.accessToken)
        expect(page).toMatchObject({ page: 1, pageSize: 20, total: 3, totalPages: 1 })
        expect(Object.keys(page).sort()).toEqual(["items", "page", "pageSize", "total", "totalPages"])
        expect(page.items.map((t: any) => t.amountKobo).sort()).toEqual(["1000", "2500", "700"])
        for (const t of page.items) {
          expect(Object.keys(t).sort()).toEqual(SPEC_FIELDS)
          expect(t).toMatchObject({
            customerId: customer.customerId,
            planId: null,
            type: "credit",
            purpose: "deposit",
            feeKobo: "0",
            status: "confirmed",
            failureReason: null,
            retryCount: 0
          })
          expect(t.id).toMatch(UUID_PATTERN)
          expect(t.amountKobo).toMatch(KOBO_STRING)
          expect(t.createdAt).toMatch(ISO)
          expect(t.updatedAt).toMatch(ISO)
        }
        const times = page.items.map((t: any) => Date.parse(t.createdAt))
        expect(times).toEqual([...times].sort((a, b) => b - a))
      }))

    it.effect("pages: newest first across pages, the last page partial, a page past the end empty", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("list-pages")
        const ids: Array<string> = []
        for (let i = 0; i < 25; i++) {
          ids.push(yield* insertRow(customer.customerId, {
            createdAt: new Date(Date.UTC(2024, 0, 1 + i, 12)).toISOString(),
            amountKobo: BigInt(100 + i)
          }))
        }
        const newestFirst = [...ids].reverse()

        const first = yield* listed(customer.accessToken)
        expect(first).toMatchObject({ page: 1, pageSize: 20, total: 25, totalPages: 2 })
        expect(first.items.map((t: any) => t.id)).toEqual(newestFirst.slice(0, 20))
        expect(first.items[0].createdAt).toBe("2024-01-25T12:00:00.000Z")

        const second = yield* listed(customer.accessToken, "?page=2")
        expect(second).toMatchObject({ page: 2, pageSize: 20, total: 25, totalPages: 2 })
        expect(second.items.map((t: any) => t.id)).toEqual(newestFirst.slice(20))

        const middle = yield* listed(customer.accessToken, "?page=2&pageSize=10")
        expect(middle).toMatchObject({ page: 2, pageSize: 10, total: 25, totalPages: 3 })
        expect(middle.items.map((t: any) => t.id)).toEqual(newestFirst.slice(10, 20))

        const beyond = yield* listed(customer.accessToken, "?page=3")
        expect(beyond).toStrictEqual({ items: [], page: 3, pageSize: 20, total: 25, totalPages: 2 })
        const farBeyond = yield* listed(customer.accessToken, "?page=1000000&pageSize=100")
        expect(farBeyond).toMatchObject({ items: [], page: 1_000_000, total: 25 })

        const all = yield* listed(customer.accessToken, "?pageSize=100")
        expect(all).toMatchObject({ page: 1, pageSize: 100, total: 25, totalPages: 1 })
        expect(all.items.map((t: any) => t.id)).toEqual(newestFirst)
      }))

    it.effect("pageSize above 100 (the maximum) and other bad page parameters → 400 fieldErrors", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("list-invalid")
        const error = expectValidation(yield* get(`${LIST}?pageSize=101`, customer.accessToken), {
          fields: ["pageSize"],
          apiObject: "Transaction"
        })
        expect(error.fieldErrors.pageSize).toEqual(["pageSize must be at most 100"])
        for (const value of ["0", "-1", "1.5", "abc", "", "1e2", "0x10", "1000"]) {
          expectValidation(yield* get(`${LIST}?pageSize=${encodeURIComponent(value)}`, customer.accessToken), {
            fields: ["pageSize"],
            apiObject: "Transaction"
          })
        }
        for (const value of ["0", "-2", "2.5", "first", "", "99999999999999"]) {
          expectValidation(yield* get(`${LIST}?page=${encodeURIComponent(value)}`, customer.accessToken), {
            fields: ["page"],
            apiObject: "Transaction"
          })
        }
        expectValidation(yield* get(`${LIST}?page=0&pageSize=500`, customer.accessToken), {
          fields: ["page", "pageSize"],
          apiObject: "Transaction"
        })
        expect((yield* listed(customer.accessToken, "?pageSize=100")).pageSize).toBe(100)
        expect((yield* listed(customer.accessToken, "?pageSize=1")).pageSize).toBe(1)
      }))

    it.effect("only the customer's own rows", () =>
      Effect.gen(function*() {
        const ada = yield* bankCustomer("list-own-a")
        const bola = yield* bankCustomer("list-own-b")
        yield* deposit(ada.accessToken, 111)
        yield* deposit(bola.accessToken, 222)
        yield* deposit(bola.accessToken, 333)
        const adas = yield* listed(ada.accessToken)
        expect(adas.total).toBe(1)
        expect(adas.items.map((t: any) => t.amountKobo)).toEqual(["111"])
        const bolas = yield* listed(bola.accessToken)
        expect(bolas.total).toBe(2)
        for (const t of bolas.items) expect(t.customerId).toBe(bola.customerId)
      }))

    it.effect("400 'No bank account found' before the bank account; 401 without a token", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("list-noacct")
        expectFailure(yield* get(LIST, account.accessToken), 400, NO_BANK_ACCOUNT, "Transaction")
        expectFailure(yield* get(LIST), 401, "Authentication required", "Transaction")
      }))
  })

  describe("GET /transactions/{id}", () => {
    it.effect("the customer's row, as listed", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("one-own")
        yield* deposit(customer.accessToken, 4_321)
        const [item] = (yield* listed(customer.accessToken)).items
        const one = expectSuccess(yield* get(`${LIST}/${item.id}`, customer.accessToken), { apiObject: "Transaction" })
        expect(one).toStrictEqual(item)
        expect(one.amountKobo).toBe("4321")
      }))

    it.effect("another customer's id and an unknown id → 404 'Transaction not found'", () =>
      Effect.gen(function*() {
        const ada = yield* bankCustomer("one-other-a")
        const bola = yield* bankCustomer("one-other-b")
        yield* deposit(bola.accessToken, 999)
        const [bolas] = (yield* listed(bola.accessToken)).items
        expectFailure(yield* get(`${LIST}/${bolas.id}`, ada.accessToken), 404, NOT_FOUND, "Transaction")
        expectFailure(yield* get(`${LIST}/${randomUUID()}`, ada.accessToken), 404, NOT_FOUND, "Transaction")
        // without a bank account, the same answer
        const plain = yield* verifiedAccount("one-other-c")
        expectFailure(yield* get(`${LIST}/${bolas.id}`, plain.accessToken), 404, NOT_FOUND, "Transaction")
        expectSuccess(yield* get(`${LIST}/${bolas.id}`, bola.accessToken), { apiObject: "Transaction" })
      }))

    it.effect("a malformed id → 400 fieldErrors.id; 401 without a token", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("one-bad")
        for (const id of ["not-a-uuid", "123", "00000000-0000-0000-0000-00000000000g"]) {
          expectValidation(yield* get(`${LIST}/${id}`, customer.accessToken), { fields: ["id"], apiObject: "Transaction" })
        }
        expectFailure(yield* get(`${LIST}/${randomUUID()}`), 401, "Authentication required", "Transaction")
      }))
  })

  describe("GET /transactions/report", () => {
    /** A customer with rows in March 2024 (some at the window's edges) and two test deposits today. */
    const customerWithHistory = (tag: string) =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer(tag)
        const c = customer.customerId
        // outside March 2024: the last instant before and the first instant after
        yield* insertRow(c, { createdAt: "2024-02-29T23:59:59.999Z", amountKobo: 1n })
        yield* insertRow(c, { createdAt: "2024-04-01T00:00:00.000Z", amountKobo: 2n })
        // inside: 3 confirmed credits, 2 confirmed debits with fees, a failed debit, a pending credit
        yield* insertRow(c, { createdAt: "2024-03-01T00:00:00.000Z", amountKobo: 5_000_000n })
        yield* insertRow(c, { createdAt: "2024-03-10T09:30:00.000Z", amountKobo: 250_000n })
        yield* insertRow(c, {
          createdAt: "2024-03-12T10:00:00.000Z",
          type: "debit",
          purpose: "disbursement",
          amountKobo: 1_000_000n,
          feeKobo: 2_688n
        })
        yield* insertRow(c, {
          createdAt: "2024-03-15T10:00:00.000Z",
          type: "debit",
          purpose: "early_withdrawal",
          amountKobo: 500_000n,
          feeKobo: 20_000n
        })
        yield* insertRow(c, {
          createdAt: "2024-03-16T10:00:00.000Z",
          type: "debit",
          purpose: "disbursement",
          amountKobo: 900_000n,
          feeKobo: 2_688n,
          status: "failed"
        })
        yield* insertRow(c, { createdAt: "2024-03-20T10:00:00.000Z", amountKobo: 77_777n, status: "pending" })
        yield* insertRow(c, { createdAt: "2024-03-31T23:59:59.999Z", amountKobo: 1_500n })
        yield* deposit(customer.accessToken, 3_000_000)
        yield* deposit(customer.accessToken, 40_000)
        return customer
      })

    it.effect("JSON: confirmed credits in, confirmed debits out with their fees, net; the window is inclusive UTC days", () =>
      Effect.gen(function*() {
        const customer = yield* customerWithHistory("report-json")
        const reply = yield* get(`${REPORT}?from=2024-03-01&to=2024-03-31`, customer.accessToken)
        const march = expectSuccess(reply, { apiObject: "Transaction" })
        expect(march).toStrictEqual({
          from: "2024-03-01",
          to: "2024-03-31",
          inbound: { count: 3, totalKobo: "5251500" },
          outbound: { count: 2, totalKobo: "1500000", feesKobo: "22688" },
          net: String(5_251_500 - 1_500_000 - 22_688)
        })
        // format=json is the default
        const explicit = expectSuccess(yield* get(`${REPORT}?from=2024-03-01&to=2024-03-31&format=json`, customer.accessToken), {
          apiObject: "Transaction"
        })
        expect(explicit).toStrictEqual(march)

        // a window of the edges alone
        expect(expectSuccess(yield* get(`${REPORT}?from=2024-02-29&to=2024-02-29`, customer.accessToken), { apiObject: "Transaction" }))
          .toMatchObject({ inbound: { count: 1, totalKobo: "1" }, outbound: { count: 0, totalKobo: "0", feesKobo: "0" }, net: "1" })
        expect(expectSuccess(yield* get(`${REPORT}?from=2024-04-01&to=2024-04-30`, customer.accessToken), { apiObject: "Transaction" }))
          .toMatchObject({ inbound: { count: 1, totalKobo: "2" } })

        // the test deposits, made today
        const today = expectSuccess(yield* get(`${REPORT}?from=${day(-1)}&to=${day(1)}`, customer.accessToken), {
          apiObject: "Transaction"
        })
        expect(today).toStrictEqual({
          from: day(-1),
          to: day(1),
          inbound: { count: 2, totalKobo: "3040000" },
          outbound: { count: 0, totalKobo: "0", feesKobo: "0" },
          net: "3040000"
        })
        // everything
        const all = expectSuccess(yield* get(`${REPORT}?from=2000-01-01&to=${day(1)}`, customer.accessToken), { apiObject: "Transaction" })
        expect(all.inbound).toStrictEqual({ count: 7, totalKobo: String(5_251_500 + 3 + 3_040_000) })
        expect(all.outbound).toStrictEqual(march.outbound)
      }))

    it.effect("more out than in: a negative net; another customer's rows never count", () =>
      Effect.gen(function*() {
        const ada = yield* bankCustomer("report-neg-a")
        const bola = yield* bankCustomer("report-neg-b")
        yield* insertRow(ada.customerId, { createdAt: "2023-05-01T10:00:00Z", amountKobo: 1_000n })
        yield* insertRow(ada.customerId, {
          createdAt: "2023-05-02T10:00:00Z",
          type: "debit",
          purpose: "disbursement",
          amountKobo: 900n,
          feeKobo: 1_075n
        })
        yield* insertRow(bola.customerId, { createdAt: "2023-05-01T11:00:00Z", amountKobo: 50_000n })
        const report = expectSuccess(yield* get(`${REPORT}?from=2023-05-01&to=2023-05-31`, ada.accessToken), {
          apiObject: "Transaction"
        })
        expect(report).toStrictEqual({
          from: "2023-05-01",
          to: "2023-05-31",
          inbound: { count: 1, totalKobo: "1000" },
          outbound: { count: 1, totalKobo: "900", feesKobo: "1075" },
          net: "-975"
        })
      }))

    it.effect("CSV: text/csv attachment named after the window; header, the window's rows oldest first, summary rows", () =>
      Effect.gen(function*() {
        const customer = yield* customerWithHistory("report-csv")
        const reply = yield* get(`${REPORT}?from=2024-03-01&to=2024-03-31&format=csv`, customer.accessToken)
        expect(reply.status, reply.text.slice(0, 300)).toBe(200)
        expect(reply.headers["content-type"]).toBe("text/csv; charset=utf-8")
        expect(reply.headers["content-disposition"]).toBe("attachment; filename=\"transactions-2024-03-01-to-2024-03-31.csv\"")
        expect(reply.body).toBeUndefined()
        expect(reply.text.endsWith("\r\n")).toBe(true)

        const records = parseCsv(reply.text)
        expect(records[0]).toEqual(["date", "type", "purpose", "status", "amountKobo", "feeKobo", "reference"])
        for (const record of records) expect(record).toHaveLength(7)
        const rows = records.slice(1, -3)
        expect(rows.map((r) => [r[0], r[1], r[2], r[3], r[4], r[5]])).toEqual([
          ["2024-03-01T00:00:00.000Z", "credit", "deposit", "confirmed", "5000000", "0"],
          ["2024-03-10T09:30:00.000Z", "credit", "deposit", "confirmed", "250000", "0"],
          ["2024-03-12T10:00:00.000Z", "debit", "disbursement", "confirmed", "1000000", "2688"],
          ["2024-03-15T10:00:00.000Z", "debit", "early_withdrawal", "confirmed", "500000", "20000"],
          ["2024-03-16T10:00:00.000Z", "debit", "disbursement", "failed", "900000", "2688"],
          ["2024-03-20T10:00:00.000Z", "credit", "deposit", "pending", "77777", "0"],
          ["2024-03-31T23:59:59.999Z", "credit", "deposit", "confirmed", "1500", "0"]
        ])
        for (const r of rows) expect(r[6]).toMatch(/^R[0-9a-f-]{11}$/)
        expect(records.slice(-3)).toEqual([
          ["summary", "inbound", "", "confirmed", "5251500", "0", "3 transactions"],
          ["summary", "outbound", "", "confirmed", "1500000", "22688", "2 transactions"],
          ["summary", "net", "", "", String(5_251_500 - 1_500_000 - 22_688), "", "inbound minus outbound minus fees"]
        ])

        // an empty window: the header and the summary only
        const empty = yield* get(`${REPORT}?from=2010-01-01&to=2010-01-02&format=csv`, customer.accessToken)
        expect(empty.headers["content-disposition"]).toBe("attachment; filename=\"transactions-2010-01-01-to-2010-01-02.csv\"")
        expect(parseCsv(empty.text)).toEqual([
          ["date", "type", "purpose", "status", "amountKobo", "feeKobo", "reference"],
          ["summary", "inbound", "", "confirmed", "0", "0", "0 transactions"],
          ["summary", "outbound", "", "confirmed", "0", "0", "0 transactions"],
          ["summary", "net", "", "", "0", "", "inbound minus outbound minus fees"]
        ])
      }))

    it.effect("CSV escaping: quotes, commas and line breaks are quoted; formula-like text is prefixed with '", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("report-escape")
        const references = [
          "=HYPERLINK(\"http://evil.example\",\"click\")",
          "+2348030000000",
          "-1+1|cmd",
          "@SUM(A1:A2)",
          "a,b",
          "say \"hi\"",
          "two\nlines",
          "\tTabbed",
          "plain-REF_1"
        ]
        for (const [i, reference] of references.entries()) {
          yield* insertRow(customer.customerId, {
            createdAt: new Date(Date.UTC(2022, 6, 1, 0, i)).toISOString(),
            amountKobo: BigInt(i + 1),
            reference
          })
        }
        const reply = yield* get(`${REPORT}?from=2022-07-01&to=2022-07-01&format=csv`, customer.accessToken)
        expect(reply.status).toBe(200)
        const records = parseCsv(reply.text)
        expect(records.slice(1, -3).map((r) => r[6])).toEqual([
          "'=HYPERLINK(\"http://evil.example\",\"click\")",
          "'+2348030000000",
          "'-1+1|cmd",
          "'@SUM(A1:A2)",
          "a,b",
          "say \"hi\"",
          "two\nlines",
          "'\tTabbed",
          "plain-REF_1"
        ])
        // the raw text: doubled quotes inside a quoted field; no field starts with a formula character
        expect(reply.text).toContain("\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"click\"\")\"")
        expect(reply.text).toContain("\"two\nlines\"")
        for (const record of records) {
          for (const field of record) expect(field, field).not.toMatch(/^[=+@\t\r]|^-(?!\d+$)/)
        }
      }))

    it.effect("from after to, missing or unreal dates, other formats → 400 fieldErrors; 401 without a token", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("report-invalid")
        const token = customer.accessToken
        const reversed = expectValidation(yield* get(`${REPORT}?from=2024-03-02&to=2024-03-01`, token), {
          fields: ["to"],
          apiObject: "Transaction"
        })
        expect(reversed.fieldErrors.to).toEqual(["to must be on or after from"])
        expectValidation(yield* get(REPORT, token), { fields: ["from", "to"], apiObject: "Transaction" })
        expectValidation(yield* get(`${REPORT}?from=2024-03-01`, token), { fields: ["to"], apiObject: "Transaction" })
        expectValidation(yield* get(`${REPORT}?to=2024-03-01`, token), { fields: ["from"], apiObject: "Transaction" })
        for (const bad of ["2024-02-30", "2023-02-29", "2024-13-01", "2024-3-1", "01-03-2024", "yesterday", "", "2024-03-01T00:00:00Z"]) {
          expectValidation(yield* get(`${REPORT}?from=${encodeURIComponent(bad)}&to=2024-12-31`, token), {
            fields: ["from"],
            apiObject: "Transaction"
          })
          expectValidation(yield* get(`${REPORT}?from=2024-01-01&to=${encodeURIComponent(bad)}`, token), {
            fields: ["to"],
            apiObject: "Transaction"
          })
        }
        // the accepted range is 1900-01-01 to 2999-12-31 (databases cannot store year 0 or year 10000)
        for (const [from, to, field] of [
          ["0000-01-01", "2024-01-01", "from"],
          ["1899-12-31", "2024-01-01", "from"],
          ["2024-01-01", "3000-01-01", "to"],
          ["2024-01-01", "9999-12-31", "to"]
        ] as const) {
          const error = expectValidation(yield* get(`${REPORT}?from=${from}&to=${to}`, token), { fields: [field], apiObject: "Transaction" })
          expect(error.fieldErrors[field]).toEqual(["Use a date between 1900-01-01 and 2999-12-31"])
        }
        expectSuccess(yield* get(`${REPORT}?from=1900-01-01&to=2999-12-31`, token), { apiObject: "Transaction" })
        const widest = yield* get(`${REPORT}?from=1900-01-01&to=2999-12-31&format=csv`, token)
        expect(widest.status).toBe(200)
        expect(widest.headers["content-disposition"]).toBe("attachment; filename=\"transactions-1900-01-01-to-2999-12-31.csv\"")
        for (const format of ["xml", "CSV", "", "pdf"]) {
          const error = expectValidation(yield* get(`${REPORT}?from=2024-01-01&to=2024-01-31&format=${format}`, token), {
            fields: ["format"],
            apiObject: "Transaction"
          })
          expect(error.fieldErrors.format).toEqual(["format must be 'json' or 'csv'"])
        }
        // the same day twice is a one-day window
        expectSuccess(yield* get(`${REPORT}?from=2024-02-29&to=2024-02-29`, token), { apiObject: "Transaction" })
        expectFailure(yield* get(`${REPORT}?from=2024-01-01&to=2024-01-31`), 401, "Authentication required", "Transaction")
        expectFailure(yield* get(`${REPORT}?from=2024-01-01&to=2024-01-31&format=csv`), 401, "Authentication required", "Transaction")
      }))

    it.effect("before a bank account: an empty report (there are no rows yet)", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("report-noacct")
        expect(expectSuccess(yield* get(`${REPORT}?from=2024-01-01&to=2024-12-31`, account.accessToken), { apiObject: "Transaction" }))
          .toStrictEqual({
            from: "2024-01-01",
            to: "2024-12-31",
            inbound: { count: 0, totalKobo: "0" },
            outbound: { count: 0, totalKobo: "0", feesKobo: "0" },
            net: "0"
          })
      }))
  })

  describe("OpenAPI", () => {
    it.effect("documents the three endpoints as bearer-secured, the report's 200 as JSON or CSV", () =>
      Effect.gen(function*() {
        const doc = (yield* api("GET", "/api/v1/openapi.json")).body
        for (const path of [LIST, REPORT, `${LIST}/{id}`]) {
          expect(doc.paths, path).toHaveProperty([path, "get"])
          const security: Array<Record<string, unknown>> = doc.paths[path].get.security ?? []
          expect(security.some((s) => Object.keys(s).length > 0), `${path} secured`).toBe(true)
        }
        const ok = doc.paths[REPORT].get.responses["200"]
        expect(Object.keys(ok.content).sort()).toEqual(["application/json", "text/csv"])
        const params = doc.paths[LIST].get.parameters.map((p: any) => p.name).sort()
        expect(params).toEqual(["page", "pageSize"])
        expect(JSON.stringify(doc.paths[LIST].get)).toMatch(/100 is the maximum/)
      }))
  })
})
