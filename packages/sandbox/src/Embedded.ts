/**
 * The sandbox bank in-process, configured from the service's own configuration: the embedded
 * provider of `coreBankingLayer` (adapters) when CORE_BANKING_URL is unset. It runs on a loopback
 * port over the service's own database. Its inbound-deposit notifications go to PORT on the
 * loopback. The runnables build this layer BEFORE their HTTP listener (a socket open before the
 * routes exist leaves requests unanswered), so only the test harness, whose server listens on port
 * 0, has an HttpServer in context here: then the webhook goes to that server's address.
 */
import { HttpServer } from "@effect/platform"
import { AppConfig } from "@app/adapters"
import { EmbeddedProvider } from "@app/adapters/corebanking/Provider"
import { Effect, Layer, Option, Redacted } from "effect"
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
      webhook: Option.some({
        url: `http://127.0.0.1:${apiPort}${WEBHOOK_PATH}`,
        header: config.webhookHeader,
        secret: Redacted.value(config.webhookSecret)
      })
    })
  })
)

/** The in-process sandbox as the service's embedded provider. */
export const EmbeddedSandbox = Layer.effect(
  EmbeddedProvider,
  Effect.flatMap(SandboxServer, (sandbox) =>
    Effect.as(
      Effect.logInfo(`sandbox bank listening on ${sandbox.baseUrl} (POST /sandbox/deposits to fund an account)`),
      EmbeddedProvider.of({ baseUrl: sandbox.baseUrl })
    ))
).pipe(Layer.provide(sandboxFromConfig))
