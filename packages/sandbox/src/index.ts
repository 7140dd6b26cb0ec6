export {
  ageSession,
  BadRequest,
  BankState,
  conservation,
  type ConservationCheck,
  JOURNAL_FILE,
  JournalError,
  ledger,
  type LedgerTotals,
  openBank,
  type Outcome,
  SandboxBank,
  SandboxBankInMemory,
  sandboxBankLayer,
  type SandboxBankOptions
} from "./Bank.js"
export { MAX_BODY_BYTES, type SandboxHandler, sandboxHandler } from "./Http.js"
export { sandboxLayer, SandboxServer, sandboxServerLayer } from "./Server.js"
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
