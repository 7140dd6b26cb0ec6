export {
  BadRequest,
  conservation,
  ledger,
  type LedgerTotals,
  type Outcome
} from "./Bank.js"
export { sandboxApp, SandboxRoutes } from "./Http.js"
export { runSandboxMigrations, sandboxMigrations } from "./Migrations.js"
export { SandboxMigrationsLive, SandboxServer, sandboxServerLayer } from "./Server.js"
export {
  DEFAULT_NAME_ENQUIRY_SESSION_TTL_MS,
  DEFAULT_SLOW_TRANSFER_DELAY_MS,
  type DuplicateReferences,
  type SandboxOptions,
  SandboxSettings,
  sandboxSettingsLayer,
  type WebhookTarget
} from "./Settings.js"
export {
  BANKS,
  isValidNuban,
  nubanCheckDigit,
  SANDBOX_BANK,
  type SandboxBankEntry
} from "./TestData.js"
export * from "./Embedded.js"
