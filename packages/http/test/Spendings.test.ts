/**
 * The spending log end to end: POST/GET/PATCH/DELETE /api/v1/spendings, the report as JSON and as a
 * CSV attachment (formula-safe cells), and the month's report by email (read from the outbox file).
 * Every error: 400 with fieldErrors or a formError, 401 without a token, 404 for an unknown id or
 * another customer's.
 *
 * NO_EMAIL_ON_FILE cannot be reached over HTTP (every account is registered with an email); the
 * domain test SpendingReport.test.ts covers it.
 */
import { Spendings } from "@app/domain"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { get, KOBO_STRING } from "./support/BankingFixtures.js"
import { parseCsv } from "./support/Csv.js"
import { api, expectFailure, expectSuccess, expectValidation, post, UUID_PATTERN, verifiedAccount } from "./support/Fixtures.js"
import { outbox, TestServer } from "./support/TestServer.js"

const SPENDINGS = "/api/v1/spendings"
const REPORT = `${SPENDINGS}/report`
const NOT_FOUND = "Spending not found"

/** Today in Africa/Lagos, and days from it (the server judges "the future" there). */
const today = () => Spendings.Rules.todayIn(new Date())
const day = (offset: number) => Spendings.Rules.addDays(today(), offset)

const log = (token: string | undefined, body: unknown) => post(SPENDINGS, body, token)
const logged = (token: string, body: Record<string, unknown>) =>
  Effect.map(log(token, body), (r) => expectSuccess(r, { status: 201, apiObject: "Spending", message: "Spending logged." }))
const patch = (token: string | undefined, id: string, body: unknown) => api("PATCH", `${SPENDINGS}/${id}`, body, token)
const remove = (token: string | undefined, id: string) => api("DELETE", `${SPENDINGS}/${id}`, undefined, token)
const list = (token: string, query = "") => Effect.map(get(`${SPENDINGS}${query}`, token), (r) => expectSuccess(r, { apiObject: "Spending" }))

const invalid = (reply: Parameters<typeof expectValidation>[0], fields: ReadonlyArray<string>) =>
  expectValidation(reply, { fields, apiObject: "Spending" }).fieldErrors

interface MailLine {
  readonly to: string
  readonly kind: string
  readonly subject: string | null
  readonly text: string
  readonly html?: string
  readonly attachments?: ReadonlyArray<{ filename: string; contentType: string; content: string }>
}

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("spending log", (it) => {
  describe("POST /spendings", () => {
    it.effect("201: the spending with id, amountKobo as a string, the category normalised, description null when absent", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("spend-add")
        const s = yield* logged(ada.accessToken, { amountKobo: 250_000, category: "  Eating  Out ", date: day(-1) })
        expect(Object.keys(s).sort()).toEqual(["amountKobo", "category", "createdAt", "date", "description", "id", "updatedAt"])
        expect(s).toMatchObject({ amountKobo: "250000", category: "eating out", description: null, date: day(-1) })
        expect(s.id).toMatch(UUID_PATTERN)
        expect(s.createdAt).toBe(s.updatedAt)
        const withText = yield* logged(ada.accessToken, { amountKobo: 100_000_000_000, category: "rent", date: today(), description: " flat " })
        expect(withText).toMatchObject({ amountKobo: "100000000000", description: "flat", date: today() })
        expect(withText.amountKobo).toMatch(KOBO_STRING)
      }))

    it.effect("400 with fieldErrors: missing fields, non-integer or out-of-bounds amounts, bad or future dates, long texts", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("spend-add-400")
        const token = ada.accessToken
        invalid(yield* log(token, {}), ["amountKobo", "category", "date"])
        expect(invalid(yield* log(token, { amountKobo: 50.5, category: "food", date: today() }), ["amountKobo"]).amountKobo).toEqual([
          "amountKobo must be a whole number of kobo"
        ])
        for (const amountKobo of ["5000", null]) invalid(yield* log(token, { amountKobo, category: "food", date: today() }), ["amountKobo"])
        expect(invalid(yield* log(token, { amountKobo: 0, category: "food", date: today() }), ["amountKobo"]).amountKobo).toEqual([
          "amountKobo must be greater than 0"
        ])
        invalid(yield* log(token, { amountKobo: -1, category: "food", date: today() }), ["amountKobo"])
        expect(invalid(yield* log(token, { amountKobo: 100_000_000_001, category: "food", date: today() }), ["amountKobo"]).amountKobo)
          .toEqual(["amountKobo must be at most 100000000000"])
        for (const date of ["2026-02-30", "yesterday", "2026-1-01", day(2)]) {
          invalid(yield* log(token, { amountKobo: 100, category: "food", date }), ["date"])
        }
        const fe = invalid(yield* log(token, { amountKobo: 100, category: " ", date: today(), description: "x".repeat(281) }), [
          "category",
          "description"
        ])
        expect(fe.category).toEqual(["category must not be empty"])
        expect(fe.description).toEqual(["description must be at most 280 characters"])
        expect(invalid(yield* log(token, { amountKobo: 100, category: "c".repeat(41), date: day(2) }), ["category", "date"]).date[0])
          .toMatch(/must not be in the future \(today is \d{4}-\d{2}-\d{2} in Africa\/Lagos\)/)
        invalid(yield* log(token, { amountKobo: 100, category: 7, date: today() }), ["category"])
        expect((yield* list(token)).total).toBe(0)
      }))

    it.effect("401 without a token", () =>
      Effect.gen(function*() {
        expectFailure(yield* log(undefined, { amountKobo: 100, category: "food", date: "2024-01-01" }), 401, "Authentication required", "Spending")
      }))
  })

  describe("GET /spendings", () => {
    it.effect("the paging shape, newest date first; category (normalised) and from/to filters; only the customer's own", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("spend-list")
        const bola = yield* verifiedAccount("spend-list-b")
        const t = ada.accessToken
        const a = yield* logged(t, { amountKobo: 100, category: "Food", date: "2025-01-10" })
        const b = yield* logged(t, { amountKobo: 200, category: "transport", date: "2025-03-01" })
        const c = yield* logged(t, { amountKobo: 300, category: "FOOD", date: "2025-02-01" })
        yield* logged(bola.accessToken, { amountKobo: 999, category: "food", date: "2025-02-01" })
        const all = yield* list(t)
        expect(all).toMatchObject({ page: 1, pageSize: 20, total: 3, totalPages: 1 })
        expect(all.items.map((s: any) => s.id)).toEqual([b.id, c.id, a.id])
        expect((yield* list(t, "?category=%20food%20")).items.map((s: any) => s.id)).toEqual([c.id, a.id])
        expect((yield* list(t, "?from=2025-02-01&to=2025-03-01")).items.map((s: any) => s.id)).toEqual([b.id, c.id])
        expect((yield* list(t, "?to=2025-01-31")).items.map((s: any) => s.id)).toEqual([a.id])
        const second = yield* list(t, "?page=2&pageSize=2")
        expect(second).toMatchObject({ page: 2, pageSize: 2, total: 3, totalPages: 2 })
        expect(second.items.map((s: any) => s.id)).toEqual([a.id])
        expect((yield* list(t, "?page=9")).items).toEqual([])
      }))

    it.effect("400: to before from, a malformed date, pageSize above 100; 401 without a token", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("spend-list-400")
        const t = ada.accessToken
        expect(invalid(yield* get(`${SPENDINGS}?from=2025-02-02&to=2025-02-01`, t), ["to"]).to).toEqual(["to must be on or after from"])
        invalid(yield* get(`${SPENDINGS}?from=2025-02-30`, t), ["from"])
        invalid(yield* get(`${SPENDINGS}?pageSize=101`, t), ["pageSize"])
        invalid(yield* get(`${SPENDINGS}?category=${"c".repeat(41)}`, t), ["category"])
        expectFailure(yield* get(SPENDINGS), 401, "Authentication required", "Spending")
      }))
  })

  describe("PATCH and DELETE /spendings/{id}", () => {
    it.effect("PATCH changes the given fields under the same rules; none given is a formError; 404 for unknown or another's", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("spend-patch")
        const bola = yield* verifiedAccount("spend-patch-b")
        const s = yield* logged(ada.accessToken, { amountKobo: 100, category: "food", date: "2025-01-10", description: "rice" })
        const changed = expectSuccess(yield* patch(ada.accessToken, s.id, { amountKobo: 450, category: " Groceries", date: "2025-01-11" }), {
          apiObject: "Spending",
          message: "Spending updated."
        })
        expect(changed).toMatchObject({ id: s.id, amountKobo: "450", category: "groceries", description: "rice", date: "2025-01-11" })
        expect(changed.createdAt).toBe(s.createdAt)
        expect(Date.parse(changed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(s.updatedAt))
        const cleared = expectSuccess(yield* patch(ada.accessToken, s.id, { description: null }), { apiObject: "Spending" })
        expect(cleared.description).toBeNull()

        const none = expectValidation(yield* patch(ada.accessToken, s.id, {}), { form: true, apiObject: "Spending" })
        expect(none.formErrors).toEqual(["Provide amountKobo, category, description or date"])
        invalid(yield* patch(ada.accessToken, s.id, { amountKobo: 0, date: day(2) }), ["amountKobo", "date"])
        invalid(yield* patch(ada.accessToken, s.id, { category: "" }), ["category"])
        expect(expectFailure(yield* patch(bola.accessToken, s.id, { amountKobo: 1 }), 404, NOT_FOUND, "Spending").code).toBe("SPENDING_NOT_FOUND")
        expectFailure(yield* patch(ada.accessToken, randomUUID(), { amountKobo: 1 }), 404, NOT_FOUND, "Spending")
        invalid(yield* patch(ada.accessToken, "not-a-uuid", { amountKobo: 1 }), ["id"])
        expectFailure(yield* patch(undefined, s.id, { amountKobo: 1 }), 401, "Authentication required", "Spending")
        // nothing of the refused changes was applied
        expect((yield* list(ada.accessToken)).items[0]).toMatchObject({ amountKobo: "450", category: "groceries", description: null })
      }))

    it.effect("DELETE removes the customer's own (200, the spending as it was); 404 after or for another's; 400 for a malformed id", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("spend-del")
        const bola = yield* verifiedAccount("spend-del-b")
        const s = yield* logged(ada.accessToken, { amountKobo: 100, category: "food", date: "2025-01-10" })
        expect(expectFailure(yield* remove(bola.accessToken, s.id), 404, NOT_FOUND, "Spending").code).toBe("SPENDING_NOT_FOUND")
        expectFailure(yield* remove(undefined, s.id), 401, "Authentication required", "Spending")
        invalid(yield* remove(ada.accessToken, "123"), ["id"])
        expect(expectSuccess(yield* remove(ada.accessToken, s.id), { apiObject: "Spending", message: "Spending removed." })).toEqual(s)
        expectFailure(yield* remove(ada.accessToken, s.id), 404, NOT_FOUND, "Spending")
        expect((yield* list(ada.accessToken)).total).toBe(0)
      }))
  })

  describe("GET /spendings/report", () => {
    it.effect("JSON: totals, categories with shares summing to 100.00, every day of the window; an empty window is valid", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("spend-report")
        const t = ada.accessToken
        yield* logged(t, { amountKobo: 100, category: "b", date: "2025-05-01" })
        yield* logged(t, { amountKobo: 100, category: "a", date: "2025-05-03" })
        yield* logged(t, { amountKobo: 100, category: "c", date: "2025-05-03" })
        yield* logged(t, { amountKobo: 100, category: "c", date: "2025-05-04" }) // outside the window
        const report = expectSuccess(yield* get(`${REPORT}?from=2025-05-01&to=2025-05-03`, t), { apiObject: "Spending" })
        expect(report).toStrictEqual({
          from: "2025-05-01",
          to: "2025-05-03",
          totals: { totalKobo: "300", count: 3 },
          categories: [
            { category: "a", totalKobo: "100", count: 1, share: "33.34" },
            { category: "b", totalKobo: "100", count: 1, share: "33.33" },
            { category: "c", totalKobo: "100", count: 1, share: "33.33" }
          ],
          daily: [
            { date: "2025-05-01", totalKobo: "100", count: 1 },
            { date: "2025-05-02", totalKobo: "0", count: 0 },
            { date: "2025-05-03", totalKobo: "200", count: 2 }
          ]
        })
        const empty = expectSuccess(yield* get(`${REPORT}?from=2010-01-01&to=2010-01-02&format=json`, t), { apiObject: "Spending" })
        expect(empty).toStrictEqual({
          from: "2010-01-01",
          to: "2010-01-02",
          totals: { totalKobo: "0", count: 0 },
          categories: [],
          daily: [{ date: "2010-01-01", totalKobo: "0", count: 0 }, { date: "2010-01-02", totalKobo: "0", count: 0 }]
        })
      }))

    it.effect("CSV: a text/csv attachment named after the window; cells like =cmd or +1 cannot start a formula", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("spend-csv")
        const t = ada.accessToken
        yield* logged(t, { amountKobo: 300, category: "=cmd|' /C calc'!A0", date: "2025-06-02", description: "+1" })
        yield* logged(t, { amountKobo: 100, category: "@sum(a1)", date: "2025-06-01", description: "-2, \"quoted\"" })
        const reply = yield* get(`${REPORT}?from=2025-06-01&to=2025-06-02&format=csv`, t)
        expect(reply.status, reply.text.slice(0, 300)).toBe(200)
        expect(reply.headers["content-type"]).toBe("text/csv; charset=utf-8")
        expect(reply.headers["content-disposition"]).toBe("attachment; filename=\"spendings-2025-06-01-to-2025-06-02.csv\"")
        expect(reply.body).toBeUndefined()
        const records = parseCsv(reply.text)
        expect(records).toEqual([
          ["section", "date", "category", "description", "amountKobo", "count", "share"],
          ["spending", "2025-06-01", "'@sum(a1)", "'-2, \"quoted\"", "100", "1", ""],
          ["spending", "2025-06-02", "'=cmd|' /c calc'!a0", "'+1", "300", "1", ""],
          ["category", "", "'=cmd|' /c calc'!a0", "", "300", "1", "75.00"],
          ["category", "", "'@sum(a1)", "", "100", "1", "25.00"],
          ["day", "2025-06-01", "", "", "100", "1", ""],
          ["day", "2025-06-02", "", "", "300", "1", ""],
          ["total", "", "", "", "400", "2", "100.00"]
        ])
        for (const cell of records.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/)
        const empty = parseCsv((yield* get(`${REPORT}?from=2010-01-01&to=2010-01-01&format=csv`, t)).text)
        expect(empty).toEqual([
          ["section", "date", "category", "description", "amountKobo", "count", "share"],
          ["day", "2010-01-01", "", "", "0", "0", ""],
          ["total", "", "", "", "0", "0", ""]
        ])
      }))

    it.effect("400: missing or malformed dates, to before from, more than 366 days, an unknown format; 401 without a token", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("spend-report-400")
        const t = ada.accessToken
        invalid(yield* get(REPORT, t), ["from", "to"])
        invalid(yield* get(`${REPORT}?from=2025-02-29&to=2025-03-01`, t), ["from"])
        invalid(yield* get(`${REPORT}?from=2025-03-02&to=2025-03-01`, t), ["to"])
        expect(invalid(yield* get(`${REPORT}?from=2024-01-01&to=2025-01-01`, t), ["to"]).to).toEqual(["A report covers at most 366 days"])
        expect(expectSuccess(yield* get(`${REPORT}?from=2024-01-01&to=2024-12-31`, t), { apiObject: "Spending" }).daily).toHaveLength(366)
        expect(invalid(yield* get(`${REPORT}?from=2025-01-01&to=2025-01-02&format=xml`, t), ["format"]).format).toEqual([
          "format must be 'json' or 'csv'"
        ])
        expectFailure(yield* get(`${REPORT}?from=2025-01-01&to=2025-01-02&format=csv`), 401, "Authentication required", "Spending")
      }))
  })

  describe("POST /spendings/report", () => {
    it.effect("emails the month's report to the registered email: text, HTML and the CSV attached", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("spend-mail")
        const t = ada.accessToken
        yield* logged(t, { amountKobo: 150_000, category: "food", date: "2025-04-30", description: "<i>suya</i>" })
        yield* logged(t, { amountKobo: 50_000, category: "transport", date: "2025-04-01" })
        yield* logged(t, { amountKobo: 999, category: "food", date: "2025-05-01" })
        const result = expectSuccess(yield* post(REPORT, { month: "2025-04" }, t), { apiObject: "Spending", message: "Report sent to your email." })
        expect(result).toStrictEqual({ month: "2025-04", from: "2025-04-01", to: "2025-04-30", email: ada.email, totalKobo: "200000", count: 2 })
        const mails = outbox().filter((m) => m.to === ada.email && m.kind === "spending_report") as unknown as ReadonlyArray<MailLine>
        expect(mails.length).toBe(1)
        const mail = mails[0]!
        expect(mail.subject).toBe("Your spending report for April 2025")
        expect(mail.text).toContain("Total: ₦2,000.00 in 2 spendings.")
        expect(mail.html).toContain("<table>")
        expect(mail.attachments).toHaveLength(1)
        expect(mail.attachments![0]).toMatchObject({ filename: "spendings-2025-04.csv", contentType: "text/csv; charset=utf-8" })
        const records = parseCsv(mail.attachments![0]!.content)
        expect(records[0]).toEqual(["section", "date", "category", "description", "amountKobo", "count", "share"])
        expect(records.filter((r) => r[0] === "day")).toHaveLength(30)
        expect(records.at(-1)).toEqual(["total", "", "", "", "200000", "2", "100.00"])
        // the current month (in Lagos) is reported to date
        const current = expectSuccess(yield* post(REPORT, { month: today().slice(0, 7) }, t), { apiObject: "Spending" })
        expect(current).toMatchObject({ from: `${today().slice(0, 7)}-01`, to: today() })
      }))

    it.effect("only ever to the registered email: an address in the request (email, to) is ignored", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("spend-mail-only")
        const t = ada.accessToken
        const OTHER = `other-${randomUUID()}@example.com`
        yield* logged(t, { amountKobo: 1_000, category: "food", date: "2025-03-10" })
        for (const body of [{ month: "2025-03", email: OTHER }, { month: "2025-03", to: OTHER }, { month: "2025-03", email: OTHER, to: [OTHER] }]) {
          const result = expectSuccess(yield* post(REPORT, body, t), { apiObject: "Spending", message: "Report sent to your email." })
          expect(result).toMatchObject({ month: "2025-03", email: ada.email, totalKobo: "1000", count: 1 })
        }
        const all = outbox()
        expect(all.filter((m) => m.to === ada.email && m.kind === "spending_report")).toHaveLength(3)
        // the other address received nothing at all, and no message names it
        expect(all.filter((m) => m.to === OTHER)).toEqual([])
        expect(JSON.stringify(all)).not.toContain(OTHER)
      }))

    it.effect("400 for a malformed or future month, or none; 401 without a token; nothing is sent", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("spend-mail-400")
        const t = ada.accessToken
        for (const month of ["2025-13", "2025-4", "April", ""]) {
          expect(invalid(yield* post(REPORT, { month }, t), ["month"]).month).toEqual(["Use a month in the format YYYY-MM"])
        }
        const next = Spendings.Rules.monthOf(Spendings.Rules.addDays(`${today().slice(0, 7)}-01`, 32))
        expect(invalid(yield* post(REPORT, { month: next }, t), ["month"]).month[0]).toMatch(/must not be in the future/)
        invalid(yield* post(REPORT, {}, t), ["month"])
        expectFailure(yield* post(REPORT, { month: "2025-01" }), 401, "Authentication required", "Spending")
        expect(outbox().filter((m) => m.to === ada.email && m.kind === "spending_report")).toEqual([])
      }))
  })

  it.effect("OpenAPI: every endpoint bearer-secured; the report's 200 as JSON or CSV; the list's paging and filters", () =>
    Effect.gen(function*() {
      const doc = (yield* api("GET", "/api/v1/openapi.json")).body
      const operations: Array<[string, string]> = [
        [SPENDINGS, "post"],
        [SPENDINGS, "get"],
        [REPORT, "get"],
        [REPORT, "post"],
        [`${SPENDINGS}/{id}`, "patch"],
        [`${SPENDINGS}/{id}`, "delete"]
      ]
      for (const [path, method] of operations) {
        expect(doc.paths, `${method} ${path}`).toHaveProperty([path, method])
        const security: Array<Record<string, unknown>> = doc.paths[path][method].security ?? []
        expect(security.some((s) => Object.keys(s).length > 0), `${method} ${path} secured`).toBe(true)
      }
      expect(Object.keys(doc.paths[REPORT].get.responses["200"].content).sort()).toEqual(["application/json", "text/csv"])
      expect(doc.paths[REPORT].get.responses["200"].content["text/csv"].schema.description).toMatch(/^header row section,date,category/)
      expect(doc.paths[SPENDINGS].get.parameters.map((p: any) => p.name).sort()).toEqual(["category", "from", "page", "pageSize", "to"])
    }))
})
