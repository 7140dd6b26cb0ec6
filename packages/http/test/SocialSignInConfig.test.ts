/**
 * Social sign-in when it cannot work: not configured (500 with a clear message), or the identity
 * provider unreachable (500). Neither leaks anything but the envelope.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { createServer } from "node:net"
import { expectFailure, post } from "./support/Fixtures.js"
import { testServer, TestServer } from "./support/TestServer.js"

const SOCIAL = "/api/v1/oauth/social-sign-in"

/** A loopback port nothing listens on (bound, then released). */
const closedPort = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address() as { port: number }
    probe.close(() => resolve(port))
  })
})

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("social sign-in, not configured", (it) => {
  describe("POST /oauth/social-sign-in", () => {
    it.effect("500 SOCIAL_SIGN_IN_NOT_CONFIGURED with a clear message, for a token and for a code", () =>
      Effect.gen(function*() {
        for (const body of [{ idToken: "a.b.c" }, { code: "abc" }]) {
          const reply = yield* post(SOCIAL, body)
          const error = expectFailure(reply, 500, "Social sign-in is not configured on this server")
          expect(error.code).toBe("SOCIAL_SIGN_IN_NOT_CONFIGURED")
          expect(reply.text).not.toMatch(/OAUTH_|at |Error:/)
        }
      }))
  })
})

const unreachable = testServer({
  oauth: Option.some({
    jwksUrl: `http://127.0.0.1:${closedPort}/jwks`,
    issuer: "https://issuer.example.com",
    clientIds: ["web-client"],
    tokenUrl: Option.none(),
    clientSecret: Option.none(),
    redirectUri: Option.none(),
    jwksRefreshCooldownMs: 0
  })
})

layer(unreachable, { excludeTestServices: true, timeout: "60 seconds" })("social sign-in, provider unreachable", (it) => {
  it.effect("a token while the key set cannot be fetched → 500 IDENTITY_PROVIDER_UNAVAILABLE; a code without the exchange settings → 500 not configured", () =>
    Effect.gen(function*() {
      // a well-formed RS256 token (its signature cannot be checked without the key set)
      const header = Buffer.from(JSON.stringify({ alg: "RS256", kid: "k1", typ: "JWT" })).toString("base64url")
      const payload = Buffer.from(JSON.stringify({ sub: "s", email: "x@example.com", aud: "web-client", iss: "https://issuer.example.com", exp: 4_000_000_000, iat: 1 })).toString("base64url")
      const reply = yield* post(SOCIAL, { idToken: `${header}.${payload}.c2ln` })
      expect(expectFailure(reply, 500, "The identity provider cannot be reached; try again later").code).toBe("IDENTITY_PROVIDER_UNAVAILABLE")
      expect(expectFailure(yield* post(SOCIAL, { code: "abc" }), 500, "Social sign-in is not configured on this server").code).toBe(
        "SOCIAL_SIGN_IN_NOT_CONFIGURED"
      )
    }))
})
