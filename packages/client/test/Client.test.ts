/**
 * The derived client against the real server (the composed HttpApi on a test port): typed calls
 * with a staff token, declared failures as ApiFailure with the envelope's code and detail, the
 * promise facade with a customer-free staff session; and, on a fake transport, answers that are
 * not the declared envelope (an HTML 502, a 200 of the wrong shape) as UNEXPECTED_RESPONSE.
 */
import { HttpClient, HttpClientResponse, HttpServer } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { adminServer, ROOT } from "../../http/test/support/AdminFixtures.js"
import { AlertId, ApiClient, ApiFailure, CustomerId, INVALID_REQUEST, makeClient, normalise, UNEXPECTED_RESPONSE } from "../src/index.js"

const failureOf = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.flip(normalise(self))

const rejectionOf = (promise: Promise<unknown>) =>
  Effect.promise(() => promise.then(() => new Error("resolved, expected a rejection"), (e: unknown) => e))

const baseUrl = Effect.map(HttpServer.HttpServer, ({ address }) =>
  address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "http://unix")

layer(adminServer(), { excludeTestServices: true, timeout: "60 seconds" })("the derived client", (it) => {
  it.effect("signs a member in and reads with their token; a wrong password and a missing token are ApiFailures with the envelope's code", () =>
    Effect.gen(function*() {
      const anonymous = yield* ApiClient.make()
      const session = yield* anonymous.adminAuth.signIn({ payload: { email: ROOT.email, password: Redacted.make(ROOT.password) } })
      const staff = yield* ApiClient.make({ token: session.token })
      const me = yield* staff.adminStaff.me()
      expect(me.email).toBe(ROOT.email)
      expect(me.permissions).toContain("settings:write")

      const wrong = yield* failureOf(
        anonymous.adminAuth.signIn({ payload: { email: ROOT.email, password: Redacted.make("not the root's password") } })
      )
      expect(wrong).toBeInstanceOf(ApiFailure)
      expect(wrong).toMatchObject({ status: 401, code: "INVALID_CREDENTIALS", message: "Invalid credentials" })
      expect(yield* failureOf(anonymous.adminStaff.me())).toMatchObject({ status: 401, code: "AUTHENTICATION_REQUIRED" })
    }))

  it.effect("a failure's detail is the envelope's error beside its code; a request the schemas refuse is never sent", () =>
    Effect.gen(function*() {
      const session = yield* (yield* ApiClient.make()).adminAuth.signIn({
        payload: { email: ROOT.email, password: Redacted.make(ROOT.password) }
      })
      const staff = yield* ApiClient.make({ token: () => session.token })
      const missing = yield* failureOf(staff.adminOps.updateSetting({ path: { key: "no.such.key" }, payload: { value: 1 } }))
      expect(missing).toMatchObject({ status: 404, code: "SETTING_NOT_FOUND", detail: { key: "no.such.key" } })

      const refused = yield* failureOf(staff.adminCustomers.detail({ path: { id: CustomerId.make("not-a-uuid") } }))
      expect(refused.status).toBe(0)
      expect(refused.code).toBe(INVALID_REQUEST)
      expect(Object.keys(refused.detail.fieldErrors as object)).toEqual(["id"])
    }))

  it.effect("the promise client: methods resolve to the decoded result and reject with an ApiFailure", () =>
    Effect.gen(function*() {
      const url = yield* baseUrl
      const anonymous = makeClient({ baseUrl: url })
      const session = yield* Effect.promise(() =>
        anonymous.adminAuth.signIn({ payload: { email: ROOT.email, password: Redacted.make(ROOT.password) } })
      )
      const seen: Array<ApiFailure> = []
      const staff = makeClient({ baseUrl: url, token: session.token, onFailure: (f) => seen.push(f) })
      const settings = yield* Effect.promise(() => staff.adminOps.listSettings())
      expect(settings.map((s) => s.key)).toContain("fees.nip")

      const rejected = yield* rejectionOf(staff.adminOps.acknowledgeAlert({ path: { id: AlertId.make("00000000-0000-4000-8000-000000000000") } }))
      expect(rejected).toBeInstanceOf(ApiFailure)
      expect(rejected).toMatchObject({ status: 404, code: "ALERT_NOT_FOUND" })
      expect(seen).toEqual([rejected])
      expect(yield* rejectionOf(anonymous.adminOps.listSettings())).toMatchObject({ status: 401, code: "AUTHENTICATION_REQUIRED" })
    }))
})

/** A transport that answers every request with `body` and `status`. */
const answering = (status: number, body: string, contentType = "application/json") =>
  Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request) =>
      Effect.succeed(HttpClientResponse.fromWeb(request, new Response(body, { status, headers: { "content-type": contentType } }))))
  )

describe("answers that are not the declared envelope", () => {
  layer(answering(502, "<html><body>Bad gateway</body></html>", "text/html"))((it) => {
    it.effect("an HTML 502 from a proxy is UNEXPECTED_RESPONSE with its status", () =>
      Effect.gen(function*() {
        const failure = yield* failureOf((yield* ApiClient.make({ baseUrl: "http://bank.test" })).ops.health())
        expect(failure).toMatchObject({ status: 502, code: UNEXPECTED_RESPONSE })
      }))
  })
  layer(answering(200, JSON.stringify({ apiObject: "Health", code: 200, status: "success", message: "ok", result: 42 })))((it) => {
    it.effect("a 200 whose result has the wrong shape is UNEXPECTED_RESPONSE with status 200", () =>
      Effect.gen(function*() {
        const failure = yield* failureOf((yield* ApiClient.make({ baseUrl: "http://bank.test" })).ops.health())
        expect(failure).toMatchObject({ status: 200, code: UNEXPECTED_RESPONSE })
      }))
  })
  layer(answering(418, JSON.stringify({ apiObject: "Any", code: 418, status: "failure", message: "Teapot", result: {}, error: { code: "TEAPOT", spout: "short" } })))((it) => {
    it.effect("a failure envelope with a status the endpoint does not declare is still read as one", () =>
      Effect.gen(function*() {
        const failure = yield* failureOf((yield* ApiClient.make({ baseUrl: "http://bank.test" })).ops.health())
        expect(failure).toMatchObject({ status: 418, code: "TEAPOT", message: "Teapot", detail: { spout: "short" } })
      }))
  })
})
