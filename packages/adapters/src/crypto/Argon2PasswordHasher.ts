/**
 * argon2id with the OWASP minimum (19 MiB, 2 iterations, 1 lane). Hashing runs on libuv's thread
 * pool, so the event loop keeps serving while a password is hashed.
 */
import { PasswordHasher } from "@app/domain"
import * as argon2 from "argon2"
import { Effect, Layer, Redacted } from "effect"

export const Argon2Options = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export const PasswordHasherLive = Layer.effect(
  PasswordHasher,
  Effect.sync(() => {
    // A real hash of a random secret: verifying against it costs what a real sign-in costs. It is
    // made on the thread pool while the service starts (awaiting it here held start-up ~0.3 s).
    const decoy = argon2.hash(crypto.randomUUID(), Argon2Options)
    const verify = (plain: Redacted.Redacted<string>, hash: string) =>
      Effect.promise(() => argon2.verify(hash, Redacted.value(plain)).catch(() => false))
    return PasswordHasher.of({
      hash: (plain) => Effect.promise(() => argon2.hash(Redacted.value(plain), Argon2Options)),
      verify,
      dummyVerify: (plain) => Effect.asVoid(Effect.flatMap(Effect.promise(() => decoy), (hash) => verify(plain, hash)))
    })
  })
)
