import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import * as path from "node:path"
import { describeConfigError, DevelopmentSecrets, loadAppConfig } from "../src/AppConfig.js"

const load = (env: Record<string, string>) =>
  loadAppConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

const realSecrets = {
  ACCESS_TOKEN_SECRET: "a-real-production-secret-of-more-than-32-chars",
  SECRET_HASH_KEY: "another-real-production-secret-of-32-chars+",
  BVN_PEPPER: "a-real-bvn-pepper-of-at-least-thirty-two-chars",
  WEBHOOK_SECRET: "a-real-webhook-secret-of-at-least-thirty-two",
  CORE_BANKING_TOKEN: "a-real-core-banking-token-of-thirty-two-chars"
}

describe("AppConfig", () => {
  it.effect("development defaults: port 8080, ./.data, outbox inside DATA_DIR, development secrets", () =>
    Effect.gen(function*() {
      const config = yield* load({})
      expect(config.appEnv).toBe("development")
      expect(config.port).toBe(8080)
      expect(config.dataDir).toBe(path.resolve(".data"))
      expect(config.notifyOutboxFile).toEqual(Option.some(path.resolve(".data", "outbox.jsonl")))
      expect(Option.isNone(config.databaseUrl)).toBe(true)
      expect(Redacted.value(config.accessTokenSecret)).toBe(DevelopmentSecrets.ACCESS_TOKEN_SECRET)
    }))

  it.effect("production refuses missing and development secrets, naming each variable", () =>
    Effect.gen(function*() {
      const missing = yield* Effect.flip(load({ APP_ENV: "production" }))
      expect(describeConfigError(missing)).toContain("ACCESS_TOKEN_SECRET: is required but not set")
      for (const name of Object.keys(DevelopmentSecrets)) {
        expect(describeConfigError(missing)).toContain(`${name}: is required but not set`)
      }
      const dev = yield* Effect.flip(load({ APP_ENV: "production", ...DevelopmentSecrets }))
      expect(describeConfigError(dev)).toContain("ACCESS_TOKEN_SECRET: must be a real secret")
      for (const name of Object.keys(DevelopmentSecrets)) {
        expect(describeConfigError(dev)).toContain(`${name}: must be a real secret`)
      }
    }))

  it.effect("production with real secrets has no outbox unless one is configured", () =>
    Effect.gen(function*() {
      const config = yield* load({ APP_ENV: "production", ...realSecrets })
      expect(Option.isNone(config.notifyOutboxFile)).toBe(true)
      const withOutbox = yield* load({ APP_ENV: "production", ...realSecrets, NOTIFY_OUTBOX_FILE: "/tmp/o.jsonl" })
      expect(withOutbox.notifyOutboxFile).toEqual(Option.some("/tmp/o.jsonl"))
    }))

  it.effect("sandbox options: SANDBOX_DUPLICATE_REFERENCES and SANDBOX_NIP_SESSION_TTL_MS, with defaults, bad values named", () =>
    Effect.gen(function*() {
      const defaults = yield* load({})
      expect(defaults.sandboxDuplicateReferences).toBe("first-outcome")
      expect(defaults.sandboxNipSessionTtlMs).toBe(30 * 60 * 1000)
      const set = yield* load({ SANDBOX_DUPLICATE_REFERENCES: "reject", SANDBOX_NIP_SESSION_TTL_MS: "120000" })
      expect(set.sandboxDuplicateReferences).toBe("reject")
      expect(set.sandboxNipSessionTtlMs).toBe(120_000)
      expect(describeConfigError(yield* Effect.flip(load({ SANDBOX_DUPLICATE_REFERENCES: "sometimes" })))).toMatch(
        /^SANDBOX_DUPLICATE_REFERENCES: /
      )
      expect(describeConfigError(yield* Effect.flip(load({ SANDBOX_NIP_SESSION_TTL_MS: "10" })))).toContain(
        "SANDBOX_NIP_SESSION_TTL_MS: must be between 1000 and 86400000"
      )
    }))

  it.effect("bad values are named: PORT, APP_ENV, MAX_BODY_BYTES, short secrets", () =>
    Effect.gen(function*() {
      expect(describeConfigError(yield* Effect.flip(load({ PORT: "abc" })))).toMatch(/^PORT: /)
      expect(describeConfigError(yield* Effect.flip(load({ APP_ENV: "staging" })))).toMatch(/^APP_ENV: /)
      expect(describeConfigError(yield* Effect.flip(load({ MAX_BODY_BYTES: "10" })))).toContain("MAX_BODY_BYTES")
      expect(describeConfigError(yield* Effect.flip(load({ SECRET_HASH_KEY: "short" })))).toContain(
        "SECRET_HASH_KEY: must be at least 32 characters"
      )
    }))
})
