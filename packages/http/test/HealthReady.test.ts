/**
 * GET /health and GET /ready end to end: no authentication, the envelope, 200 when the database,
 * the migrations and the provider are fine, and 503 SERVICE_NOT_READY naming the failed check when
 * the provider is down (connection refused) or hangs, or a migration is missing.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, type Scope } from "effect"
import { expectFailure, expectSuccess } from "./support/Fixtures.js"
import { get } from "./support/BankingFixtures.js"
import { closedPort, hangingServer } from "./support/Peers.js"
import { testServer, TestServer } from "./support/TestServer.js"

const serverWithProviderAt = (url: Effect.Effect<string, never, Scope.Scope>) =>
  Layer.unwrapScoped(Effect.map(url, (u) => testServer({ coreBankingUrl: Option.some(u), coreBankingTimeoutMs: 10_000 })))

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("health and readiness", (it) => {
  describe("GET /health", () => {
    it.effect("200 {status: up} in the envelope, without authentication", () =>
      Effect.gen(function*() {
        const reply = yield* get("/health")
        expect(expectSuccess(reply, { apiObject: "Health" })).toEqual({ status: "up" })
      }))
  })

  describe("GET /ready", () => {
    it.effect("200 with every check ok: database, migrations, provider", () =>
      Effect.gen(function*() {
        const reply = yield* get("/ready")
        expect(expectSuccess(reply, { apiObject: "Health" })).toEqual({
          ready: true,
          checks: { database: "ok", migrations: "ok", provider: "ok" }
        })
      }))

    it.effect("a migration not recorded as applied: 503 naming it (the row is put back after)", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ id: number; name: string }>`
          SELECT migration_id AS id, name FROM effect_sql_migrations WHERE migration_id = 12`
        expect(row).toBeDefined()
        yield* sql`DELETE FROM effect_sql_migrations WHERE migration_id = 12`
        const reply = yield* get("/ready").pipe(
          Effect.ensuring(
            sql`INSERT INTO effect_sql_migrations (migration_id, name, created_at) VALUES (${row!.id}, ${row!.name}, now())`
              .pipe(Effect.orDie)
          )
        )
        const error = expectFailure(reply, 503, "Service not ready", "Health")
        expect(error).toEqual({
          code: "SERVICE_NOT_READY",
          checks: { database: "ok", migrations: "missing 0012_staff", provider: "ok" },
          failed: ["migrations"]
        })
        expectSuccess(yield* get("/ready"), { apiObject: "Health" })
      }))
  })

  describe("OpenAPI", () => {
    it.effect("documents /health and /ready (200, and 503 for /ready) under Operations", () =>
      Effect.gen(function*() {
        const doc = (yield* get("/api/v1/openapi.json")).body
        expect(doc.paths["/health"].get.responses["200"]).toBeDefined()
        expect(doc.paths["/ready"].get.responses["200"]).toBeDefined()
        expect(doc.paths["/ready"].get.responses["503"]).toBeDefined()
        expect(doc.paths["/ready"].get.security ?? []).toEqual([])
        expect(doc.tags.map((t: { name: string }) => t.name)).toContain("Operations")
      }))
  })
})

layer(serverWithProviderAt(Effect.map(closedPort, (port) => `http://127.0.0.1:${port}`)), {
  excludeTestServices: true,
  timeout: "60 seconds"
})("readiness with the provider down", (it) => {
  it.effect("connection refused: 503 SERVICE_NOT_READY, provider unreachable, the rest ok; /health still 200", () =>
    Effect.gen(function*() {
      const error = expectFailure(yield* get("/ready"), 503, "Service not ready", "Health")
      expect(error.code).toBe("SERVICE_NOT_READY")
      expect(error.failed).toEqual(["provider"])
      expect(error.checks).toEqual({ database: "ok", migrations: "ok", provider: expect.stringMatching(/^unreachable/) })
      expectSuccess(yield* get("/health"), { apiObject: "Health" })
    }))
})

layer(serverWithProviderAt(hangingServer), {
  excludeTestServices: true,
  timeout: "60 seconds"
})("readiness with the provider hanging", (it) => {
  it.effect("no answer: 503 after the check's 3 s limit, not the provider's 10 s timeout", () =>
    Effect.gen(function*() {
      const started = Date.now()
      const error = expectFailure(yield* get("/ready"), 503, "Service not ready", "Health")
      expect(Date.now() - started).toBeLessThan(6_000)
      expect(error.checks.provider).toBe("unreachable (no answer within 3000 ms)")
      expect(error.failed).toEqual(["provider"])
    }))
})
