/**
 * An unexpected failure (here: a table the repositories need has gone) is a 500 envelope with a
 * generic message and a correlation id; its cause is logged under that id and never sent.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import { call, TestServer } from "./support/TestServer.js"

const logged: Array<string> = []
const CapturingLogger = Logger.add(
  Logger.make(({ annotations, message }) => {
    logged.push(JSON.stringify({ message, annotations: Object.fromEntries(annotations) }))
  })
)

layer(TestServer.pipe(Layer.provide(CapturingLogger)), { excludeTestServices: true, timeout: "60 seconds" })(
  "defects",
  (it) => {
    describe("a database failure inside a use case", () => {
      it.effect("is a 500 envelope with a correlation id; the cause is logged, not sent", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`DROP TABLE refresh_tokens`
          yield* sql`DROP TABLE one_time_codes`
          const reply = yield* call("POST", "/api/v1/auth/check-email", { email: "someone@example.com" })
          expect(reply.status).toBe(200) // untouched tables still work

          const failed = yield* call("POST", "/api/v1/auth/refresh-token", { refreshToken: "anything" })
          expect(failed.status).toBe(500)
          expect(failed.body).toMatchObject({
            apiObject: "Auth",
            code: 500,
            status: "failure",
            result: {},
            error: { code: "INTERNAL_ERROR", correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
            data: { code: "INTERNAL_ERROR" }
          })
          expect(Object.keys(failed.body.error).sort()).toEqual(["code", "correlationId"])
          expect(failed.text).not.toMatch(/refresh_tokens|\brelation\b|SqlError|\bselect\b|\bat \S+:\d+/i)

          const id: string = failed.body.error.correlationId
          expect(failed.headers["x-request-id"]).toBe(id) // the response names the same request
          const entry = logged.find((l) => l.includes(id))
          expect(entry).toBeDefined()
          expect(JSON.parse(entry!).annotations.correlationId).toBe(id)
          expect(entry).toContain("refresh_tokens") // the cause, for operators
        }))
    })
  }
)
