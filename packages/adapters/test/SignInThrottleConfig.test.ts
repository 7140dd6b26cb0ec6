/** SIGN_IN_*: the customer sign-in throttle's settings, defaulted and validated at start-up (a bad value names its variable). */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { describeConfigError, loadAppConfig } from "../src/AppConfig.js"

const load = (env: Record<string, string>) =>
  loadAppConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("SIGN_IN_* settings", () => {
  it.effect("default to 5 per account, 50 per client address, 15 minutes; each can be set", () =>
    Effect.gen(function*() {
      expect((yield* load({})).signInThrottle).toEqual({ maxFailuresPerAccount: 5, maxFailuresPerClient: 50, windowMinutes: 15 })
      expect((yield* load({
        SIGN_IN_MAX_FAILURES_PER_ACCOUNT: "3",
        SIGN_IN_MAX_FAILURES_PER_CLIENT: "200",
        SIGN_IN_THROTTLE_WINDOW_MINUTES: "30"
      })).signInThrottle).toEqual({ maxFailuresPerAccount: 3, maxFailuresPerClient: 200, windowMinutes: 30 })
    }))

  it.effect("zero, a fraction, a word, or a client limit below the account's stops start-up naming the variable", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<[Record<string, string>, string]> = [
        [{ SIGN_IN_MAX_FAILURES_PER_ACCOUNT: "0" }, "SIGN_IN_MAX_FAILURES_PER_ACCOUNT"],
        [{ SIGN_IN_MAX_FAILURES_PER_CLIENT: "2.5" }, "SIGN_IN_MAX_FAILURES_PER_CLIENT"],
        [{ SIGN_IN_THROTTLE_WINDOW_MINUTES: "soon" }, "SIGN_IN_THROTTLE_WINDOW_MINUTES"],
        [{ SIGN_IN_THROTTLE_WINDOW_MINUTES: "2000" }, "SIGN_IN_THROTTLE_WINDOW_MINUTES"],
        [{ SIGN_IN_MAX_FAILURES_PER_ACCOUNT: "10", SIGN_IN_MAX_FAILURES_PER_CLIENT: "5" }, "SIGN_IN_MAX_FAILURES_PER_CLIENT"]
      ]
      for (const [env, variable] of cases) {
        expect(describeConfigError(yield* Effect.flip(load(env)))).toContain(variable)
      }
    }))
})
