/**
 * argon2id with the OWASP minimum (19 MiB, 2 iterations, 1 lane). Hashing runs on libuv's thread
 * pool, so the event loop keeps serving while a password is hashed.
 */
import { PasswordHasher } from "@app/domain"
import * as argon2 from "argon2"
import { AppConfig } from "../AppConfig.js"
import { Effect, Layer, Redacted } from "effect"

export const Argon2Options = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

/**
 * APP_ENV=test only (the test suites' AppConfigTest): argon2id at 1 MiB and 1 pass, ~1 ms a hash
 * instead of ~55 ms, so the thousands of sign-ups, sign-ins and PINs of the suites do not spend
 * minutes of CI in key stretching. Never in development or production: the stored hash names its
 * parameters, and the production ones are checked by Argon2PasswordHasher.test.ts.
 */
export const Argon2TestOptions = { type: argon2.argon2id, memoryCost: 1_024, timeCost: 1, parallelism: 1 } as const

export const PasswordHasherLive = Layer.effect(
  PasswordHasher,
  Effect.map(AppConfig, (config) => {
    const options = config.appEnv === "test" ? Argon2TestOptions : Argon2Options
    // A real hash of a random secret: verifying against it costs what a real sign-in costs. It is
    // made on the thread pool while the service starts (awaiting it here held start-up ~0.3 s).
    // If that hash failed, the first decoy verification makes another (a rejection left unawaited
    // until then would also end the process as an unhandled rejection).
    const started = argon2.hash(crypto.randomUUID(), options)
    const decoy = started.catch(() => argon2.hash(crypto.randomUUID(), options))
    const verify = (plain: Redacted.Redacted<string>, hash: string) =>
      Effect.promise(() => argon2.verify(hash, Redacted.value(plain)).catch(() => false))
    return PasswordHasher.of({
      hash: (plain) => Effect.promise(() => argon2.hash(Redacted.value(plain), options)),
      verify,
      dummyVerify: (plain) => Effect.asVoid(Effect.flatMap(Effect.promise(() => decoy), (hash) => verify(plain, hash)))
    })
  })
)
