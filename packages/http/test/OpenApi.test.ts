/** The OpenAPI document at /api/v1/openapi.json and the docs page at /docs. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { api } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"

const ENDPOINTS: ReadonlyArray<readonly [string, string]> = [
  ["post", "/api/v1/auth/register"],
  ["post", "/api/v1/auth/otp/email/send"],
  ["post", "/api/v1/auth/otp/email/verify"],
  ["post", "/api/v1/auth/otp/phone/send"],
  ["post", "/api/v1/auth/otp/phone/verify"],
  ["post", "/api/v1/auth/login"],
  ["post", "/api/v1/auth/refresh-token"],
  ["post", "/api/v1/auth/token"],
  ["post", "/api/v1/auth/check-email"],
  ["post", "/api/v1/auth/forgot-password"],
  ["post", "/api/v1/auth/reset-password"],
  ["post", "/api/v1/auth/otp/request"],
  ["post", "/api/v1/auth/change-password"],
  ["get", "/api/v1/customers/me"]
]

const BEARER_ONLY = new Set(["/api/v1/auth/otp/request", "/api/v1/auth/change-password", "/api/v1/customers/me"])

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("openapi", (it) => {
  describe("GET /api/v1/openapi.json", () => {
    it.effect("is a JSON OpenAPI 3 document listing every endpoint", () =>
      Effect.gen(function*() {
        const reply = yield* api("GET", "/api/v1/openapi.json")
        expect(reply.status).toBe(200)
        expect(reply.headers["content-type"]).toMatch(/^application\/json/)
        const doc = reply.body
        expect(doc.openapi).toMatch(/^3\./)
        expect(doc.info.title).toBeTypeOf("string")
        for (const [method, path] of ENDPOINTS) {
          expect(doc.paths, `${method.toUpperCase()} ${path}`).toHaveProperty([path, method])
        }
      }))

    it.effect("marks exactly the bearer endpoints as secured", () =>
      Effect.gen(function*() {
        const doc = (yield* api("GET", "/api/v1/openapi.json")).body
        for (const [method, path] of ENDPOINTS) {
          const security: Array<Record<string, unknown>> = doc.paths[path][method].security ?? []
          const secured = security.some((s) => Object.keys(s).length > 0)
          expect(secured, `${path} secured`).toBe(BEARER_ONLY.has(path))
        }
      }))

    it.effect("documents register's 201 as the success envelope", () =>
      Effect.gen(function*() {
        const doc = (yield* api("GET", "/api/v1/openapi.json")).body
        const responses = doc.paths["/api/v1/auth/register"].post.responses
        expect(responses).toHaveProperty("201")
        expect(responses).toHaveProperty("400")
        const schema = responses["201"].content["application/json"].schema
        expect(schema.required).toEqual(expect.arrayContaining(["apiObject", "code", "status", "message", "result"]))
        expect(JSON.stringify(doc)).not.toMatch(/passwordHash|pinHash|bvnHash/)
      }))
  })

  describe("GET /docs", () => {
    it.effect("answers 200 with an HTML page", () =>
      Effect.gen(function*() {
        const reply = yield* api("GET", "/docs")
        expect(reply.status).toBe(200)
        expect(reply.headers["content-type"]).toMatch(/^text\/html/)
        expect(reply.text).toMatch(/<html/i)
      }))
  })
})
