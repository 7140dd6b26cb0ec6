/**
 * The admin sign-in throttle behind a reverse proxy (TRUSTED_PROXIES): from a trusted peer the
 * client is the right-most untrusted address of X-Forwarded-For; from any other peer the header is
 * ignored (anyone can forge it) and the peer is the client. Tests run over loopback, so loopback
 * plays the proxy.
 */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { clientAddressOf } from "../src/admin/Handlers.js"
import { adminServer, member } from "./support/AdminFixtures.js"
import { expectFailure, expectSuccess } from "./support/Fixtures.js"
import { send } from "./support/TestServer.js"

const SIGN_IN = "/api/v1/admin/auth/sign-in"
const LOOPBACK = ["127.0.0.1", "::1"]

/** A sign-in with an X-Forwarded-For header (none when undefined). */
const signInVia = (forwardedFor: string | undefined, email: string, password: string) =>
  send(
    HttpClientRequest.post(SIGN_IN).pipe(
      forwardedFor === undefined ? (r) => r : HttpClientRequest.setHeader("x-forwarded-for", forwardedFor),
      HttpClientRequest.bodyUnsafeJson({ email, password })
    )
  )

const WRONG = "not the right password"

describe("clientAddressOf", () => {
  it("an untrusted peer is the client, whatever X-Forwarded-For says", () => {
    expect(clientAddressOf("198.51.100.1", "203.0.113.7", [])).toBe("198.51.100.1")
    expect(clientAddressOf("198.51.100.1", "203.0.113.7", ["10.0.0.2"])).toBe("198.51.100.1")
    expect(clientAddressOf("::ffff:198.51.100.1", "203.0.113.7", ["10.0.0.2"])).toBe("198.51.100.1")
    expect(clientAddressOf(undefined, "203.0.113.7", ["10.0.0.2"])).toBe("unknown")
  })

  it("behind trusted proxies: the right-most untrusted hop; forged entries to its left are never believed", () => {
    const proxies = ["10.0.0.2", "10.0.0.3", "2001:db8::1"]
    expect(clientAddressOf("10.0.0.2", "203.0.113.7", proxies)).toBe("203.0.113.7")
    expect(clientAddressOf("::ffff:10.0.0.2", "6.6.6.6, 203.0.113.7", proxies)).toBe("203.0.113.7")
    expect(clientAddressOf("10.0.0.2", "6.6.6.6, 203.0.113.7, 10.0.0.3", proxies)).toBe("203.0.113.7")
    expect(clientAddressOf("2001:DB8::1", "2001:db8::77", proxies)).toBe("2001:db8::77")
    // every hop trusted: the left-most; no header or an empty one: the proxy itself
    expect(clientAddressOf("10.0.0.2", "10.0.0.3", proxies)).toBe("10.0.0.3")
    expect(clientAddressOf("10.0.0.2", undefined, proxies)).toBe("10.0.0.2")
    expect(clientAddressOf("10.0.0.2", " , ", proxies)).toBe("10.0.0.2")
    // a hop that is not an address: the peer (nobody chooses their own throttle key)
    expect(clientAddressOf("10.0.0.2", "6.6.6.6, not-an-ip", proxies)).toBe("10.0.0.2")
  })
})

layer(adminServer(), { excludeTestServices: true, timeout: "60 seconds" })("no trusted proxy (the default)", (it) => {
  it.effect("a forged X-Forwarded-For is ignored: failures from 'different' clients all count against the peer", () =>
    Effect.gen(function*() {
      const officer = yield* member("officer")
      for (let i = 1; i <= 5; i++) {
        expectFailure(yield* signInVia(`203.0.113.${i}`, officer.email, WRONG), 401, "Invalid credentials", "Admin")
      }
      const throttled = yield* signInVia("198.51.100.99", officer.email, officer.password)
      expect(expectFailure(throttled, 429, /Too many failed sign-in attempts/, "Admin").code).toBe("SIGN_IN_THROTTLED")
      expectFailure(yield* signInVia(undefined, officer.email, officer.password), 429, /Too many/, "Admin")
    }))
})

layer(adminServer({ trustedProxies: LOOPBACK }), { excludeTestServices: true, timeout: "60 seconds" })("behind a trusted proxy", (it) => {
  it.effect("the client is the right-most untrusted X-Forwarded-For address: throttled there, not elsewhere, not the proxy", () =>
    Effect.gen(function*() {
      const officer = yield* member("officer")
      const attacker = "203.0.113.7"
      for (let i = 0; i < 5; i++) expectFailure(yield* signInVia(attacker, officer.email, WRONG), 401, "Invalid credentials", "Admin")
      const error = expectFailure(yield* signInVia(attacker, officer.email, officer.password), 429, /Too many/, "Admin")
      expect(error.code).toBe("SIGN_IN_THROTTLED")
      // the attacker cannot step out of their key by prepending addresses, nor through a second proxy
      expectFailure(yield* signInVia(`198.51.100.9, ${attacker}`, officer.email, officer.password), 429, /Too many/, "Admin")
      expectFailure(yield* signInVia(`${attacker}, 127.0.0.1`, officer.email, officer.password), 429, /Too many/, "Admin")
      // the real member, from their own address, and the proxy's own requests are not locked out
      expectSuccess(yield* signInVia("198.51.100.9", officer.email, officer.password), { apiObject: "Admin" })
      expectSuccess(yield* signInVia(undefined, officer.email, officer.password), { apiObject: "Admin" })
    }))
})
