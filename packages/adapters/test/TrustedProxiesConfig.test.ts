/** TRUSTED_PROXIES: a comma list of IP addresses, empty by default; anything else stops start-up naming it. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { describeConfigError, loadAppConfig } from "../src/AppConfig.js"

const load = (env: Record<string, string>) =>
  loadAppConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("TRUSTED_PROXIES", () => {
  it.effect("defaults to none; takes IPv4 and IPv6 addresses, trimmed", () =>
    Effect.gen(function*() {
      expect((yield* load({})).trustedProxies).toEqual([])
      expect((yield* load({ TRUSTED_PROXIES: " 10.0.0.2, 2001:db8::1 ,," })).trustedProxies).toEqual(["10.0.0.2", "2001:db8::1"])
    }))

  it.effect("a range, a host name or a port is refused, naming the variable", () =>
    Effect.gen(function*() {
      for (const bad of ["10.0.0.0/8", "proxy.internal", "10.0.0.2:443"]) {
        const error = yield* Effect.flip(load({ TRUSTED_PROXIES: `10.0.0.3,${bad}` }))
        expect(describeConfigError(error)).toContain("TRUSTED_PROXIES: a comma list of IP addresses")
      }
    }))
})
