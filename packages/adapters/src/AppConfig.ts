/**
 * Every setting of the service, read through Effect `Config` and validated once at start-up.
 * A bad value fails start-up with a message that names the variable. In production the
 * development secrets below are refused: each secret must be set, differ from its development
 * value and be at least 32 characters long.
 */
import { Config, ConfigError, Context, Effect, Layer, Option, Redacted } from "effect"
import * as path from "node:path"

export type AppEnv = "development" | "test" | "production"

export interface AppConfigShape {
  readonly appEnv: AppEnv
  readonly port: number
  readonly dataDir: string
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  /** where every outbound email/SMS is appended as a JSON line (development aid; none in production) */
  readonly notifyOutboxFile: Option.Option<string>
  /** HMAC key of access tokens (HS256) */
  readonly accessTokenSecret: Redacted.Redacted<string>
  /** HMAC key of stored one-time codes and refresh tokens */
  readonly secretHashKey: Redacted.Redacted<string>
  /** HMAC key of stored BVN digests (a separate key: BVNs are long-lived personal data) */
  readonly bvnPepper: Redacted.Redacted<string>
  /** largest accepted request body, bytes */
  readonly maxBodyBytes: number
  /** the core banking provider; none = the sandbox bank runs in-process on a loopback port */
  readonly coreBankingUrl: Option.Option<string>
  readonly coreBankingToken: Redacted.Redacted<string>
  /** how long one provider call may take before its outcome is treated as unknown */
  readonly coreBankingTimeoutMs: number
  /** the inbound webhook's static header name and secret */
  readonly webhookHeader: string
  readonly webhookSecret: Redacted.Redacted<string>
  /** added latency of every sandbox provider call */
  readonly sandboxLatencyMs: number
  /** how the in-process sandbox answers a repeated reference: its first outcome, or "94" (reject) */
  readonly sandboxDuplicateReferences: "first-outcome" | "reject"
  /** how long the in-process sandbox accepts a NIP name enquiry's session id */
  readonly sandboxNipSessionTtlMs: number
  /** social sign-in's identity provider; none = POST /oauth/social-sign-in answers 500 "not configured" */
  readonly oauth: Option.Option<OAuthConfig>
  /** web origins allowed to call with cookies (CORS and the cookie endpoints' Origin check) */
  readonly appOrigins: ReadonlyArray<string>
}

export interface OAuthConfig {
  /** the provider's key set (JWKS); cached, refetched on an unknown `kid` */
  readonly jwksUrl: string
  readonly issuer: string
  /** our client ids at the provider (web, Android, iOS): a token's audience must be one of them; the first is the web client */
  readonly clientIds: ReadonlyArray<string>
  /** for the web `code` exchange: all three or none */
  readonly tokenUrl: Option.Option<string>
  readonly clientSecret: Option.Option<Redacted.Redacted<string>>
  readonly redirectUri: Option.Option<string>
  /** the least time between two key-set fetches for unknown `kid`s (bounds what forged kids can make us fetch) */
  readonly jwksRefreshCooldownMs: number
}

const list = (raw: string) => raw.split(",").map((s) => s.trim()).filter((s) => s.length > 0)

/**
 * OAUTH_JWKS_URL, OAUTH_ISSUER and OAUTH_CLIENT_IDS configure social sign-in together: all or none
 * (some but not all fails start-up, naming the missing ones). OAUTH_TOKEN_URL, OAUTH_CLIENT_SECRET
 * and OAUTH_REDIRECT_URI add the web code exchange.
 */
const oauthConfig: Config.Config<Option.Option<OAuthConfig>> = Config.all({
  jwksUrl: Config.option(Config.url("OAUTH_JWKS_URL").pipe(Config.map((u) => u.toString()))),
  issuer: Config.option(Config.nonEmptyString("OAUTH_ISSUER")),
  clientIds: Config.option(Config.nonEmptyString("OAUTH_CLIENT_IDS").pipe(Config.map(list))),
  tokenUrl: Config.option(Config.url("OAUTH_TOKEN_URL").pipe(Config.map((u) => u.toString()))),
  clientSecret: Config.option(Config.redacted("OAUTH_CLIENT_SECRET")),
  redirectUri: Config.option(Config.url("OAUTH_REDIRECT_URI").pipe(Config.map((u) => u.toString())))
}).pipe(
  Config.validate({
    message: "OAUTH_JWKS_URL, OAUTH_ISSUER and OAUTH_CLIENT_IDS: set all three (social sign-in) or none",
    validation: (o) => {
      const set = [Option.isSome(o.jwksUrl), Option.isSome(o.issuer), Option.isSome(o.clientIds)]
      return set.every((x) => x) || set.every((x) => !x)
    }
  }),
  Config.map((o) =>
    Option.all({ jwksUrl: o.jwksUrl, issuer: o.issuer, clientIds: o.clientIds }).pipe(
      Option.map((required) => ({
        ...required,
        tokenUrl: o.tokenUrl,
        clientSecret: o.clientSecret,
        redirectUri: o.redirectUri,
        jwksRefreshCooldownMs: 30_000
      }))
    )
  )
)

export class AppConfig extends Context.Tag("adapters/AppConfig")<AppConfig, AppConfigShape>() {}

/** Development values: fine on a laptop, refused when APP_ENV=production. */
export const DevelopmentSecrets = {
  ACCESS_TOKEN_SECRET: "development-access-token-secret-do-not-use-in-production",
  SECRET_HASH_KEY: "development-secret-hash-key-do-not-use-in-production",
  BVN_PEPPER: "development-bvn-pepper-do-not-use-in-production-xx",
  WEBHOOK_SECRET: "development-webhook-secret-do-not-use-in-production",
  CORE_BANKING_TOKEN: "development-core-banking-token-not-for-production"
} as const

const secret = (name: keyof typeof DevelopmentSecrets, appEnv: AppEnv) =>
  Config.redacted(name).pipe(
    appEnv === "production" ? (c) => c : Config.withDefault(Redacted.make(DevelopmentSecrets[name])),
    Config.validate({
      message: appEnv === "production"
        ? `${name}: must be a real secret of at least 32 characters in production (not the development value)`
        : `${name}: must be at least 32 characters`,
      validation: (value) =>
        Redacted.value(value).length >= 32 &&
        (appEnv !== "production" || Redacted.value(value) !== DevelopmentSecrets[name])
    })
  )

const DEFAULT_NIP_SESSION_TTL_MS = 30 * 60 * 1000

/** The sandbox bank's settings, read here and by the standalone sandbox (`npm run sandbox`). */
export const SandboxBankConfig = {
  latencyMs: Config.integer("SANDBOX_LATENCY_MS").pipe(
    Config.withDefault(0),
    Config.validate({ message: "SANDBOX_LATENCY_MS: must be between 0 and 60000", validation: (n) => n >= 0 && n <= 60_000 })
  ),
  duplicateReferences: Config.literal("first-outcome", "reject")("SANDBOX_DUPLICATE_REFERENCES").pipe(
    Config.withDefault("first-outcome" as const)
  ),
  nipSessionTtlMs: Config.integer("SANDBOX_NIP_SESSION_TTL_MS").pipe(
    Config.withDefault(DEFAULT_NIP_SESSION_TTL_MS),
    Config.validate({
      message: "SANDBOX_NIP_SESSION_TTL_MS: must be between 1000 and 86400000",
      validation: (n) => n >= 1000 && n <= 86_400_000
    })
  )
}

export const loadAppConfig: Effect.Effect<AppConfigShape, ConfigError.ConfigError> = Effect.gen(function*() {
  const appEnv = yield* Config.literal("development", "test", "production")("APP_ENV").pipe(
    Config.withDefault("development" as const)
  )
  // Config.all reports every bad variable at once, not just the first.
  const rest = yield* Config.all({
    dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./.data"), Config.map((d) => path.resolve(d))),
    outbox: Config.option(Config.string("NOTIFY_OUTBOX_FILE")),
    port: Config.port("PORT").pipe(Config.withDefault(8080)),
    databaseUrl: Config.option(Config.redacted("DATABASE_URL")),
    accessTokenSecret: secret("ACCESS_TOKEN_SECRET", appEnv),
    secretHashKey: secret("SECRET_HASH_KEY", appEnv),
    bvnPepper: secret("BVN_PEPPER", appEnv),
    coreBankingUrl: Config.option(Config.url("CORE_BANKING_URL").pipe(Config.map((u) => u.toString().replace(/\/$/, "")))),
    coreBankingToken: secret("CORE_BANKING_TOKEN", appEnv),
    coreBankingTimeoutMs: Config.integer("CORE_BANKING_TIMEOUT_MS").pipe(
      Config.withDefault(10_000),
      Config.validate({ message: "CORE_BANKING_TIMEOUT_MS: must be between 100 and 120000", validation: (n) => n >= 100 && n <= 120_000 })
    ),
    webhookHeader: Config.string("WEBHOOK_HEADER").pipe(
      Config.withDefault("x-webhook-secret"),
      Config.map((h) => h.toLowerCase()),
      Config.validate({ message: "WEBHOOK_HEADER: must be a valid header name", validation: (h) => /^[a-z0-9-]+$/.test(h) })
    ),
    webhookSecret: secret("WEBHOOK_SECRET", appEnv),
    sandboxLatencyMs: SandboxBankConfig.latencyMs,
    sandboxDuplicateReferences: SandboxBankConfig.duplicateReferences,
    sandboxNipSessionTtlMs: SandboxBankConfig.nipSessionTtlMs,
    oauth: oauthConfig,
    appOrigins: Config.string("APP_ORIGINS").pipe(
      Config.withDefault(""),
      Config.map(list),
      Config.validate({
        message: "APP_ORIGINS: a comma list of origins such as https://app.example.com (scheme, host, optional port; no path)",
        validation: (origins) => origins.every((o) => /^https?:\/\/[^/\s]+$/.test(o))
      })
    ),
    maxBodyBytes: Config.integer("MAX_BODY_BYTES").pipe(
      Config.withDefault(64 * 1024),
      Config.validate({ message: "MAX_BODY_BYTES: must be between 1024 and 10485760", validation: (n) => n >= 1024 && n <= 10_485_760 })
    )
  })
  const { outbox, ...settings } = rest
  return {
    appEnv,
    ...settings,
    notifyOutboxFile: Option.isSome(outbox) || appEnv === "production"
      ? Option.map(outbox, (f) => path.resolve(f))
      : Option.some(path.join(rest.dataDir, "outbox.jsonl"))
  } satisfies AppConfigShape
})

/** Reads and validates the configuration; fails with a readable ConfigError naming the variable. */
export const AppConfigLive = Layer.effect(AppConfig, loadAppConfig)

export const AppConfigTest = (overrides: Partial<AppConfigShape> = {}) =>
  Layer.succeed(AppConfig, {
    appEnv: "test",
    port: 0,
    dataDir: ".data/test",
    databaseUrl: Option.none(),
    notifyOutboxFile: Option.none(),
    accessTokenSecret: Redacted.make(DevelopmentSecrets.ACCESS_TOKEN_SECRET),
    secretHashKey: Redacted.make(DevelopmentSecrets.SECRET_HASH_KEY),
    bvnPepper: Redacted.make(DevelopmentSecrets.BVN_PEPPER),
    maxBodyBytes: 64 * 1024,
    coreBankingUrl: Option.none(),
    coreBankingToken: Redacted.make(DevelopmentSecrets.CORE_BANKING_TOKEN),
    coreBankingTimeoutMs: 10_000,
    webhookHeader: "x-webhook-secret",
    webhookSecret: Redacted.make(DevelopmentSecrets.WEBHOOK_SECRET),
    sandboxLatencyMs: 0,
    sandboxDuplicateReferences: "first-outcome",
    sandboxNipSessionTtlMs: DEFAULT_NIP_SESSION_TTL_MS,
    oauth: Option.none(),
    appOrigins: [],
    ...overrides
  })

/** One line per problem, e.g. `ACCESS_TOKEN_SECRET: must be a real secret …`. */
export const describeConfigError = (error: ConfigError.ConfigError): string => {
  const lines: Array<string> = []
  const walk = (e: ConfigError.ConfigError): void => {
    switch (e._op) {
      case "And":
      case "Or":
        walk(e.left)
        walk(e.right)
        return
      case "MissingData":
        lines.push(`${e.path.join(".") || "(config)"}: is required but not set`)
        return
      default:
        // validation messages name their variable themselves (Config.validate drops the path)
        lines.push(e.path.length > 0 ? `${e.path.join(".")}: ${e.message}` : e.message)
    }
  }
  walk(error)
  return lines.join("\n")
}

export const isConfigError = (u: unknown): u is ConfigError.ConfigError => ConfigError.isConfigError(u)
