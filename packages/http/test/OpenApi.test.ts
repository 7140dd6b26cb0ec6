/** The OpenAPI document at /api/v1/openapi.json and the docs page at /docs. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import { errorCatalogue } from "../src/ErrorCatalogue.js"
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

  describe("the error contract in the document", () => {
    it.effect("every failure response of every endpoint requires error.code and data.code", () =>
      Effect.gen(function*() {
        const doc = (yield* api("GET", "/api/v1/openapi.json")).body
        const resolve = (schema: any): any =>
          schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split("/").pop()]) : schema
        const branches = (schema: any): Array<any> => {
          const s = resolve(schema)
          return s.anyOf ?? s.oneOf ? (s.anyOf ?? s.oneOf).flatMap(branches) : [s]
        }
        let checked = 0
        for (const [path, methods] of Object.entries<any>(doc.paths)) {
          for (const [method, operation] of Object.entries<any>(methods)) {
            for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
              if (Number(status) < 400) continue
              const schema = response.content?.["application/json"]?.schema
              expect(schema, `${method} ${path} ${status} has a JSON schema`).toBeDefined()
              for (const branch of branches(schema)) {
                const where = `${method.toUpperCase()} ${path} ${status}`
                expect(branch.required, where).toEqual(expect.arrayContaining(["status", "message", "error"]))
                expect(resolve(branch.properties.error).required, where).toContain("code")
                // data.code repeats error.code (the spec's spelling of delete-account's 409)
                expect(branch.required, where).toContain("data")
                expect(resolve(branch.properties.data).required, where).toEqual(["code"])
                checked++
              }
            }
          }
        }
        expect(checked).toBeGreaterThan(Object.keys(doc.paths).length)
      }))

    it.effect("publishes the whole catalogue as the last section, after the endpoints, and docs/errors.md shows it too", () =>
      Effect.gen(function*() {
        const doc = (yield* api("GET", "/api/v1/openapi.json")).body
        const page = fs.readFileSync(new URL("../../../docs/errors.md", import.meta.url), "utf8")
        const last = doc.tags[doc.tags.length - 1]
        expect(last.name).toBe("Error codes")
        expect(Object.keys(errorCatalogue).length).toBeGreaterThan(40)
        for (const [code, { status }] of Object.entries(errorCatalogue)) {
          expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/)
          expect(last.description, code).toContain(`| \`${code}\` | ${status} |`)
          expect(page, `docs/errors.md lists ${code}`).toContain(`| \`${code}\` | ${status} |`)
        }
      }))

    it.effect("lists under each operation the codes it can answer, each with its meaning", () =>
      Effect.gen(function*() {
        const doc = (yield* api("GET", "/api/v1/openapi.json")).body
        const transfer = doc.paths["/api/v1/transactions/transfer"].post.responses
        const refs = (status: string) =>
          (transfer[status].content["application/json"].schema.anyOf ?? [transfer[status].content["application/json"].schema])
            .map((s: { $ref: string }) => s.$ref.split("/").pop())
        expect(refs("400")).toEqual(expect.arrayContaining(["VALIDATION_ERROR", "INSUFFICIENT_BALANCE", "MOVEMENT_IN_FLIGHT"]))
        expect(refs("409")).toEqual(["IDEMPOTENCY_CONFLICT"])
        expect(refs("401")).toEqual(["AUTHENTICATION_REQUIRED"])
        expect(transfer["400"].description).toContain(`- \`INSUFFICIENT_BALANCE\`: ${errorCatalogue.INSUFFICIENT_BALANCE!.meaning}`)
        // a code another operation answers is not listed here
        expect(refs("400")).not.toContain("BVN_TAKEN")
        // the schema of a code fixes error.code and data.code to it
        const schema = doc.components.schemas.INSUFFICIENT_BALANCE
        expect(schema.properties.error.properties.code.enum).toEqual(["INSUFFICIENT_BALANCE"])
        expect(schema.properties.code.enum).toEqual([400])
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
