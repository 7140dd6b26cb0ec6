/**
 * The correlation id of every request: echoed (or made) in X-Request-Id on every kind of answer,
 * and on the log lines written while the request is handled.
 */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { DevelopmentSecrets } from "@app/adapters"
import { Effect, Exit, Layer, Logger, LogLevel, Metric, Option } from "effect"
import { hangingServer } from "./support/Peers.js"
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

/** A provider that never answers, so GET /ready is still working when its client goes away. */
const HangingProvider = Layer.unwrapScoped(
  Effect.map(hangingServer, (url) => testServer({ coreBankingUrl: Option.some(url) }, LogLevel.Info))
).pipe(Layer.provide(CapturingLogger))

layer(HangingProvider, { excludeTestServices: true, timeout: "60 seconds" })("a request its client abandons", (it) => {
  it.effect("is counted and logged as 499 (the client went away), not as a 500 of ours", () =>
    Effect.gen(function*() {
      logged.length = 0
      const before = yield* requestsCounted({ route: "/ready", method: "GET", status: "499" })
      const abandoned = yield* Effect.exit(get("/ready", "abandoned-trace-01").pipe(Effect.timeout("300 millis")))
      expect(Exit.isFailure(abandoned)).toBe(true)
      // the server notices the closed socket and interrupts the request
      const line = yield* Effect.gen(function*() {
        for (;;) {
          const found = logged.find((l) => l.annotations.correlationId === "abandoned-trace-01" && l.annotations["http.status"] !== undefined)
          if (found !== undefined) return found
          yield* Effect.sleep("50 millis")
        }
      }).pipe(Effect.timeout("5 seconds"))
      expect(line.annotations).toMatchObject({ "http.method": "GET", "http.route": "/ready", "http.status": 499 })
      expect(yield* requestsCounted({ route: "/ready", method: "GET", status: "499" })).toBe(before + 1)
      expect(yield* requestsCounted({ route: "/ready", method: "GET", status: "500" })).toBe(0)
    }))
})

/** http_requests_total with exactly these labels, from the process's metric registry. */
const requestsCounted = (labels: Record<string, string>) =>
  Effect.map(Metric.snapshot, (pairs) => {
    const wanted = Object.entries(labels).sort()
    const pair = pairs.find((p) =>
      p.metricKey.name === "http_requests_total" &&
      JSON.stringify(p.metricKey.tags.map((t) => [t.key, t.value]).sort()) === JSON.stringify(wanted)
    )
    return pair === undefined ? 0 : Number((pair.metricState as { count?: number | bigint }).count ?? 0)
  })
