/**
 * The correlation id of every request: echoed (or made) in X-Request-Id on every kind of answer,
 * and on the log lines written while the request is handled.
 */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { DevelopmentSecrets } from "@app/adapters"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { send, testServer } from "./support/TestServer.js"

const logged: Array<{ message: unknown; annotations: Record<string, unknown> }> = []
const CapturingLogger = Logger.add(Logger.make(({ annotations, message }) => {
  logged.push({ message, annotations: Object.fromEntries(annotations) })
}))

const get = (url: string, requestId?: string) =>
  send(HttpClientRequest.get(url).pipe(requestId === undefined ? (r) => r : HttpClientRequest.setHeader("x-request-id", requestId)))

// request lines are info: this server logs them (the shared one keeps test output to warnings)
layer(testServer({}, LogLevel.Info).pipe(Layer.provide(CapturingLogger)), { excludeTestServices: true, timeout: "60 seconds" })("correlation", (it) => {
  describe("X-Request-Id", () => {
    it.effect("a plausible id from the caller is echoed; none or an implausible one gets a new UUID; on successes and failures", () =>
      Effect.gen(function*() {
        const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
        expect((yield* get("/health", "edge-proxy.7f3a-91")).headers["x-request-id"]).toBe("edge-proxy.7f3a-91")
        expect((yield* get("/health")).headers["x-request-id"]).toMatch(UUID)
        for (const bad of ["short", "has spaces in it", "x".repeat(129), "<script>alert(1)</script>"]) {
          expect((yield* get("/health", bad)).headers["x-request-id"]).toMatch(UUID)
        }
        const first = (yield* get("/api/v1/customers/me")).headers["x-request-id"]
        const second = (yield* get("/api/v1/customers/me")).headers["x-request-id"]
        expect(first).not.toBe(second)
        const missing = yield* get("/api/v1/no-such-route", "route-check-0001")
        expect(missing.status).toBe(404)
        expect(missing.headers["x-request-id"]).toBe("route-check-0001")
      }))

    it.effect("log lines written while handling a request carry its id", () =>
      Effect.gen(function*() {
        logged.length = 0
        // a webhook without an account number is logged as a warning inside the request
        const reply = yield* send(HttpClientRequest.post("/api/v1/webhooks/core-banking").pipe(
          HttpClientRequest.setHeader("x-request-id", "webhook-trace-0042"),
          HttpClientRequest.setHeader("x-webhook-secret", DevelopmentSecrets.WEBHOOK_SECRET),
          HttpClientRequest.bodyUnsafeJson({ event: "transaction.posted" })
        ))
        expect(reply.status).toBe(200)
        const lines = logged.filter((l) => l.annotations.correlationId === "webhook-trace-0042")
        expect(lines.map((l) => l.message)).toContainEqual(["webhook without an account number ignored"])
        expect(logged.filter((l) => l.annotations.correlationId !== undefined).every((l) => l.annotations.correlationId === "webhook-trace-0042")).toBe(true)
      }))

    it.effect("the request line names the route template, never the raw path or query (no link token, no account number)", () =>
      Effect.gen(function*() {
        logged.length = 0
        const token = "Zq8uQ1v3kP0xY7mN2cR5tW9eA4sD6fG8hJ1kL3zX5cV"
        expect((yield* get(`/api/v1/admin/auth/links/${token}`, "link-trace-0001")).status).toBe(410)
        yield* get("/api/v1/beneficiaries/lookup?accountNumber=0123456789&bankCode=000013", "lookup-trace-0001")
        const line = (id: string) => logged.find((l) => l.annotations.correlationId === id && l.annotations["http.status"] !== undefined)
        expect(line("link-trace-0001")?.annotations).toMatchObject({
          "http.method": "GET",
          "http.route": "/api/v1/admin/auth/links/:token",
          "http.status": 410
        })
        expect(line("lookup-trace-0001")?.annotations["http.route"]).toBe("/api/v1/beneficiaries/lookup")
        const everything = JSON.stringify(logged)
        expect(everything).not.toContain(token)
        expect(everything).not.toContain("0123456789")
      }))
  })
})
