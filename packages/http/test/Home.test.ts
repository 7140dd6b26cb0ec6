/** GET /: where to go from the service's root (the docs, the console, the probes), not a 404. */
import { describe, expect, layer } from "@effect/vitest"
import { HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { send, TestServer } from "./support/TestServer.js"

const LINKS = { docs: "/docs", openapi: "/api/v1/openapi.json", admin: "/admin", health: "/health", ready: "/ready" }

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("GET /", (it) => {
  describe("GET /", () => {
    it.effect("answers a client the envelope with the links", () =>
      Effect.gen(function*() {
        const reply = yield* send(HttpClientRequest.get("/"))
        expect(reply.status).toBe(200)
        expect(reply.headers["content-type"]).toMatch(/^application\/json/)
        expect(reply.body).toEqual({
          apiObject: "Service",
          code: 200,
          status: "success",
          message: expect.stringContaining("kobo-plans"),
          result: { name: "kobo-plans", links: LINKS }
        })
        // the edge's headers, as on every answer
        expect(reply.headers["x-content-type-options"]).toBe("nosniff")
        expect(reply.headers["x-request-id"]).toBeDefined()
      }))

    it.effect("answers a browser a page linking the docs, the console and the probes", () =>
      Effect.gen(function*() {
        const reply = yield* send(HttpClientRequest.get("/").pipe(
          HttpClientRequest.setHeader("accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
        ))
        expect(reply.status).toBe(200)
        expect(reply.headers["content-type"]).toMatch(/^text\/html/)
        for (const href of Object.values(LINKS)) expect(reply.text).toContain(`href="${href}"`)
        // a page of links only: the API's CSP (no script, no style) still applies
        expect(reply.headers["content-security-policy"]).toContain("default-src 'none'")
        expect(reply.text).not.toMatch(/<script/i)
      }))

    it.effect("another path is still a 404 in the envelope", () =>
      Effect.gen(function*() {
        const reply = yield* send(HttpClientRequest.get("/nothing-here"))
        expect(reply.status).toBe(404)
        expect(reply.body.error.code).toBe("ROUTE_NOT_FOUND")
      }))
  })
})
