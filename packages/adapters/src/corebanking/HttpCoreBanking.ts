/**
 * The HTTP adapter of the CoreBanking port (and of TestFunding), speaking the wire protocol of
 * `Wire.ts` over undici.
 *
 * The adapter in five parts, each with its own doc:
 * - `Sender.ts`: one request and its answer over undici (base URL, bearer token, timeout);
 * - `Transport.ts`: the config, the semaphore, the retry policy, the runner of a call's attempts,
 *   its span and logs;
 * - `Attempt.ts`: one attempt, and the classification of its answer;
 * - `Mapping.ts`: the wire mapping (pre-send checks and request bodies, answers to the port's values);
 * - `Operations.ts`: one call definition per port operation (route, schemas, write, retried), with
 *   the table of routes and of what is retried and why.
 */
import { CoreBanking, TestFunding } from "@app/domain"
import { Context, Effect, Layer, type Scope } from "effect"
import { makeOperations } from "./Operations.js"
import { type CoreBankingHttpOptions, makeTransport } from "./Transport.js"

export { type CoreBankingHttpConfig, CoreBankingHttpDefaults, type CoreBankingHttpOptions } from "./Transport.js"

export interface HttpCoreBanking {
  readonly coreBanking: Context.Tag.Service<CoreBanking>
  readonly testFunding: Context.Tag.Service<TestFunding>
}

export const makeHttpCoreBanking = (
  config: CoreBankingHttpOptions
): Effect.Effect<HttpCoreBanking, never, Scope.Scope> =>
  Effect.gen(function*() {
    const run = yield* makeTransport(config)
    return makeOperations(run)
  })

/** The adapter as a layer; its connections are closed with the layer. */
export const layer = (config: CoreBankingHttpOptions): Layer.Layer<CoreBanking | TestFunding> =>
  Layer.scopedContext(
    Effect.map(makeHttpCoreBanking(config), ({ coreBanking, testFunding }) =>
      Context.make(CoreBanking, coreBanking).pipe(Context.add(TestFunding, testFunding)))
  )
