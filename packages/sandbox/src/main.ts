/**
 * `npm run sandbox`: the sandbox bank on its own, for a service started with
 * CORE_BANKING_URL=http://127.0.0.1:8090 (same CORE_BANKING_TOKEN on both sides).
 *
 * | Variable | Meaning | Default |
 * |---|---|---|
 * | SANDBOX_PORT | listening port (127.0.0.1) | 8090 |
 * | SANDBOX_DATA_DIR | PGlite data directory, kept across restarts | ./.data/sandbox |
 * | SANDBOX_LATENCY_MS | added to every call | 0 |
 * | SANDBOX_DUPLICATE_REFERENCES | a repeated reference answers its `first-outcome`, or `reject` ("94") | first-outcome |
 * | SANDBOX_NIP_SESSION_TTL_MS | how long a name enquiry's session id may be quoted by a transfer | 1800000 (30 min) |
 * | CORE_BANKING_TOKEN | the bearer token callers must send | the service's development token |
 * | SANDBOX_WEBHOOK_URL | where inbound deposits are announced; `none` = not announced | http://127.0.0.1:$PORT/api/v1/webhooks/core-banking (PORT 8080) |
 * | WEBHOOK_HEADER, WEBHOOK_SECRET | the webhook's shared header and secret | as the service |
 * | CORE_BANKING_TIMEOUT_MS | a 0004 transfer answers after this + 1 s | 10000 |
 */
import { DevelopmentSecrets, SandboxBankConfig } from "@app/adapters/AppConfig"
import { runService } from "@app/adapters/Runner"
import { pgliteLayer } from "@app/adapters/sql/Database"
import { Config, Effect, Layer, Option } from "effect"
import * as path from "node:path"
import { SandboxServer, sandboxServerLayer } from "./Server.js"

const SandboxConfig = Config.all({
  port: Config.port("SANDBOX_PORT").pipe(Config.withDefault(8090)),
  dataDir: Config.string("SANDBOX_DATA_DIR").pipe(Config.withDefault("./.data/sandbox")),
  ...SandboxBankConfig,
  token: Config.string("CORE_BANKING_TOKEN").pipe(Config.withDefault(DevelopmentSecrets.CORE_BANKING_TOKEN)),
  // the service's webhook as `npm start` serves it; "none" = deposits are not announced
  webhookUrl: Config.string("SANDBOX_WEBHOOK_URL").pipe(
    Config.orElse(() =>
      Config.map(Config.port("PORT").pipe(Config.withDefault(8080)), (port) => `http://127.0.0.1:${port}/api/v1/webhooks/core-banking`)
    ),
    Config.map((url) => (url.trim() === "" || url.trim().toLowerCase() === "none" ? Option.none() : Option.some(url.trim()))),
    Config.validate({
      message: "SANDBOX_WEBHOOK_URL: must be an http(s) URL or none",
      validation: Option.match({ onNone: () => true, onSome: (url) => URL.canParse(url) && /^https?:/.test(url) })
    })
  ),
  webhookHeader: Config.string("WEBHOOK_HEADER").pipe(Config.withDefault("x-webhook-secret")),
  webhookSecret: Config.string("WEBHOOK_SECRET").pipe(Config.withDefault(DevelopmentSecrets.WEBHOOK_SECRET)),
  timeoutMs: Config.integer("CORE_BANKING_TIMEOUT_MS").pipe(Config.withDefault(10_000))
})

const SandboxMain = Layer.unwrapEffect(
  Effect.map(SandboxConfig, (config) =>
    Layer.effectDiscard(
      Effect.flatMap(SandboxServer, ({ baseUrl }) =>
        Effect.logInfo(`sandbox bank listening on ${baseUrl}`).pipe(
          Effect.annotateLogs({
            dataDir: path.resolve(config.dataDir),
            webhook: Option.getOrElse(config.webhookUrl, () => "none")
          })
        ))
    ).pipe(
      Layer.provide(sandboxServerLayer({
        port: config.port,
        token: config.token,
        latencyMs: config.latencyMs,
        slowTransferDelayMs: config.timeoutMs + 1000,
        duplicateReferences: config.duplicateReferences,
        nameEnquirySessionTtlMs: config.nipSessionTtlMs,
        webhook: Option.map(config.webhookUrl, (url) => ({
          url,
          header: config.webhookHeader.toLowerCase(),
          secret: config.webhookSecret
        }))
      })),
      Layer.provide(pgliteLayer(path.resolve(config.dataDir)))
    ))
)

runService(SandboxMain)
