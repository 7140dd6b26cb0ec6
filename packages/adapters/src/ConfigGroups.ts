/**
 * The settings that come in groups, each all-or-none (a transport, social sign-in, the first
 * superadmin): read and validated with Effect `Config`, assembled into AppConfig by AppConfig.ts.
 */
import { Config, Option, Redacted } from "effect"
import type { AppEnv } from "./AppConfig.js"

export interface SmtpConfig {
  /** smtp://user:pass@host:port or smtps://…; holds the password, so redacted */
  readonly url: Redacted.Redacted<string>
  /** the sender, `kobo-plans <no-reply@example.com>` or a bare address */
  readonly from: string
}

export interface SmsGatewayConfig {
  /** where messages are POSTed (JSON {api_key, to, from, sms, type, channel}) */
  readonly url: string
  readonly apiKey: Redacted.Redacted<string>
  /** the registered sender id shown to the customer (≤ 11 characters) */
  readonly senderId: string
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

/** Settings that only make sense together: every one set, or none. */
export const allOrNone = (...options: ReadonlyArray<Option.Option<unknown>>) =>
  options.every(Option.isSome) || options.every(Option.isNone)

export const list = (raw: string) => raw.split(",").map((s) => s.trim()).filter((s) => s.length > 0)

/**
 * OAUTH_JWKS_URL, OAUTH_ISSUER and OAUTH_CLIENT_IDS configure social sign-in together: all or none
 * (some but not all fails start-up, naming the missing ones). OAUTH_TOKEN_URL, OAUTH_CLIENT_SECRET
 * and OAUTH_REDIRECT_URI add the web code exchange.
 */
export const oauthConfig: Config.Config<Option.Option<OAuthConfig>> = Config.all({
  jwksUrl: Config.option(Config.url("OAUTH_JWKS_URL").pipe(Config.map((u) => u.toString()))),
  issuer: Config.option(Config.nonEmptyString("OAUTH_ISSUER")),
  clientIds: Config.option(Config.nonEmptyString("OAUTH_CLIENT_IDS").pipe(Config.map(list))),
  tokenUrl: Config.option(Config.url("OAUTH_TOKEN_URL").pipe(Config.map((u) => u.toString()))),
  clientSecret: Config.option(Config.redacted("OAUTH_CLIENT_SECRET")),
  redirectUri: Config.option(Config.url("OAUTH_REDIRECT_URI").pipe(Config.map((u) => u.toString())))
}).pipe(
  Config.validate({
    message: "OAUTH_JWKS_URL, OAUTH_ISSUER and OAUTH_CLIENT_IDS: set all three (social sign-in) or none",
    validation: (o) => allOrNone(o.jwksUrl, o.issuer, o.clientIds)
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

/** ADMIN_BOOTSTRAP_EMAIL and ADMIN_BOOTSTRAP_PASSWORD: both or neither; the password as strong as any staff password. */
export const adminBootstrapConfig = Config.all({
  email: Config.option(Config.nonEmptyString("ADMIN_BOOTSTRAP_EMAIL")),
  password: Config.option(Config.redacted("ADMIN_BOOTSTRAP_PASSWORD"))
}).pipe(
  Config.validate({
    message: "ADMIN_BOOTSTRAP_EMAIL and ADMIN_BOOTSTRAP_PASSWORD: set both or neither",
    validation: (b) => Option.isSome(b.email) === Option.isSome(b.password)
  }),
  Config.validate({
    message: "ADMIN_BOOTSTRAP_EMAIL: must be an email address",
    validation: (b) => Option.match(b.email, { onNone: () => true, onSome: (e) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(e.trim()) })
  }),
  Config.validate({
    message: "ADMIN_BOOTSTRAP_PASSWORD: must be 12 to 128 characters",
    validation: (b) =>
      Option.match(b.password, { onNone: () => true, onSome: (p) => Redacted.value(p).length >= 12 && Redacted.value(p).length <= 128 })
  }),
  Config.map((b) => Option.all({ email: b.email, password: b.password }))
)

/** smtp:// or smtps:// with a host; user and password optional. */
const isSmtpUrl = (raw: string) => {
  try {
    const url = new URL(raw)
    return (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname.length > 0
  } catch {
    return false
  }
}

/**
 * SMTP_URL with MAIL_FROM: both or neither; in production both are required (operations.md: the
 * service refuses to start without an email transport).
 */
export const smtpConfig = (appEnv: AppEnv): Config.Config<Option.Option<SmtpConfig>> =>
  Config.all({
    url: Config.option(Config.redacted("SMTP_URL").pipe(Config.validate({
      message: "SMTP_URL: must look like smtp://user:pass@host:587 or smtps://user:pass@host:465",
      validation: (u) => isSmtpUrl(Redacted.value(u))
    }))),
    from: Config.option(Config.nonEmptyString("MAIL_FROM").pipe(Config.validate({
      message: "MAIL_FROM: must be an address or `Name <address>`",
      validation: (f) => /^[^<>@\s]+@[^<>@\s]+$|^[^<>]*<[^<>@\s]+@[^<>@\s]+>$/.test(f.trim())
    })))
  }).pipe(
    Config.validate({
      message: appEnv === "production"
        ? "SMTP_URL, MAIL_FROM: an email transport is required in production (set both)"
        : "SMTP_URL, MAIL_FROM: set both (the email transport) or neither (outbox file only)",
      validation: (o) =>
        appEnv === "production"
          ? Option.isSome(o.url) && Option.isSome(o.from)
          : Option.isSome(o.url) === Option.isSome(o.from)
    }),
    Config.map((o) => Option.all({ url: o.url, from: Option.map(o.from, (f) => f.trim()) }))
  )

/** SMS_GATEWAY_URL, SMS_API_KEY and SMS_SENDER_ID: all three or none. */
export const smsConfig: Config.Config<Option.Option<SmsGatewayConfig>> = Config.all({
  url: Config.option(Config.url("SMS_GATEWAY_URL").pipe(Config.map((u) => u.toString()))),
  apiKey: Config.option(Config.redacted("SMS_API_KEY")),
  senderId: Config.option(Config.nonEmptyString("SMS_SENDER_ID").pipe(Config.validate({
    message: "SMS_SENDER_ID: 1 to 11 letters, digits or spaces",
    validation: (s) => /^[A-Za-z0-9 ]{1,11}$/.test(s)
  })))
}).pipe(
  Config.validate({
    message: "SMS_GATEWAY_URL, SMS_API_KEY and SMS_SENDER_ID: set all three (the SMS gateway) or none",
    validation: (o) => allOrNone(o.url, o.apiKey, o.senderId)
  }),
  Config.map((o) => Option.all({ url: o.url, apiKey: o.apiKey, senderId: o.senderId }))
)
