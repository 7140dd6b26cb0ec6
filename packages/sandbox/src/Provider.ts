/**
 * Which core banking provider serves this process, chosen once at start-up:
 * - CORE_BANKING_URL set: the HTTP adapter talks to that provider (a real one, or a sandbox started
 *   on its own with `npm run sandbox`);
 * - unset: the sandbox bank runs in-process on a loopback port, over the service's own database, and
 *   the same HTTP adapter talks to it, so the adapter is exercised exactly as in production. Its
 *   inbound-deposit notifications go to PORT on the loopback. The runnables build this layer BEFORE
 *   their HTTP listener (a socket open before the routes exist leaves requests unanswered), so only
 *   the test harness, whose server listens on port 0, has an HttpServer in context here: then the
 *   webhook goes to that server's address.
 * Both come with the domain's caches (balance 5 s, bank list 24 h).
 */
import { HttpServer } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { AppConfig } from "@app/adapters"
import * as HttpCoreBanking from "@app/adapters/corebanking/HttpCoreBanking"
import { Banking } from "@app/domain"
import { SandboxServer, sandboxServerLayer } from "./Server.js"
import { Effect, Layer, Option, Redacted } from "effect"

export const WEBHOOK_PATH = "/api/v1/webhooks/core-banking"

const embeddedSandbox = Layer.unwrapEffect(
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

const adapterFor = (baseUrl: string) =>
  Effect.map(AppConfig, (config) =>
    HttpCoreBanking.layer({
      baseUrl,
      token: config.coreBankingToken,
      timeoutMs: config.coreBankingTimeoutMs
    }).pipe(Layer.provide(NodeHttpClient.layerUndici)))

export const CoreBankingLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.coreBankingUrl, {
      onSome: (url) => Layer.unwrapEffect(adapterFor(url)),
      onNone: () =>
        Layer.unwrapEffect(Effect.flatMap(SandboxServer, (sandbox) =>
          Effect.logInfo(`sandbox bank listening on ${sandbox.baseUrl} (POST /sandbox/deposits to fund an account)`).pipe(
            Effect.zipRight(adapterFor(sandbox.baseUrl))
          ))).pipe(
          Layer.provide(embeddedSandbox)
        )
    }))
).pipe((provider) => Banking.BankingCachesLive.pipe(Layer.provideMerge(provider)))
