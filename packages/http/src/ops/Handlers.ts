/**
 * GET /health and GET /ready. Readiness runs its checks in parallel, each under a time limit, so a
 * hung database or provider makes /ready answer 503 in about 3 s instead of hanging the probe. The
 * provider check (a bank list call, uncached) is reused for 5 seconds: an unauthenticated endpoint
 * must not let anyone turn probes into a stream of calls to the bank.
 */
import { HttpApiBuilder } from "@effect/platform"
import * as Readiness from "@app/adapters/ops/Readiness"
import { CoreBanking } from "@app/domain"
import { Duration, Effect } from "effect"
import { Api } from "../Api.js"
import { toHttpFailure } from "../shared/Envelope.js"
import { ServiceNotReady } from "./Errors.js"

export const DATABASE_CHECK_TIMEOUT = Duration.seconds(2)
export const PROVIDER_CHECK_TIMEOUT = Duration.seconds(3)
export const PROVIDER_CHECK_TTL = Duration.seconds(5)

const checkProvider = Effect.flatMap(CoreBanking, (bank) => bank.banks).pipe(
  Effect.as("ok"),
  Effect.timeoutFail({ duration: PROVIDER_CHECK_TIMEOUT, onTimeout: () => "timeout" as const }),
  Effect.catchAll((e) =>
    Effect.succeed(
      e === "timeout"
        ? `unreachable (no answer within ${Duration.toMillis(PROVIDER_CHECK_TIMEOUT)} ms)`
        : e._tag === "ProviderRefused"
        ? `refused (code ${e.code})`
        : e._tag === "ProviderMisconfigured"
        ? "misconfigured"
        : "unreachable (no answer)"
    )
  )
)

export const OpsHandlers = HttpApiBuilder.group(Api, "ops", (handlers) =>
  Effect.gen(function*() {
    const provider = yield* Effect.cachedWithTTL(checkProvider, PROVIDER_CHECK_TTL)
    return handlers
      .handle("health", () => Effect.succeed({ status: "up" as const }))
      .handle("ready", () =>
        Effect.gen(function*() {
          const checks = yield* Effect.all({
            database: Readiness.checkDatabase(DATABASE_CHECK_TIMEOUT),
            migrations: Readiness.checkMigrations(DATABASE_CHECK_TIMEOUT),
            provider
          }, { concurrency: "unbounded" })
          const failed = Object.entries(checks).filter(([, state]) => state !== "ok").map(([name]) => name)
          if (failed.length === 0) return { ready: true as const, checks }
          yield* Effect.logWarning("not ready").pipe(Effect.annotateLogs({ ...checks }))
          return yield* toHttpFailure("Health")(new ServiceNotReady({ checks, failed }))
        }))
  }))
