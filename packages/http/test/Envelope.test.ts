/**
 * The response envelope on success and failure, bodies that are not JSON objects, the body size
 * limit (16 KiB in tests) and unknown routes.
 */
import { describe, expect, layer } from "@effect/vitest"
import { HttpClientRequest } from "@effect/platform"
import { Effect, Exit, Stream } from "effect"
import {
  api,
  expectFailure,
  expectSuccess,
  expectValidation,
  post,
  postRaw,
  uniqueEmail
} from "./support/Fixtures.js"
import { send, TestServer } from "./support/TestServer.js"

const CHECK_EMAIL = "/api/v1/auth/check-email"

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("envelope", (it) => {
  describe("success", () => {
    it.effect("has exactly apiObject, code = HTTP status, status 'success', message and result", () =>
      Effect.gen(function*() {
        const reply = yield* post(CHECK_EMAIL, { email: uniqueEmail("free") })
        expect(reply.body).toEqual({
          apiObject: "Auth",
          code: 200,
          status: "success",
          message: "Email is available.",
          result: {}
        })
        expectSuccess(reply)
      }))
  })

  describe("failure", () => {
    it.effect("has status 'failure', code = HTTP status, a message, an empty result, error.code and the same data.code", () =>
      Effect.gen(function*() {
        const reply = yield* post("/api/v1/auth/forgot-password", { email: uniqueEmail("nobody") })
        expect(reply.body).toEqual({
          apiObject: "Auth",
          code: 400,
          status: "failure",
          message: "Account not found",
          result: {},
          error: { code: "ACCOUNT_NOT_FOUND" },
          data: { code: "ACCOUNT_NOT_FOUND" }
        })
      }))

    it.effect("a validation failure carries error.fieldErrors (map of arrays) and error.formErrors (array)", () =>
      Effect.gen(function*() {
        const reply = yield* post(CHECK_EMAIL, { email: "not-an-email" })
        const error = expectValidation(reply, { fields: ["email"] })
        expect(error).toEqual({ code: "VALIDATION_ERROR", fieldErrors: { email: [expect.any(String)] }, formErrors: [] })
      }))
  })

  describe("bodies that are not a JSON object are 400 'Validation error', never 500", () => {
    it.effect("malformed JSON", () =>
      Effect.gen(function*() {
        const reply = yield* postRaw(CHECK_EMAIL, "{\"email\": ")
        expectValidation(reply, { form: true })
      }))

    it.effect("malformed JSON on an endpoint with many fields (register)", () =>
      Effect.gen(function*() {
        const reply = yield* postRaw("/api/v1/auth/register", "{email: 'a@b.co', password: 'secret123'}")
        expectValidation(reply, { form: true })
      }))

    it.effect("a JSON array", () =>
      Effect.gen(function*() {
        expectValidation(yield* postRaw(CHECK_EMAIL, "[{\"email\":\"a@example.com\"}]"), { form: true })
      }))

    it.effect("a JSON string", () =>
      Effect.gen(function*() {
        expectValidation(yield* postRaw(CHECK_EMAIL, "\"a@example.com\""), { form: true })
      }))

    it.effect("JSON null", () =>
      Effect.gen(function*() {
        expectValidation(yield* postRaw(CHECK_EMAIL, "null"), { form: true })
      }))

    it.effect("an empty body", () =>
      Effect.gen(function*() {
        expectValidation(yield* postRaw("/api/v1/auth/login", ""), { form: true })
      }))
  })

  describe("body size limit (16 KiB)", () => {
    it.effect("a body just under the limit is accepted", () =>
      Effect.gen(function*() {
        const raw = JSON.stringify({ email: uniqueEmail("under"), padding: "x".repeat(15 * 1024) })
        expect(raw.length).toBeLessThan(16 * 1024)
        expectSuccess(yield* postRaw(CHECK_EMAIL, raw))
      }))

    it.effect("a body over the limit is 400 'Validation error' with a form error, not 500 or a reset connection", () =>
      Effect.gen(function*() {
        const raw = JSON.stringify({ email: uniqueEmail("over"), padding: "x".repeat(17 * 1024) })
        expect(raw.length).toBeGreaterThan(16 * 1024)
        const reply = yield* postRaw(CHECK_EMAIL, raw)
        const error = expectValidation(reply, { form: true })
        expect(error.formErrors.join(" ")).toMatch(/too large/i)
      }))

    it.effect("a chunked body over the limit (no Content-Length to refuse it by) is cut off by the body reader, never handled", () =>
      Effect.gen(function*() {
        const chunked = (raw: string) =>
          send(HttpClientRequest.post(CHECK_EMAIL).pipe(
            HttpClientRequest.bodyStream(Stream.make(new TextEncoder().encode(raw)), { contentType: "application/json" })
          ))
        expectSuccess(yield* chunked(JSON.stringify({ email: uniqueEmail("chunked-under"), padding: "x".repeat(15 * 1024) })))
        // the reader can only abort the stream: the client sees the connection reset (the
        // platform's own limit, 10 MB, would have let this one through to the handler)
        const over = yield* Effect.exit(chunked(JSON.stringify({ email: uniqueEmail("chunked-over"), padding: "x".repeat(17 * 1024) })))
        expect(Exit.isFailure(over) ? "cut off" : over.value.status).toBe("cut off")
      }))

    it.effect("an oversized password on register is refused the same way", () =>
      Effect.gen(function*() {
        const raw = JSON.stringify({ email: uniqueEmail("overpw"), password: "p".repeat(20 * 1024) })
        expectValidation(yield* postRaw("/api/v1/auth/register", raw), { form: true })
      }))

    it.effect("the server keeps serving after oversized and malformed bodies", () =>
      Effect.gen(function*() {
        yield* postRaw(CHECK_EMAIL, JSON.stringify({ padding: "x".repeat(32 * 1024) }))
        yield* postRaw(CHECK_EMAIL, "{")
        expectSuccess(yield* post(CHECK_EMAIL, { email: uniqueEmail("after") }))
      }))
  })

  describe("unknown routes → 404 envelope", () => {
    it.effect("under /api/v1/auth", () =>
      Effect.gen(function*() {
        expectFailure(yield* api("POST", "/api/v1/auth/does-not-exist", {}), 404, "Route not found", "Auth")
      }))

    it.effect("under /api/v1/customers, without a token", () =>
      Effect.gen(function*() {
        expectFailure(yield* api("GET", "/api/v1/customers/does-not-exist"), 404, "Route not found", "Customer")
      }))

    it.effect("outside any resource", () =>
      Effect.gen(function*() {
        expectFailure(yield* api("GET", "/api/v1/nothing-here"), 404, "Route not found", "Api")
      }))

    it.effect("a known path with the wrong method is not served", () =>
      Effect.gen(function*() {
        const reply = yield* api("GET", "/api/v1/auth/register")
        expect([404, 405]).toContain(reply.status)
        expect(reply.body).toMatchObject({ apiObject: "Auth", code: reply.status, status: "failure", result: {} })
      }))
  })
})
