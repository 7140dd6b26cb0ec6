/** Ids, CSPRNG and keyed digests on node:crypto. */
import { Ids, SecretHasher, SecureRandom } from "@app/domain"
import { Effect, Layer, Redacted } from "effect"
import { createHash, createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from "node:crypto"
import { AppConfig } from "../AppConfig.js"

export const IdsLive = Layer.succeed(Ids, Ids.of({ next: Effect.sync(() => randomUUID()) }))

const pick = (n: number, alphabet: string) => {
  let out = ""
  for (let i = 0; i < n; i++) out += alphabet[randomInt(alphabet.length)]
  return out
}

export const SecureRandomLive = Layer.succeed(
  SecureRandom,
  SecureRandom.of({
    digits: (n) => Effect.sync(() => pick(n, "0123456789")),
    fromAlphabet: (n, alphabet) => Effect.sync(() => pick(n, alphabet)),
    token: (bytes) => Effect.sync(() => randomBytes(bytes).toString("base64url"))
  })
)

/**
 * HMAC-SHA256, domain-separated by purpose: BVNs under BVN_PEPPER, everything else (one-time codes,
 * refresh tokens) under SECRET_HASH_KEY.
 */
export const SecretHasherLive = Layer.effect(
  SecretHasher,
  Effect.map(AppConfig, (config) => {
    const keyFor = (purpose: string) =>
      Redacted.value(purpose === "bvn" ? config.bvnPepper : config.secretHashKey)
    return SecretHasher.of({
      digest: (purpose, secret) =>
        Effect.sync(() => createHmac("sha256", keyFor(purpose)).update(`${purpose}\u0000${secret}`).digest("base64url")),
      // both sides are hashed first, so the comparison always runs over 32 bytes: neither an early
      // return on a length mismatch nor the compare's duration tells a caller the secret's length
      equals: (a, b) => {
        const x = createHash("sha256").update(a, "utf8").digest()
        const y = createHash("sha256").update(b, "utf8").digest()
        return timingSafeEqual(x, y) && a === b
      }
    })
  })
)
