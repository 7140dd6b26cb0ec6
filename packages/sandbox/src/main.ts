/**
 * `npm run sandbox`: the sandbox bank on its own, for a service started with
 * CORE_BANKING_URL=http://127.0.0.1:8090 (same CORE_BANKING_TOKEN on both sides).
 *
 * | Variable | Meaning | Default |
 * |---|---|---|
 * | SANDBOX_PORT | listening port (127.0.0.1) | 8090 |
 * | SANDBOX_DATA_DIR | the bank's journal (`sandbox-bank.jsonl`) lives here, kept across restarts; `none` = memory only | ./.data/sandbox |
 * | SANDBOX_LATENCY_MS | added to every call | 0 |
 * | SANDBOX_DUPLICATE_REFERENCES | a repeated reference answers its `first-outcome`, or `reject` ("94") | first-outcome |
 * | SANDBOX_NIP_SESSION_TTL_MS | how long a name enquiry's session id may be quoted by a transfer | 1800000 (30 min) |
 * | CORE_BANKING_TOKEN | the bearer token callers must send | the service's development token |
 * | SANDBOX_WEBHOOK_URL | where inbound deposits are announced; `none` = not announced | http://127.0.0.1:$PORT/api/v1/webhooks/core-banking (PORT 8080) |
 * | WEBHOOK_HEADER, WEBHOOK_SECRET | the webhook's shared header and secret | as the service |
 * | CORE_BANKING_TIMEOUT_MS | a 0004 transfer answers after this + 1 s | 10000 |
 * | SANDBOX_DIALECT (or `--dialect`) | `generic`, or `bankone`: BankOne's third-party API over the same bank (docs/bankone.md) | generic |
 * | BANKONE_TOKEN | the token the `bankone` dialect accepts | the development BankOne token |
 * | BANKONE_INSTITUTION_CODE | when set, postings must quote it as NibssCode | unset |
 *
 * `npm run sandbox -- --dialect bankone` serves BankOne's dialect; the `/sandbox/*` test routes and
 * the start-up line are the same in both.
 */
import { DevelopmentSecrets, SandboxBankConfig } from "@app/adapters/AppConfig"
import { DEVELOPMENT_BANKONE_TOKEN } from "@app/adapters/corebanking/bankone/BankOneConfig"
import { runService } from "@app/adapters/Runner"
import { Config, Effect, Layer, Option } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { JOURNAL_FILE } from "./Bank.js"
import { sandboxLayer, SandboxServer } from "./Server.js"

const SandboxConfig = Config.all({
  port: Config.port("SANDBOX_PORT").pipe(Config.withDefault(8090)),
  // "none" (or empty) = memory only
  dataDir: Config.string("SANDBOX_DATA_DIR").pipe(
    Config.withDefault("./.data/sandbox"),
    Config.map((dir) => (dir.trim() === "" || dir.trim().toLowerCase() === "none" ? Option.none() : Option.some(path.resolve(dir.trim()))))
  ),
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
  timeoutMs: Config.integer("CORE_BANKING_TIMEOUT_MS").pipe(Config.withDefault(10_000)),
  dialect: Config.literal("generic", "bankone")("SANDBOX_DIALECT").pipe(Config.withDefault("generic" as const)),
  bankoneToken: Config.string("BANKONE_TOKEN").pipe(Config.withDefault(DEVELOPMENT_BANKONE_TOKEN)),
  bankoneInstitutionCode: Config.option(Config.string("BANKONE_INSTITUTION_CODE"))
})

/** `--dialect bankone` (or `--dialect=bankone`) on the command line; it wins over SANDBOX_DIALECT. */
export const dialectArgument = (argv: ReadonlyArray<string>): "generic" | "bankone" | undefined => {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const value = arg === "--dialect" ? argv[i + 1] : arg.startsWith("--dialect=") ? arg.slice("--dialect=".length) : undefined
    if (value === undefined) continue
    if (value === "generic" || value === "bankone") return value
    throw new Error(`--dialect: must be generic or bankone (got ${value})`)
  }
  return undefined
}

/**
 * Before the journal, the sandbox kept its state in a PGlite database in this directory: that state
 * is not imported (the bank starts empty beside it); it says so when it starts.
 */
const holdsOldDatabase = (dataDir: Option.Option<string>) =>
  Option.match(dataDir, {
    onNone: () => false,
    onSome: (dir) => fs.existsSync(path.join(dir, "PG_VERSION")) && !fs.existsSync(path.join(dir, JOURNAL_FILE))
  })

const SandboxMain = Layer.unwrapEffect(
  Effect.map(SandboxConfig, (config) => {
    const oldDatabase = holdsOldDatabase(config.dataDir)
    const dialect = dialectArgument(process.argv.slice(2)) ?? config.dialect
    return Layer.effectDiscard(
      Effect.flatMap(SandboxServer, ({ baseUrl }) =>
        Effect.logInfo(`sandbox bank listening on ${baseUrl}`).pipe(
          Effect.annotateLogs({
            journal: Option.match(config.dataDir, { onNone: () => "none (memory only)", onSome: (dir) => path.join(dir, JOURNAL_FILE) }),
            webhook: Option.getOrElse(config.webhookUrl, () => "none"),
            dialect
          }),
          Effect.zipLeft(Effect.when(
            Effect.logWarning(
              "sandbox bank: this data directory holds a PGlite database from an older sandbox; its state was not " +
                `imported (the bank now keeps its state in ${JOURNAL_FILE}); delete the old files when you no longer need them`
            ),
            () => oldDatabase
          ))
        ))
    ).pipe(
      Layer.provide(sandboxLayer({
        journal: Option.getOrUndefined(Option.map(config.dataDir, (dir) => path.join(dir, JOURNAL_FILE))),
        port: config.port,
        token: config.token,
        latencyMs: config.latencyMs,
        slowTransferDelayMs: config.timeoutMs + 1000,
        duplicateReferences: config.duplicateReferences,
        nameEnquirySessionTtlMs: config.nipSessionTtlMs,
        dialect,
        bankoneToken: config.bankoneToken,
        bankoneInstitutionCode: Option.getOrUndefined(config.bankoneInstitutionCode),
        webhook: Option.map(config.webhookUrl, (url) => ({
          url,
          header: config.webhookHeader.toLowerCase(),
          secret: config.webhookSecret
        }))
      }))
    )
  })
)

runService(SandboxMain)
