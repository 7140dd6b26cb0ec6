/**
 * The sandbox bank in-process, configured from the service's own configuration: the embedded
 * provider of `coreBankingLayer` (adapters) when CORE_BANKING_URL is unset. It runs on a loopback
 * port. Its inbound-deposit notifications go to PORT on the loopback. The runnables build this layer
 * BEFORE their HTTP listener (a socket open before the routes exist leaves requests unanswered), so
 * only the test harness, whose server listens on port 0, has an HttpServer in context here: then
 * the webhook goes to that server's address.
 *
 * Its state is in memory, journaled in `$DATA_DIR/sandbox-bank.jsonl` (replayed at start, so a
 * restarted service finds its accounts and balances at the bank); with DATA_DIR empty, memory only.
 * One process at a time may hold that journal (a second one is refused at start-up): processes that
 * must share a bank point CORE_BANKING_URL at one sandbox (`npm run sandbox`).
 *
 * Earlier versions kept the embedded bank's state in the service's own database (tables
 * `sandbox_*`, history `sandbox_migrations`). That state is NOT imported, and those tables are left
 * alone (nothing reads or drops them): a database that has them keeps them, unused; the bank starts
 * empty in its journal.
 */
import { HttpServer } from "@effect/platform"
import type { ServeError } from "@effect/platform/HttpServerError"
import { AppConfig } from "@app/adapters"
import { EmbeddedProvider } from "@app/adapters/corebanking/Provider"
import { Effect, Layer, Option, Redacted } from "effect"
import * as path from "node:path"
import { JOURNAL_FILE, SandboxBank, sandboxBankLayer } from "./Bank.js"
import type { JournalError } from "./bank/Journal.js"
import { SandboxServer, sandboxServerLayer } from "./Server.js"

export const WEBHOOK_PATH = "/api/v1/webhooks/core-banking"

const sandboxFromConfig = Layer.unwrapEffect(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const server = yield* Effect.serviceOption(HttpServer.HttpServer)
    const apiPort = Option.match(server, {
      onNone: () => config.port,
      onSome: (s) => (s.address._tag === "TcpAddress" ? s.address.port : config.port)
    })
    return sandboxServerLayer({
      port: 0,
      token: Redacted.value(config.coreBankingToken),
      latencyMs: config.sandboxLatencyMs,
      slowTransferDelayMs: config.coreBankingTimeoutMs + 1_000,
      duplicateReferences: config.sandboxDuplicateReferences,
      nameEnquirySessionTtlMs: config.sandboxNipSessionTtlMs,
      // the embedded bank speaks the service's provider dialect (CORE_BANKING_PROVIDER / SANDBOX_DIALECT)
      dialect: config.coreBankingProvider,
      bankoneToken: Redacted.value(config.bankone.token),
      bankoneInstitutionCode: config.bankone.institutionCode,
      webhook: Option.some({
        url: `http://127.0.0.1:${apiPort}${WEBHOOK_PATH}`,
        header: config.webhookHeader,
        secret: Redacted.value(config.webhookSecret)
      })
    })
  })
)

/** The bank of the embedded sandbox: journaled in `$DATA_DIR/sandbox-bank.jsonl` (memory only when DATA_DIR is empty). */
export const SandboxBankFromConfig: Layer.Layer<SandboxBank, JournalError, AppConfig> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    sandboxBankLayer({
      journal: config.dataDir.trim() === "" ? undefined : path.join(config.dataDir, JOURNAL_FILE),
      durable: config.durableWrites
    }))
)

/**
 * The in-process sandbox over the `SandboxBank` in context, as the service's embedded provider:
 * tests give it a bank in memory that they can also inspect (`conservation`).
 */
export const EmbeddedSandboxOnBank: Layer.Layer<EmbeddedProvider, ServeError, AppConfig | SandboxBank> = Layer.effect(
  EmbeddedProvider,
  Effect.flatMap(SandboxServer, (sandbox) =>
    Effect.as(
      Effect.logInfo(`sandbox bank listening on ${sandbox.baseUrl} (POST /sandbox/deposits to fund an account)`),
      EmbeddedProvider.of({ baseUrl: sandbox.baseUrl })
    ))
).pipe(Layer.provide(sandboxFromConfig))

/** The in-process sandbox as the service's embedded provider, with its bank journaled under DATA_DIR. */
export const EmbeddedSandbox: Layer.Layer<EmbeddedProvider, ServeError | JournalError, AppConfig> = EmbeddedSandboxOnBank.pipe(
  Layer.provide(SandboxBankFromConfig)
)
