/**
 * Traces of real requests through the composed server, exported to an in-memory exporter through
 * the same redaction as production (ops/Telemetry.ts, ops/SpanRedaction.ts): a request's
 * `http.server` span holds its use case's span, which holds the provider call's `CoreBanking.*`
 * span; no exported attribute, event or status names the customer's email or phone, a query
 * string, an account number from the URL or an admin link token.
 */
import { tracingLayer } from "@app/adapters/ops/Telemetry"
import { describe, expect, layer } from "@effect/vitest"
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer } from "effect"
import { adminServer, rootToken } from "./support/AdminFixtures.js"
import { get } from "./support/BankingFixtures.js"
import { expectSuccess, post, uniqueEmail, verifiedAccount } from "./support/Fixtures.js"
import { lastCode } from "./support/TestServer.js"

const exporter = new InMemorySpanExporter()
const TracedServer = adminServer().pipe(Layer.provide(tracingLayer({ serviceName: "kobo-plans-test", exporter, batch: false })))

const ACCOUNT = "0123456789"
const LOOKUP_ROUTE = "/api/v1/beneficiaries/lookup"

const ancestors = (span: ReadableSpan, byId: Map<string, ReadableSpan>): Array<ReadableSpan> => {
  const out: Array<ReadableSpan> = []
  let parent = span.parentSpanContext?.spanId
  while (parent !== undefined && byId.has(parent)) {
    const p = byId.get(parent)!
    out.push(p)
    parent = p.parentSpanContext?.spanId
  }
  return out
}

/** Every string an exporter would send for the span, attributes, events and status included. */
const exportedText = (span: ReadableSpan) =>
  JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
    status: span.status,
    links: span.links.map((l) => l.attributes)
  })

layer(TracedServer, { excludeTestServices: true, timeout: "60 seconds" })("traces", (it) => {
  describe("an exported trace", () => {
    it.effect("request → use case → provider call, without personal data, query strings or tokens", () =>
      Effect.gen(function*() {
        const customer = yield* verifiedAccount("traced", { withPhone: true })
        // an admin link, whose token is in the path
        const staffEmail = uniqueEmail("traced-staff")
        expectSuccess(
          yield* post("/api/v1/admin/admins", { email: staffEmail, firstName: "Ngozi", lastName: "Eze", role: "support" }, yield* rootToken),
          { status: 201, apiObject: "Admin" }
        )
        const linkToken = lastCode(staffEmail, "staff_invite")
        expectSuccess(yield* post(`/api/v1/admin/auth/links/${linkToken}`, { password: "a long staff password" }), { apiObject: "Admin" })
        // a provider call from a request whose query string holds an account number
        const query = `accountNumber=${ACCOUNT}&bankCode=000013`
        expectSuccess(yield* get(`${LOOKUP_ROUTE}?${query}`, customer.accessToken), { apiObject: "Beneficiary" })

        const spans = exporter.getFinishedSpans()
        const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]))

        const request = spans.find((s) => s.name.startsWith("http.server") && s.attributes["http.route"] === LOOKUP_ROUTE)
        expect(request, "the lookup request's http.server span").toBeDefined()
        expect(request!.attributes["url.path"]).toBe(LOOKUP_ROUTE)
        expect(request!.attributes["http.request.method"]).toBe("GET")
        expect(request!.attributes["http.response.status_code"]).toBe(200)
        for (const key of ["url.full", "url.query", "client.address", "user_agent.original"]) {
          expect(request!.attributes, key).not.toHaveProperty(key)
        }

        const useCase = spans.find((s) => s.name === "Beneficiaries.lookup")
        expect(useCase, "the use case span").toBeDefined()
        expect(ancestors(useCase!, byId)).toContain(request)
        const provider = spans.find((s) => s.name.startsWith("CoreBanking.") && ancestors(s, byId).includes(useCase!))
        expect(provider, "a CoreBanking span under the use case").toBeDefined()
        expect(provider!.attributes.outcome).toBe("ok")
        expect(provider!.spanContext().traceId).toBe(request!.spanContext().traceId)

        const link = spans.find((s) => s.name.startsWith("http.server") && s.attributes["http.route"] === "/api/v1/admin/auth/links/:token")
        expect(link, "the link request's span, named by its route").toBeDefined()
        expect(link!.attributes["url.path"]).toBe("/api/v1/admin/auth/links/:token")

        const phone = customer.phone!
        const secrets = [customer.email, staffEmail, phone.national, phone.e164, phone.international, linkToken, query, ACCOUNT]
        expect(spans.length).toBeGreaterThan(20)
        for (const span of spans) {
          const text = exportedText(span)
          for (const secret of secrets) expect(text, `${span.name} leaks ${secret}`).not.toContain(secret)
          // no query string at all, even one whose account number was scrubbed
          expect(text, `${span.name} carries a query string`).not.toMatch(/bankCode=|\?accountNumber/)
        }
      }))
  })
})
