import {describe, expect, it} from "@effect/vitest"
import {Duration, Effect, TestClock} from "effect"
import * as Auth from "../src/auth/index.js"
import * as Housekeeping from "../src/auth/Housekeeping.js"
import {ADA, inMemory, pw, registerAda} from "./support/Fixtures.js"
import {Store} from "./support/InMemory.js"

describe("Housekeeping.purgeExpiredSecrets", () => {
  it.effect("keeps live secrets, purges codes after a day and refresh tokens a week after expiry", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      yield* Auth.login({ email: ADA.email, password: pw(ADA.password) })
      expect(yield* Housekeeping.purgeExpiredSecrets).toEqual({ otps: 0, refreshTokens: 0 })

      yield* TestClock.adjust(Duration.days(1))
      expect(yield* Housekeeping.purgeExpiredSecrets).toEqual({ otps: 0, refreshTokens: 0 }) // exactly a day: kept
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* Housekeeping.purgeExpiredSecrets).toEqual({ otps: 1, refreshTokens: 0 })
      expect(yield* Store.otps).toHaveLength(0)

      // refresh tokens live 30 days, then 7 more days of retention
      yield* TestClock.adjust(Duration.days(35)) // 36 days + 1 ms after issue: expired 6 days ago
      expect(yield* Housekeeping.purgeExpiredSecrets).toEqual({ otps: 0, refreshTokens: 0 })
      yield* TestClock.adjust(Duration.days(1))
      expect(yield* Housekeeping.purgeExpiredSecrets).toEqual({ otps: 0, refreshTokens: 1 })
      expect(yield* Store.refreshTokens).toHaveLength(0)
    })))
})
