/**
 * SecretHasher.equals (the webhook secret's check, issue 37): hashed to 32 bytes before a
 * constant-time compare, so no length short-cut; it still answers exactly equality, whatever the
 * lengths. (The absence of a timing difference is by construction, not measured here.)
 */
import { SecretHasher } from "@app/domain"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { AppConfigTest } from "../src/AppConfig.js"
import { SecretHasherLive } from "../src/crypto/NodeCrypto.js"

describe("SecretHasher.equals", () => {
  it.effect("equal only when identical: other lengths, a prefix, one character off, unicode", () =>
    Effect.gen(function*() {
      const { equals } = yield* SecretHasher
      const secret = "development-webhook-secret-do-not-use-in-production"
      expect(equals(secret, secret)).toBe(true)
      for (const other of ["", "d", secret.slice(0, -1), `${secret}x`, secret.replace("w", "W"), secret.repeat(2)]) {
        expect(equals(other, secret)).toBe(false)
        expect(equals(secret, other)).toBe(false)
      }
      expect(equals("naïve-ß", "naïve-ß")).toBe(true)
      expect(equals("naïve-ß", "naive-ß")).toBe(false)
    }).pipe(Effect.provide(SecretHasherLive), Effect.provide(AppConfigTest())))
})
