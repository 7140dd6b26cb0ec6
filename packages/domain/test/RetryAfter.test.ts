/**
 * A refusal's Retry-After (retryAfterSeconds) is counted from when the answer is made. A request
 * reads the clock, then claims its throttle; a concurrent request may have blocked the key in
 * between, later than this one's reading, for a whole window from then. Counted from the earlier
 * reading the wait came out a second longer than the window (SignInThrottle.test.ts saw 901 s of a
 * 900 s window on PostgreSQL).
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, TestClock } from "effect"
import * as Auth from "../src/auth/index.js"
import { reserveAttempt, ThrottleStore } from "../src/shared/Throttle.js"
import { ADA, inMemory, pw, registerAda } from "./support/Fixtures.js"

const WINDOW_MS = 15 * 60_000

/** Every claim finds the key blocked by a concurrent request a second after this one read the clock, for a window from then. */
const blockedBySomeoneLater = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.updateService(self, ThrottleStore, (store) =>
    ThrottleStore.of({
      ...store,
      claim: () =>
        Effect.gen(function*() {
          yield* TestClock.adjust("1 second")
          return { _tag: "Blocked" as const, index: 0, until: new Date((yield* Clock.currentTimeMillis) + WINDOW_MS) }
        })
    }))

describe("Retry-After of a throttled request", () => {
  it.effect("sign-in: the wait is the block's end from now, never more than the window", () =>
    inMemory(Effect.gen(function*() {
      yield* registerAda()
      const error = yield* Effect.flip(blockedBySomeoneLater(Auth.login({ email: ADA.email, password: pw(ADA.password) })))
      expect(error).toMatchObject({ _tag: "SignInThrottled", retryAfterSeconds: WINDOW_MS / 1000 })
    })))

  it.effect("an attempt budget (BVN verification, name enquiry): the same", () =>
    inMemory(Effect.gen(function*() {
      const error = yield* Effect.flip(blockedBySomeoneLater(reserveAttempt("a-customer", "name_enquiry")))
      expect(error).toMatchObject({ _tag: "TooManyAttempts", retryAfterSeconds: WINDOW_MS / 1000 })
    })))
})
