/**
 * Every setting of the service, read through Effect `Config` and validated once at start-up.
 * A bad value fails start-up with a message that names the variable. In production the
 * development secrets below are refused: each secret must be set, differ from its development
 * value and be at least 32 characters long; no two secrets may share a value; and the service
 * refuses to run on its development stand-ins: CORE_BANKING_URL (else the in-process sandbox bank
 * starts) and DATABASE_URL (else the embedded PGlite database starts) are required.
 */
import { Config, ConfigError, Context, Effect, Layer, Option, Redacted } from "effect"
import * as net from "node:net"
import * as path from "node:path"
import { DEFAULT_SIGN_IN_THROTTLE, signInThrottleConfig, type SignInThrottleConfig } from "./SignInThrottleConfig.js"
import { adminBootstrapConfig, list, oauthConfig, type OAuthConfig, smsConfig, type SmsGatewayConfig, smtpConfig, type SmtpConfig } from "./ConfigGroups.js"
import {
  bankOneConfig,
  type BankOneSettings,
  type CoreBankingProvider,
  coreBankingProviderConfig,
  developmentBankOneSettings
} from "./corebanking/bankone/BankOneConfig.js"

export type AppEnv = "development" | "test" | "production"

export interface AppConfigShape {
  readonly appEnv: AppEnv
  readonly port: number
  readonly dataDir: string
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  /**
   * DURABLE_WRITES (default true): runs the embedded database (PGlite) with fsync on and has the
   * in-process sandbox bank fdatasync each journal line, so what the API acknowledged survives a
   * power loss, not only a process kill. On by default: it costs ~3% of bench:transfers' throughput
   * on the embedded database (docs/decisions/durable-writes.md); `false` trades that safety for
   * speed. PostgreSQL keeps its own settings.
   */
  readonly durableWrites: boolean
  /** where every outbound email/SMS is appended as a JSON line (development aid; none in production) */
  readonly notifyOutboxFile: Option.Option<string>
  /** HMAC key of access tokens (HS256) */
  readonly accessTokenSecret: Redacted.Redacted<string>
  /** HMAC key of stored one-time codes and refresh tokens */
  readonly secretHashKey: Redacted.Redacted<string>
  /** HMAC key of stored BVN digests (a separate key: BVNs are long-lived personal data) */
  readonly bvnPepper: Redacted.Redacted<string>
  /**
   * key of the retention store (RETENTION_KEY): each record a deletion keeps for 5 years is sealed
   * with AES-256-GCM under a key derived from it (lifecycle/RetentionSeal.ts)
   */
  readonly retentionKey: Redacted.Redacted<string>
  /** largest accepted request body, bytes */
  readonly maxBodyBytes: number
  /** how long one HTTP request may run before it is answered 503 REQUEST_TIMEOUT and interrupted */
  readonly requestTimeoutMs: number
  /**
   * CORE_BANKING_PROVIDER: which protocol the provider speaks, this project's `generic` one or
   * AppZone's `bankone` (docs/bankone.md); the embedded sandbox speaks the same dialect
   */
  readonly coreBankingProvider: CoreBankingProvider
  /** the BANKONE_* settings (used when coreBankingProvider is bankone) */
  readonly bankone: BankOneSettings
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
  /** the first superadmin, created at start-up while no staff member exists */
  readonly adminBootstrap: Option.Option<{ readonly email: string; readonly password: Redacted.Redacted<string> }>
  /** ADMIN_FOUR_EYES: settings changes and unfreezes wait for a second staff member's approval */
  readonly adminFourEyes: boolean
  /**
   * TRUSTED_PROXIES: addresses of reverse proxies whose X-Forwarded-For is believed (admin sign-in
   * throttle: the client is the right-most untrusted address); empty = the TCP peer is the client
   */
  readonly trustedProxies: ReadonlyArray<string>
  /** the email transport (SMTP_URL, MAIL_FROM); none = emails go to the outbox file only (refused in production) */
  readonly smtp: Option.Option<SmtpConfig>
  /** the SMS gateway (SMS_GATEWAY_URL, SMS_API_KEY, SMS_SENDER_ID); none = SMS go to the outbox file only */
  readonly sms: Option.Option<SmsGatewayConfig>
  /** how long one delivery attempt to the SMTP relay or SMS gateway may take */
  readonly notifyTimeoutMs: number
  /** NAME_ENQUIRY_MAX_PER_HOUR: account name look-ups (GET /beneficiaries/lookup, POST /beneficiaries, plan POST/PATCH, a transfer without nipSessionId) per customer per hour */
  readonly nameEnquiryMaxPerHour: number
  /** METRICS_PORT: where this process serves Prometheus `GET /metrics`; none (METRICS_PORT=0) = no metrics endpoint */
  readonly metricsPort: Option.Option<number>
  /** METRICS_HOST: the address the metrics endpoint listens on (default 127.0.0.1: loopback only; it has no authentication) */
  readonly metricsHost: string
  /** OTEL_EXPORTER_OTLP_ENDPOINT: where traces go (OTLP/HTTP, `/v1/traces` appended); none = not exported */
  readonly otlpEndpoint: Option.Option<string>
  /** SIGN_IN_MAX_FAILURES_PER_ACCOUNT, SIGN_IN_MAX_FAILURES_PER_CLIENT, SIGN_IN_THROTTLE_WINDOW_MINUTES (SignInThrottleConfig.ts) */
  readonly signInThrottle: SignInThrottleConfig
}

export type { OAuthConfig, SmsGatewayConfig, SmtpConfig } from "./ConfigGroups.js"

export class AppConfig extends Context.Tag("adapters/AppConfig")<AppConfig, AppConfigShape>() {}

/** Development values: fine on a laptop, refused when APP_ENV=production. */
export const DevelopmentSecrets = {
  ACCESS_TOKEN_SECRET: "development-access-token-secret-do-not-use-in-production",
  SECRET_HASH_KEY: "development-secret-hash-key-do-not-use-in-production",
  BVN_PEPPER: "development-bvn-pepper-do-not-use-in-production-xx",
  RETENTION_KEY: "development-retention-key-do-not-use-in-production",
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

/** NAME_ENQUIRY_MAX_PER_HOUR's default: a customer adding a few payees never meets it; an enumerator does */
export const DEFAULT_NAME_ENQUIRY_MAX_PER_HOUR = 30

/** METRICS_PORT's default (the port commonly used by Prometheus exporters) */
export const DEFAULT_METRICS_PORT = 9464

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

/** A value read as a secret, with the variable it came from (for the reuse check). */
type NamedSecret = readonly [name: string, value: Option.Option<Redacted.Redacted<string>>]

/**
 * Production's check across variables, once each is valid on its own: no value shared by two
 * secrets (a reused key turns one leak into all of them: e.g. the webhook secret, which the
 * provider holds too, would then sign access tokens). One line per shared value, naming the
 * variables, never the value.
 */
const reusedSecrets = (secrets: ReadonlyArray<NamedSecret>): ReadonlyArray<string> => {
  const byValue = new Map<string, Array<string>>()
  for (const [name, value] of secrets) {
    if (Option.isNone(value)) continue
    const key = Redacted.value(value.value)
    byValue.set(key, [...(byValue.get(key) ?? []), name])
  }
  return [...byValue.values()]
    .filter((names) => names.length > 1)
    .map((names) => `${names.join(", ")}: must be different secrets in production (one value is reused across them)`)
}

const refuseReusedSecrets = (rest: {
  readonly accessTokenSecret: Redacted.Redacted<string>
  readonly secretHashKey: Redacted.Redacted<string>
  readonly bvnPepper: Redacted.Redacted<string>
  readonly retentionKey: Redacted.Redacted<string>
  readonly webhookSecret: Redacted.Redacted<string>
  readonly coreBankingToken: Redacted.Redacted<string>
  readonly adminBootstrap: AppConfigShape["adminBootstrap"]
  readonly oauth: AppConfigShape["oauth"]
  readonly sms: AppConfigShape["sms"]
}) => {
  const problems = reusedSecrets([
    ["ACCESS_TOKEN_SECRET", Option.some(rest.accessTokenSecret)],
    ["SECRET_HASH_KEY", Option.some(rest.secretHashKey)],
    ["BVN_PEPPER", Option.some(rest.bvnPepper)],
    ["RETENTION_KEY", Option.some(rest.retentionKey)],
    ["WEBHOOK_SECRET", Option.some(rest.webhookSecret)],
    ["CORE_BANKING_TOKEN", Option.some(rest.coreBankingToken)],
    ["ADMIN_BOOTSTRAP_PASSWORD", Option.map(rest.adminBootstrap, (b) => b.password)],
    ["OAUTH_CLIENT_SECRET", Option.flatMap(rest.oauth, (o) => o.clientSecret)],
    ["SMS_API_KEY", Option.map(rest.sms, (s) => s.apiKey)]
  ])
  const [first, ...others] = problems.map((message) => ConfigError.InvalidData([], message))
  return first === undefined ? Effect.void : Effect.fail(others.reduce<ConfigError.ConfigError>(ConfigError.And, first))
}

export const loadAppConfig: Effect.Effect<AppConfigShape, ConfigError.ConfigError> = Effect.gen(function*() {
  const appEnv = yield* Config.literal("development", "test", "production")("APP_ENV").pipe(
    Config.withDefault("development" as const)
  )
  const coreBankingProvider = yield* coreBankingProviderConfig
  // Config.all reports every bad variable at once, not just the first.
  const rest = yield* Config.all({
    bankone: bankOneConfig(appEnv === "production" && coreBankingProvider === "bankone"),
    dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./.data"), Config.map((d) => path.resolve(d))),
    // the file holds one-time codes and link tokens in clear: a development aid, never production's
    outbox: Config.option(Config.string("NOTIFY_OUTBOX_FILE")).pipe(Config.validate({
      message: "NOTIFY_OUTBOX_FILE: not allowed in production (it would hold one-time codes in clear)",
      validation: (o) => appEnv !== "production" || Option.isNone(o)
    })),
    port: Config.port("PORT").pipe(Config.withDefault(8080)),
    databaseUrl: Config.option(Config.redacted("DATABASE_URL")).pipe(Config.validate({
      message: "DATABASE_URL: PostgreSQL is required in production (without it the embedded PGlite database would start: " +
        "one process, one connection, no backups or replication)",
      validation: (o) => appEnv !== "production" || Option.isSome(o)
    })),
    durableWrites: Config.boolean("DURABLE_WRITES").pipe(Config.withDefault(true)),
    accessTokenSecret: secret("ACCESS_TOKEN_SECRET", appEnv),
    secretHashKey: secret("SECRET_HASH_KEY", appEnv),
    bvnPepper: secret("BVN_PEPPER", appEnv),
    retentionKey: secret("RETENTION_KEY", appEnv),
    coreBankingUrl: Config.option(Config.url("CORE_BANKING_URL").pipe(Config.map((u) => u.toString().replace(/\/$/, "")))).pipe(
      Config.validate({
        message: "CORE_BANKING_URL: a real core banking provider is required in production (without it the in-process sandbox bank would start)",
        validation: (o) => appEnv !== "production" || Option.isSome(o)
      })
    ),
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
    adminBootstrap: adminBootstrapConfig,
    adminFourEyes: Config.boolean("ADMIN_FOUR_EYES").pipe(Config.withDefault(false)),
    trustedProxies: Config.string("TRUSTED_PROXIES").pipe(
      Config.withDefault(""),
      Config.map(list),
      Config.validate({
        message: "TRUSTED_PROXIES: a comma list of IP addresses (IPv4 or IPv6, no ranges), e.g. 10.0.0.2,10.0.0.3",
        validation: (addresses) => addresses.every((a) => net.isIP(a) !== 0)
      })
    ),
    maxBodyBytes: Config.integer("MAX_BODY_BYTES").pipe(
      Config.withDefault(64 * 1024),
      Config.validate({ message: "MAX_BODY_BYTES: must be between 1024 and 10485760", validation: (n) => n >= 1024 && n <= 10_485_760 })
    ),
    requestTimeoutMs: Config.integer("REQUEST_TIMEOUT_MS").pipe(
      Config.withDefault(30_000),
      Config.validate({ message: "REQUEST_TIMEOUT_MS: must be between 1000 and 300000", validation: (n) => n >= 1000 && n <= 300_000 })
    ),
    smtp: smtpConfig(appEnv),
    sms: smsConfig,
    notifyTimeoutMs: Config.integer("NOTIFY_TIMEOUT_MS").pipe(
      Config.withDefault(10_000),
      Config.validate({ message: "NOTIFY_TIMEOUT_MS: must be between 100 and 120000", validation: (n) => n >= 100 && n <= 120_000 })
    ),
    nameEnquiryMaxPerHour: Config.integer("NAME_ENQUIRY_MAX_PER_HOUR").pipe(
      Config.withDefault(DEFAULT_NAME_ENQUIRY_MAX_PER_HOUR),
      Config.validate({
        message: "NAME_ENQUIRY_MAX_PER_HOUR: must be between 1 and 10000",
        validation: (n) => n >= 1 && n <= 10_000
      })
    ),
    metricsPort: Config.integer("METRICS_PORT").pipe(
      Config.withDefault(DEFAULT_METRICS_PORT),
      Config.validate({ message: "METRICS_PORT: must be a port between 1 and 65535, or 0 (no metrics endpoint)", validation: (n) => n >= 0 && n <= 65_535 }),
      Config.map((n) => (n === 0 ? Option.none() : Option.some(n)))
    ),
    metricsHost: Config.string("METRICS_HOST").pipe(
      Config.withDefault("127.0.0.1"),
      Config.map((h) => h.trim()),
      Config.validate({
        message: "METRICS_HOST: an IP address to listen on (default 127.0.0.1, loopback only; 0.0.0.0 for every interface)",
        validation: (h) => net.isIP(h) !== 0
      })
    ),
    otlpEndpoint: Config.option(Config.url("OTEL_EXPORTER_OTLP_ENDPOINT").pipe(
      Config.validate({
        message: "OTEL_EXPORTER_OTLP_ENDPOINT: must be an http(s) URL such as http://otel-collector:4318",
        validation: (u) => u.protocol === "http:" || u.protocol === "https:"
      }),
      Config.map((u) => u.toString().replace(/\/+$/, ""))
    )),
    signInThrottle: signInThrottleConfig
  })
  if (appEnv === "production") yield* refuseReusedSecrets(rest)
  const { outbox, ...settings } = rest
  return {
    appEnv,
    coreBankingProvider,
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
    durableWrites: false,
    notifyOutboxFile: Option.none(),
    accessTokenSecret: Redacted.make(DevelopmentSecrets.ACCESS_TOKEN_SECRET),
    secretHashKey: Redacted.make(DevelopmentSecrets.SECRET_HASH_KEY),
    bvnPepper: Redacted.make(DevelopmentSecrets.BVN_PEPPER),
    retentionKey: Redacted.make(DevelopmentSecrets.RETENTION_KEY),
    maxBodyBytes: 64 * 1024,
    requestTimeoutMs: 30_000,
    coreBankingProvider: "generic",
    bankone: developmentBankOneSettings(),
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
    adminBootstrap: Option.none(),
    adminFourEyes: false,
    trustedProxies: [],
    smtp: Option.none(),
    sms: Option.none(),
    notifyTimeoutMs: 10_000,
    metricsPort: Option.none(),
    metricsHost: "127.0.0.1",
    otlpEndpoint: Option.none(),
    signInThrottle: DEFAULT_SIGN_IN_THROTTLE,
    nameEnquiryMaxPerHour: DEFAULT_NAME_ENQUIRY_MAX_PER_HOUR,
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
