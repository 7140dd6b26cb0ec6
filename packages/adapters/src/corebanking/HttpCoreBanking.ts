/**
 * The HTTP adapter of the CoreBanking port (and of TestFunding), speaking the wire protocol of
 * `Wire.ts` over `@effect/platform`'s HttpClient.
 *
 * The adapter in four parts, each with its own doc:
 * - `Transport.ts`: the config, the provider's HttpClient (base URL, bearer token), the semaphore,
 *   the retry policy, the runner of a call's attempts, its span and logs;
 * - `Attempt.ts`: one attempt, and the classification of its answer;
 * - `Mapping.ts`: the wire mapping (pre-send checks and request bodies, answers to the port's values);
 * - `Operations.ts`: one call definition per port operation (route, schemas, write, retried), with
 *   the table of routes and of what is retried and why.
 */
import { CoreBanking, TestFunding } from "@app/domain"
import type { HttpClient } from "@effect/platform"
import { Context, Effect, Layer } from "effect"
import { makeOperations } from "./Operations.js"
import { type CoreBankingHttpOptions, makeTransport } from "./Transport.js"

export { type CoreBankingHttpConfig, CoreBankingHttpDefaults, type CoreBankingHttpOptions } from "./Transport.js"

export interface HttpCoreBanking {
  readonly coreBanking: Context.Tag.Service<CoreBanking>
  readonly testFunding: Context.Tag.Service<TestFunding>
}

export const makeHttpCoreBanking = (
  config: CoreBankingHttpOptions
): Effect.Effect<HttpCoreBanking, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const run = yield* makeTransport(config)
    return makeOperations(run)
  })

export const layer = (config: CoreBankingHttpOptions): Layer.Layer<CoreBanking | TestFunding, never, HttpClient.HttpClient> =>
  Layer.effectContext(
    Effect.map(makeHttpCoreBanking(config), ({ coreBanking, testFunding }) =>
      Context.make(CoreBanking, coreBanking).pipe(Context.add(TestFunding, testFunding)))
  )
