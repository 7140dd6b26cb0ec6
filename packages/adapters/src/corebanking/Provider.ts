/**
 * Which core banking provider serves this process, chosen once at start-up (and in which protocol it
 * is spoken: CORE_BANKING_PROVIDER, `generic` or `bankone`; the embedded sandbox speaks the same one):
 * - CORE_BANKING_URL set: the HTTP adapter talks to that provider (a real one, or a sandbox started
 *   on its own with `npm run sandbox`);
 * - unset: an in-process provider (the runnables pass the sandbox bank, see `@app/runtime`) is
 *   started, and the same HTTP adapter talks to it, so the adapter is exercised exactly as in
 *   production.
 * Both come with the domain's caches (balance 5 s, bank list 24 h). The choice lives here, in the
 * adapters, and the in-process provider is a parameter, so production code never imports the test
 * bank: only the composition root (and tests) name it.
 */
import { Banking, TransferSaga } from "@app/domain"
import { Context, Effect, Layer, Option } from "effect"
import { AppConfig } from "../AppConfig.js"
import { bankOneLayer } from "./bankone/BankOneCoreBanking.js"
import * as HttpCoreBanking from "./HttpCoreBanking.js"

/** A provider running in this process when CORE_BANKING_URL is unset: where it listens. */
export class EmbeddedProvider extends Context.Tag("EmbeddedProvider")<EmbeddedProvider, { readonly baseUrl: string }>() {}

/** The adapter of CORE_BANKING_PROVIDER: this project's generic protocol, or BankOne's (docs/bankone.md). */
const adapterFor = (baseUrl: string) =>
  Effect.map(AppConfig, (config) =>
    config.coreBankingProvider === "bankone"
      ? bankOneLayer({
        baseUrl,
        settings: config.bankone,
        testToken: config.coreBankingToken,
        timeoutMs: config.coreBankingTimeoutMs,
        production: config.appEnv === "production"
      }).pipe(
        // BankOne's rule for a transfer still pending after 5 status queries: its support desk, not a reversal
        Layer.merge(Layer.succeed(TransferSaga.ExhaustedRequeries, { then: "escalate" }))
      )
      : HttpCoreBanking.layer({
        baseUrl,
        token: config.coreBankingToken,
        timeoutMs: config.coreBankingTimeoutMs
      }))

/** CoreBanking, TestFunding and the caches, from CORE_BANKING_URL or else from `embedded`. */
export const coreBankingLayer = <E, R>(embedded: Layer.Layer<EmbeddedProvider, E, R>) =>
  Layer.unwrapEffect(
    Effect.map(AppConfig, (config) =>
      Option.match(config.coreBankingUrl, {
        onSome: (url) => Layer.unwrapEffect(adapterFor(url)),
        onNone: () =>
          Layer.unwrapEffect(Effect.flatMap(EmbeddedProvider, (provider) => adapterFor(provider.baseUrl))).pipe(
            Layer.provide(embedded)
          )
      }))
  ).pipe((provider) => Banking.BankingCachesLive.pipe(Layer.provideMerge(provider)))
