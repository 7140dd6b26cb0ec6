/**
 * The standalone sandbox's configuration (`npm run sandbox`: main.ts lists the variables) and the
 * options of its bank and server.
 */
import { DevelopmentSecrets, SandboxBankConfig } from "@app/adapters/AppConfig"
import { DEVELOPMENT_BANKONE_TOKEN } from "@app/adapters/corebanking/bankone/BankOneConfig"
import { Config, Option } from "effect"
import * as path from "node:path"
import { JOURNAL_FILE } from "./Bank.js"

export const SandboxConfig = Config.all({
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
  bankoneInstitutionCode: Config.option(Config.string("BANKONE_INSTITUTION_CODE")),
  // as the service reads it (AppConfig): the journal's lines fdatasync'ed unless false
  durable: Config.boolean("DURABLE_WRITES").pipe(Config.withDefault(true))
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

/** The bank's and server's options, from the configuration and the dialect asked for. */
export const standaloneOptions = (config: Config.Config.Success<typeof SandboxConfig>, dialect: "generic" | "bankone") => ({
  journal: Option.getOrUndefined(Option.map(config.dataDir, (dir) => path.join(dir, JOURNAL_FILE))),
  durable: config.durable,
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
})
