/**
 * The password hasher: argon2id with the OWASP minimum (19 MiB, 2 passes, 1 lane) in development
 * and production, read off the stored hash itself; the light parameters only under APP_ENV=test
 * (the suites' AppConfigTest). Either way a hash verifies its password and no other, and the
 * decoy verification (unknown accounts) completes.
 */
import { PasswordHasher } from "@app/domain"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { AppConfigTest } from "../src/AppConfig.js"
import { PasswordHasherLive } from "../src/crypto/Argon2PasswordHasher.js"

const hasherIn = (appEnv: "development" | "test" | "production") =>
  PasswordHasherLive.pipe(Layer.provide(AppConfigTest({ appEnv })))

const roundTrip = Effect.gen(function*() {
  const hasher = yield* PasswordHasher
  const stored = yield* hasher.hash(Redacted.make("correct horse battery"))
  const right = yield* hasher.verify(Redacted.make("correct horse battery"), stored)
  const wrong = yield* hasher.verify(Redacted.make("correct horse battery!"), stored)
  yield* hasher.dummyVerify(Redacted.make("anything at all"))
  return { stored, right, wrong }
})

describe("Argon2PasswordHasher", () => {
  it.effect("development and production: argon2id, 19 MiB, 2 passes, 1 lane", () =>
    Effect.gen(function*() {
      for (const appEnv of ["development", "production"] as const) {
        const { right, stored, wrong } = yield* Effect.provide(roundTrip, hasherIn(appEnv))
        expect(stored.startsWith("$argon2id$v=19$m=19456,p=1,t=2$"), `${appEnv}: ${stored.slice(0, 40)}`).toBe(true)
        expect(right).toBe(true)
        expect(wrong).toBe(false)
      }
    }))

  it.effect("APP_ENV=test only: 1 MiB and 1 pass, still verifying its password and no other", () =>
    Effect.gen(function*() {
      const { right, stored, wrong } = yield* Effect.provide(roundTrip, hasherIn("test"))
      expect(stored.startsWith("$argon2id$v=19$m=1024,p=1,t=1$")).toBe(true)
      expect(right).toBe(true)
      expect(wrong).toBe(false)
    }))
})
