/**
 * What every response and request gets at the edge, end to end: security headers on successes and
 * on every kind of failure (404, 400, oversized body, 401, timeout), HSTS only in production, the
 * request time limit (503 REQUEST_TIMEOUT, the server still serving after), the body limit, and
 * CORS answering only APP_ORIGINS.
 */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { expectFailure, expectSuccess, expectValidation } from "./support/Fixtures.js"
import { get } from "./support/BankingFixtures.js"
import { hangingServer } from "./support/Peers.js"
import { call, callRaw, type Reply, send, testServer, TestServer } from "./support/TestServer.js"

const APP = "https://app.kobo.test"

const expectSecurityHeaders = (reply: Reply, options: { readonly docs?: boolean; readonly production?: boolean } = {}) => {
  expect(reply.headers["x-content-type-options"], `${reply.status} ${reply.text.slice(0, 120)}`).toBe("nosniff")
  expect(reply.headers["referrer-policy"]).toBe("no-referrer")
  expect(reply.headers["x-frame-options"]).toBe("DENY")
  expect(reply.headers["cache-control"]).toBe("no-store")
  if (options.docs) expect(reply.headers["content-security-policy"]).toBeUndefined()
  else expect(reply.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'")
  if (options.production) expect(reply.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains")
  else expect(reply.headers["strict-transport-security"]).toBeUndefined()
}

const withOrigin = (url: string, origin: string) => send(HttpClientRequest.get(url).pipe(HttpClientRequest.setHeader("origin", origin)))

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("the edge (development)", (it) => {
  describe("security headers", () => {
    it.effect("on a success, an unknown route, a validation failure, an oversized body and a 401; no HSTS outside production", () =>
      Effect.gen(function*() {
        const ok = yield* get("/health")
        expectSuccess(ok, { apiObject: "Health" })
        expectSecurityHeaders(ok)
        const missing = yield* get("/api/v1/nothing-here")
        expectFailure(missing, 404, "Route not found", "Api")
        expectSecurityHeaders(missing)
        const invalid = yield* call("POST", "/api/v1/auth/login", { email: "not-an-email" })
        expectValidation(invalid)
        expectSecurityHeaders(invalid)
        const oversized = yield* callRaw("/api/v1/auth/login", JSON.stringify({ email: "a@b.co", password: "x".repeat(20 * 1024) }))
        expectValidation(oversized, { form: true })
        expect(oversized.body.error.formErrors).toEqual(["Request body is too large"])
        expectSecurityHeaders(oversized)
        const unauthenticated = yield* get("/api/v1/customers/me")
        expectFailure(unauthenticated, 401, /./, "Customer")
        expectSecurityHeaders(unauthenticated)
      }))

    it.effect("the /docs page: the same headers but no Content-Security-Policy (its inline script would be blocked)", () =>
      Effect.gen(function*() {
        const docs = yield* get("/docs")
        expect(docs.status).toBe(200)
        expect(docs.headers["content-type"]).toMatch(/^text\/html/)
        expectSecurityHeaders(docs, { docs: true })
      }))
  })

  describe("NUL characters", () => {
    it.effect("in the URL or anywhere in a JSON body: 400 before any handler, never a 500 from the database", () =>
      Effect.gen(function*() {
        const refused = (reply: Reply, apiObject: string) =>
          expect(expectValidation(reply, { form: true, apiObject }).formErrors).toEqual(["Text must not contain NUL characters (U+0000)"])
        refused(yield* call("POST", "/api/v1/auth/register", { email: "a\u0000b@example.com", password: "correct horse" }), "Auth")
        refused(yield* call("POST", "/api/v1/auth/register", { email: "nul@example.com", password: "correct horse", extra: { ["k\u0000"]: 1 } }), "Auth")
        refused(yield* callRaw("/api/v1/support/tickets", `{"subject":"he\u0000llo","message":"x"}`), "Support")
        refused(yield* call("GET", "/api/v1/spendings?category=%00"), "Spending")
        refused(yield* call("GET", "/api/v1/admin/audit?targetId=ab%00cd"), "Admin")
        // the six characters \u0000 as text (an escaped backslash) are no NUL: the request goes on
        const text = yield* callRaw("/api/v1/auth/register", `{"email":"not-nul-${Date.now()}@example.com","password":"correct \\\\u0000 horse"}`)
        expect(text.status).toBe(201)
      }))
  })

  describe("CORS without APP_ORIGINS", () => {
    it.effect("no origin is allowed: no Access-Control-Allow-Origin, even for a plausible one", () =>
      Effect.gen(function*() {
        const reply = yield* withOrigin("/health", APP)
        expect(reply.status).toBe(200)
        expect(reply.headers["access-control-allow-origin"]).toBeUndefined()
        expect(reply.headers["access-control-allow-credentials"]).toBeUndefined()
      }))
  })
})

/** Production, two web origins, a 1 s request limit, and a provider that never answers (so /ready runs past the limit). */
const ProductionEdge = Layer.unwrapScoped(
  Effect.map(hangingServer, (url) =>
    testServer({ appEnv: "production", appOrigins: [APP, "http://localhost:3000"], requestTimeoutMs: 1_000, coreBankingUrl: Option.some(url) }))
)

layer(ProductionEdge, { excludeTestServices: true, timeout: "60 seconds" })("the edge (production)", (it) => {
  it.effect("HSTS on every response in production", () =>
    Effect.gen(function*() {
      const ok = yield* get("/health")
      expectSuccess(ok, { apiObject: "Health" })
      expectSecurityHeaders(ok, { production: true })
      const missing = yield* get("/api/v1/nothing-here")
      expect(missing.status).toBe(404)
      expectSecurityHeaders(missing, { production: true })
    }))

  it.effect("a request past REQUEST_TIMEOUT_MS: 503 REQUEST_TIMEOUT at the limit, with Retry-After; the server keeps serving", () =>
    Effect.gen(function*() {
      const started = Date.now()
      const slow = yield* get("/ready")
      const took = Date.now() - started
      expect(took).toBeGreaterThanOrEqual(900)
      expect(took).toBeLessThan(2_500)
      const error = expectFailure(slow, 503, "The request took too long; please retry later", "Api")
      expect(error).toEqual({ code: "REQUEST_TIMEOUT" })
      expect(slow.headers["retry-after"]).toBe("5")
      expect(slow.headers["content-type"]).toMatch(/^application\/json/)
      expectSecurityHeaders(slow, { production: true })
      expectSuccess(yield* get("/health"), { apiObject: "Health" })
      // a browser on an allowed origin can read the 503 (CORS applies to it too)
      const fromApp = yield* withOrigin("/ready", APP)
      expect(fromApp.status).toBe(503)
      expect(fromApp.body.error.code).toBe("REQUEST_TIMEOUT")
      expect(fromApp.headers["access-control-allow-origin"]).toBe(APP)
    }))

  it.effect("CORS answers APP_ORIGINS only, with credentials; another origin gets no Access-Control-Allow-Origin", () =>
    Effect.gen(function*() {
      const allowed = yield* withOrigin("/health", APP)
      expect(allowed.headers["access-control-allow-origin"]).toBe(APP)
      expect(allowed.headers["access-control-allow-credentials"]).toBe("true")
      const other = yield* withOrigin("/health", "https://evil.example")
      expect(other.status).toBe(200)
      // without an allowed origin the browser lets no page read the answer (whatever else is sent)
      expect(other.headers["access-control-allow-origin"]).toBeUndefined()
    }))
})
