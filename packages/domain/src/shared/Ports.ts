/**
 * Ports every feature uses: ids, randomness, hashing and the unit of work. Adapters implement
 * them; tests supply in-memory versions. Nothing here knows about SQL, HTTP or Node.
 */
import { Context, type Effect, type Redacted } from "effect"

/** Identifiers (UUIDs), so tests can predict them. */
export class Ids extends Context.Tag("domain/Ids")<Ids, { readonly next: Effect.Effect<string> }>() {}

/** Cryptographically secure randomness. */
export class SecureRandom extends Context.Tag("domain/SecureRandom")<SecureRandom, {
  /** n decimal digits, uniformly distributed, leading zeros kept. */
  readonly digits: (n: number) => Effect.Effect<string>
  /** n random characters from the alphabet, uniformly distributed. */
  readonly fromAlphabet: (n: number, alphabet: string) => Effect.Effect<string>
  /** an unguessable URL-safe token with `bytes` bytes of entropy. */
  readonly token: (bytes: number) => Effect.Effect<string>
}>() {}

/** Slow, salted password hashing (argon2id). */
export class PasswordHasher extends Context.Tag("domain/PasswordHasher")<PasswordHasher, {
  readonly hash: (plain: Redacted.Redacted<string>) => Effect.Effect<string>
  readonly verify: (plain: Redacted.Redacted<string>, hash: string) => Effect.Effect<boolean>
  /** Spends the same time as a verify, for sign-ins of unknown accounts (no timing oracle). */
  readonly dummyVerify: (plain: Redacted.Redacted<string>) => Effect.Effect<void>
}>() {}

/**
 * Keyed, deterministic digest (HMAC with a server secret) for high-entropy or short-lived
 * secrets that must be looked up or compared: refresh tokens, one-time codes, BVNs.
 */
export class SecretHasher extends Context.Tag("domain/SecretHasher")<SecretHasher, {
  readonly digest: (purpose: string, secret: string) => Effect.Effect<string>
  /** constant-time comparison of two digests */
  readonly equals: (a: string, b: string) => boolean
}>() {}

/** Runs an effect atomically: all its repository writes commit together or not at all. */
export class UnitOfWork extends Context.Tag("domain/UnitOfWork")<UnitOfWork, {
  readonly atomically: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}
