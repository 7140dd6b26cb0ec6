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
  RETENTION_KEY: "a-real-retention-store-key-of-thirty-two-chars",
  WEBHOOK_SECRET: "a-real-webhook-secret-of-at-least-thirty-two",
  CORE_BANKING_TOKEN: "a-real-core-banking-token-of-thirty-two-chars",
  SMTP_URL: "smtps://mailer:relay-password@smtp.example.com:465",
  MAIL_FROM: "kobo-plans <no-reply@example.com>",
  CORE_BANKING_URL: "https://core-banking.example.com/api",
  DATABASE_URL: "postgres://kobo:db-password@db.example.com:5432/kobo"
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

  it.effect("production has no outbox file, and refuses one (it would hold one-time codes in clear)", () =>
    Effect.gen(function*() {
      const config = yield* load({ APP_ENV: "production", ...realSecrets })
      expect(Option.isNone(config.notifyOutboxFile)).toBe(true)
      const withOutbox = yield* Effect.flip(load({ APP_ENV: "production", ...realSecrets, NOTIFY_OUTBOX_FILE: "/tmp/o.jsonl" }))
      expect(describeConfigError(withOutbox)).toContain("NOTIFY_OUTBOX_FILE: not allowed in production")
      // outside production it is the development aid it always was
      const dev = yield* load({ NOTIFY_OUTBOX_FILE: "/tmp/o.jsonl" })
      expect(dev.notifyOutboxFile).toEqual(Option.some("/tmp/o.jsonl"))
    }))

  it.effect("production refuses to start without an email transport (SMTP_URL and MAIL_FROM)", () =>
    Effect.gen(function*() {
      const { SMTP_URL: _url, MAIL_FROM: _from, ...withoutMail } = realSecrets
      const error = describeConfigError(yield* Effect.flip(load({ APP_ENV: "production", ...withoutMail })))
      expect(error).toBe("SMTP_URL, MAIL_FROM: an email transport is required in production (set both)")
      const noFrom = describeConfigError(yield* Effect.flip(load({ APP_ENV: "production", ...withoutMail, SMTP_URL: realSecrets.SMTP_URL })))
      expect(noFrom).toContain("SMTP_URL, MAIL_FROM: an email transport is required in production")
      const config = yield* load({ APP_ENV: "production", ...realSecrets })
      const smtp = Option.getOrThrow(config.smtp)
      expect(Redacted.value(smtp.url)).toBe(realSecrets.SMTP_URL)
      expect(smtp.from).toBe("kobo-plans <no-reply@example.com>")
      expect(String(smtp.url)).not.toContain("relay-password")
      expect(config.notifyTimeoutMs).toBe(10_000)
    }))

  it.effect("outside production SMTP_URL and MAIL_FROM are optional, together; bad values are named", () =>
    Effect.gen(function*() {
      expect(Option.isNone((yield* load({})).smtp)).toBe(true)
      expect(describeConfigError(yield* Effect.flip(load({ SMTP_URL: "smtp://localhost:2525" })))).toBe(
        "SMTP_URL, MAIL_FROM: set both (the email transport) or neither (outbox file only)"
      )
      expect(describeConfigError(yield* Effect.flip(load({ SMTP_URL: "http://mail.example.com", MAIL_FROM: "a@b.co" })))).toContain(
        "SMTP_URL: must look like smtp://"
      )
      expect(describeConfigError(yield* Effect.flip(load({ SMTP_URL: "smtp://localhost", MAIL_FROM: "nobody" })))).toContain(
        "MAIL_FROM: must be an address or `Name <address>`"
      )
      expect(describeConfigError(yield* Effect.flip(load({ NOTIFY_TIMEOUT_MS: "5" })))).toContain("NOTIFY_TIMEOUT_MS: must be between")
      const bare = yield* load({ SMTP_URL: "smtp://localhost:2525", MAIL_FROM: " no-reply@example.com " })
      expect(Option.getOrThrow(bare.smtp).from).toBe("no-reply@example.com")
    }))

  it.effect("SMS_GATEWAY_URL, SMS_API_KEY and SMS_SENDER_ID: all three or none; the key redacted", () =>
    Effect.gen(function*() {
      expect(Option.isNone((yield* load({})).sms)).toBe(true)
      expect(describeConfigError(yield* Effect.flip(load({ SMS_GATEWAY_URL: "https://sms.example.com/api/sms/send" })))).toBe(
        "SMS_GATEWAY_URL, SMS_API_KEY and SMS_SENDER_ID: set all three (the SMS gateway) or none"
      )
      const full = { SMS_GATEWAY_URL: "https://sms.example.com/api/sms/send", SMS_API_KEY: "key-123", SMS_SENDER_ID: "KoboPlans" }
      const sms = Option.getOrThrow((yield* load(full)).sms)
      expect(sms.url).toBe("https://sms.example.com/api/sms/send")
      expect(sms.senderId).toBe("KoboPlans")
      expect(Redacted.value(sms.apiKey)).toBe("key-123")
      expect(String(sms.apiKey)).not.toContain("key-123")
      expect(describeConfigError(yield* Effect.flip(load({ ...full, SMS_SENDER_ID: "A sender id far too long" })))).toContain(
        "SMS_SENDER_ID: 1 to 11 letters"
      )
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

  it.effect("RETENTION_KEY: a development default; at least 32 characters; required and not the development value in production", () =>
    Effect.gen(function*() {
      expect(Redacted.value((yield* load({})).retentionKey)).toBe(DevelopmentSecrets.RETENTION_KEY)
      expect(String((yield* load({})).retentionKey)).not.toContain("retention")
      expect(describeConfigError(yield* Effect.flip(load({ RETENTION_KEY: "short" })))).toBe("RETENTION_KEY: must be at least 32 characters")
      const { RETENTION_KEY: _key, ...withoutKey } = realSecrets
      expect(describeConfigError(yield* Effect.flip(load({ APP_ENV: "production", ...withoutKey })))).toBe(
        "RETENTION_KEY: is required but not set"
      )
      expect(describeConfigError(yield* Effect.flip(load({ APP_ENV: "production", ...withoutKey, RETENTION_KEY: DevelopmentSecrets.RETENTION_KEY }))))
        .toBe("RETENTION_KEY: must be a real secret of at least 32 characters in production (not the development value)")
      expect(Redacted.value((yield* load({ APP_ENV: "production", ...realSecrets })).retentionKey)).toBe(realSecrets.RETENTION_KEY)
    }))

  it.effect("ADMIN_BOOTSTRAP_EMAIL/PASSWORD: both or neither, a real email, a 12-character password", () =>
    Effect.gen(function*() {
      expect(Option.isNone((yield* load({})).adminBootstrap)).toBe(true)
      const set = yield* load({ ADMIN_BOOTSTRAP_EMAIL: "root@example.com", ADMIN_BOOTSTRAP_PASSWORD: "twelve chars" })
      expect(Option.map(set.adminBootstrap, (b) => [b.email, Redacted.value(b.password)])).toEqual(Option.some(["root@example.com", "twelve chars"]))
      const problems = async (env: Record<string, string>) => describeConfigError(await Effect.runPromise(Effect.flip(load(env))))
      const only = yield* Effect.promise(() => problems({ ADMIN_BOOTSTRAP_EMAIL: "root@example.com" }))
      expect(only).toContain("set both or neither")
      const bad = yield* Effect.promise(() => problems({ ADMIN_BOOTSTRAP_EMAIL: "root", ADMIN_BOOTSTRAP_PASSWORD: "short" }))
      expect(bad).toContain("ADMIN_BOOTSTRAP_EMAIL: must be an email address")
      const weak = yield* Effect.promise(() => problems({ ADMIN_BOOTSTRAP_EMAIL: "root@example.com", ADMIN_BOOTSTRAP_PASSWORD: "short" }))
      expect(weak).toContain("ADMIN_BOOTSTRAP_PASSWORD: must be 12 to 128 characters")
    }))

  describe("production refuses a configuration that would run on test doubles or one reused key (issue 37)", () => {
    it.effect("without CORE_BANKING_URL: refused (the in-process sandbox bank would start), naming the variable", () =>
      Effect.gen(function*() {
        const { CORE_BANKING_URL: _url, ...withoutProvider } = realSecrets
        const error = describeConfigError(yield* Effect.flip(load({ APP_ENV: "production", ...withoutProvider })))
        expect(error).toBe(
          "CORE_BANKING_URL: a real core banking provider is required in production (without it the in-process sandbox bank would start)"
        )
        // outside production the sandbox is the default, as the quick start relies on
        expect(Option.isNone((yield* load({})).coreBankingUrl)).toBe(true)
      }))

    it.effect("without DATABASE_URL: refused (PGlite is an embedded development database), naming why", () =>
      Effect.gen(function*() {
        const { DATABASE_URL: _db, ...withoutDatabase } = realSecrets
        const error = describeConfigError(yield* Effect.flip(load({ APP_ENV: "production", ...withoutDatabase })))
        expect(error).toBe(
          "DATABASE_URL: PostgreSQL is required in production (without it the embedded PGlite database would start: " +
            "one process, one connection, no backups or replication)"
        )
        expect(Option.isNone((yield* load({})).databaseUrl)).toBe(true)
      }))

    it.effect("one value reused across secrets: refused, naming every variable that shares it (never the value)", () =>
      Effect.gen(function*() {
        const shared = "one-secret-pasted-into-every-variable-xyz"
        const reused = {
          ...realSecrets,
          ACCESS_TOKEN_SECRET: shared,
          BVN_PEPPER: shared,
          WEBHOOK_SECRET: shared
        }
        const error = describeConfigError(yield* Effect.flip(load({ APP_ENV: "production", ...reused })))
        expect(error).toBe(
          "ACCESS_TOKEN_SECRET, BVN_PEPPER, WEBHOOK_SECRET: must be different secrets in production (one value is reused across them)"
        )
        expect(error).not.toContain(shared)
        const pair = describeConfigError(
          yield* Effect.flip(load({ APP_ENV: "production", ...realSecrets, RETENTION_KEY: realSecrets.SECRET_HASH_KEY }))
        )
        expect(pair).toContain("SECRET_HASH_KEY, RETENTION_KEY: must be different secrets in production")
        // the bootstrap password and the provider's token count too
        const token = describeConfigError(
          yield* Effect.flip(load({ APP_ENV: "production", ...realSecrets, CORE_BANKING_TOKEN: realSecrets.WEBHOOK_SECRET }))
        )
        expect(token).toContain("WEBHOOK_SECRET, CORE_BANKING_TOKEN: must be different secrets in production")
        // a missing provider and database are reported with every other bad variable at once
        const { CORE_BANKING_URL: _url, DATABASE_URL: _db, ...bare } = realSecrets
        const both = describeConfigError(yield* Effect.flip(load({ APP_ENV: "production", ...bare, BVN_PEPPER: "short" })))
        expect(both).toContain("CORE_BANKING_URL: a real core banking provider is required")
        expect(both).toContain("DATABASE_URL: PostgreSQL is required in production")
        expect(both).toContain("BVN_PEPPER: must be a real secret")
        // outside production the development values (all different) and any reuse are allowed
        yield* load({ ACCESS_TOKEN_SECRET: shared, BVN_PEPPER: shared })
        const fine = yield* load({ APP_ENV: "production", ...realSecrets })
        expect(Option.isSome(fine.coreBankingUrl) && Option.isSome(fine.databaseUrl)).toBe(true)
      }))
  })
})
