/**
 * The Prometheus endpoint of a process (ops/Prometheus.ts) on a free port, after real requests
 * through the composed server, a payout run, notification attempts and a gauge sample: every series
 * of the service is there with its labels and sane values, labelled by route template (never a
 * raw path or a query string).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { deliver, type Transport, DeliveryFailure } from "@app/adapters/notifications/Delivery"
import { serveMetrics } from "@app/adapters/ops/Prometheus"
import { sampleGauges } from "@app/adapters/ops/Sampler"
import { OutboxQueue } from "@app/adapters/notifications/OutboxQueueSql"
import { randomUUID } from "node:crypto"
import { Plans } from "@app/domain"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { get } from "./support/BankingFixtures.js"
import { api, expectSuccess, verifiedAccount } from "./support/Fixtures.js"
import { makeDue, planCustomer } from "./support/PlanFixtures.js"
import { TestServer } from "./support/TestServer.js"

/** `name{labels}` → value, from the text exposition. */
const parse = (text: string) => {
  const series = new Map<string, number>()
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue
    const at = line.lastIndexOf(" ")
    series.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return series
}

const scrape = (port: number) =>
  Effect.promise(async () => {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`)
    return { status: response.status, type: response.headers.get("content-type"), text: await response.text() }
  })

const transport = (fails: boolean): Transport => ({
  name: "test",
  send: () => (fails ? Effect.fail(new DeliveryFailure({ reason: "test: refused", retryable: false })) : Effect.void)
})
const policy = { attempts: 1, timeout: "1 second", backoff: "10 millis" } as const

layer(TestServer, { excludeTestServices: true, timeout: "90 seconds" })("metrics", (it) => {
  describe("GET /metrics", () => {
    it.scoped("every series, labelled by route template, operation, outcome and status", () =>
      Effect.gen(function*() {
        const { port } = yield* serveMetrics(0, "127.0.0.1")
        const customer = yield* verifiedAccount("metrics")
        expectSuccess(yield* get("/api/v1/beneficiaries/lookup?accountNumber=0123456789&bankCode=000013", customer.accessToken), {
          apiObject: "Beneficiary"
        })
        expect((yield* api("GET", "/api/v1/no-such-route/0123456789")).status).toBe(404)
        const planned = yield* planCustomer("metrics-plan")
        yield* makeDue(planned.plan.id)
        expect((yield* Plans.processDuePayouts()).paid).toBe(1)
        const message = { channel: "email", to: "ada@example.com", text: "hello", kind: "test_notice" } as const
        yield* deliver(transport(false), message, policy)
        yield* deliver(transport(true), message, policy)
        // rows for the gauges to count: two queued messages, one of them failed for good
        const queue = yield* OutboxQueue
        const queuedAt = new Date()
        yield* queue.enqueue(randomUUID(), { ...message, kind: "gauge_one" }, queuedAt)
        const failing = randomUUID()
        yield* queue.enqueue(failing, { ...message, kind: "gauge_two" }, queuedAt)
        yield* queue.markFailed(failing, "test: refused", null)
        yield* sampleGauges

        const scraped = yield* scrape(port)
        expect(scraped.status).toBe(200)
        expect(scraped.type).toContain("text/plain; version=0.0.4")
        const text = scraped.text
        const series = parse(text)
        const value = (key: string) => {
          expect(series.has(key), `${key} in\n${text}`).toBe(true)
          return series.get(key)!
        }

        // requests: by route template, method and status; latency histogram by route and method
        const register = `route="/api/v1/auth/register",method="POST"`
        expect(value(`http_requests_total{${register},status="201"}`)).toBeGreaterThanOrEqual(1)
        expect(value(`http_requests_total{route="/api/v1/beneficiaries/lookup",method="GET",status="200"}`)).toBe(1)
        expect(value(`http_requests_total{route="unmatched",method="GET",status="404"}`)).toBe(1)
        const requests = value(`http_request_duration_seconds_count{${register}}`)
        expect(requests).toBeGreaterThanOrEqual(1)
        expect(value(`http_request_duration_seconds_bucket{${register},le="+Inf"}`)).toBe(requests)
        // the finite buckets: 5 ms doubling to 81.92 s, as the README says
        expect(value(`http_request_duration_seconds_bucket{${register},le="0.005"}`)).toBeGreaterThanOrEqual(0)
        expect(value(`http_request_duration_seconds_bucket{${register},le="81.92"}`)).toBe(requests)
        expect(value(`http_request_duration_seconds_sum{${register}}`)).toBeGreaterThan(0)
        expect(text).toContain("# TYPE http_request_duration_seconds histogram")
        expect(text).toContain("# TYPE http_requests_total counter")

        // provider calls: by operation and outcome; duration by operation
        const okCalls = [...series.entries()].filter(([k]) => k.startsWith("provider_calls_total{") && k.includes(`outcome="ok"`))
        expect(okCalls.length).toBeGreaterThanOrEqual(3)
        for (const [key, n] of okCalls) {
          const operation = /operation="([^"]+)"/.exec(key)![1]
          expect(n).toBeGreaterThanOrEqual(1)
          expect(value(`provider_call_duration_seconds_count{operation="${operation}"}`)).toBeGreaterThanOrEqual(n)
        }

        expect(value(`payouts_total{outcome="paid"}`)).toBe(1)
        expect(value(`notifications_sent_total{channel="email",outcome="sent"}`)).toBe(1)
        expect(value(`notifications_sent_total{channel="email",outcome="failed"}`)).toBe(1)
        // the gauges hold what the tables held when sampled (nothing changed them since)
        const sql = yield* SqlClient.SqlClient
        const count = (query: Effect.Effect<ReadonlyArray<{ n: number | string }>, unknown>) =>
          Effect.map(Effect.orDie(query), (rows) => Number(rows[0]!.n))
        expect(value("movements_pending")).toBe(yield* count(sql`SELECT count(*) AS n FROM transactions WHERE status = 'pending'`))
        expect(value(`outbox_depth{status="failed"}`)).toBeGreaterThanOrEqual(1)
        for (const status of ["pending", "sent", "failed"]) {
          expect(value(`outbox_depth{status="${status}"}`))
            .toBe(yield* count(sql`SELECT count(*) AS n FROM notification_outbox WHERE status = ${status}`))
        }
        expect(text).toContain("# TYPE movements_pending gauge")

        // no raw path, query string or personal data in any label
        expect(text).not.toContain("0123456789")
        expect(text).not.toContain("accountNumber")
        expect(text).not.toContain("ada@example.com")
        for (const route of text.matchAll(/route="([^"]*)"/g)) expect(route[1]).toMatch(/^(\/[A-Za-z0-9/:._-]*|unmatched)$/)

        // anything else on the metrics port is a 404
        expect(yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/`).then((r) => r.status))).toBe(404)
      }))
  })
})
