/**
 * The BankOne adapter of the CoreBanking port (and of TestFunding, against the sandbox):
 * docs/bankone.md. Parts, each with its own doc:
 * - `BankOneConfig.ts`: the BANKONE_* settings;
 * - `BankOneWire.ts`: paths, request and answer schemas;
 * - `BankOneMoney.ts`: kobo ↔ naira, exactly;
 * - `BankOneOutcomes.ts`: what an answer means (done, refused, unknown);
 * - `BankOneJournal.ts`: what was sent (status queries, liens, deposits' classification);
 * - `BankOneTransport.ts`, `BankOneRequests.ts`: the calls;
 * - `BankOneAccount.ts`, `BankOneOperations.ts`: the port's operations.
 */
import { Alerts, CoreBanking, Ids, TestFunding } from "@app/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { Context, Effect, Layer, Option, type Redacted } from "effect"
import type { Send } from "../Sender.js"
import type { BankOneSettings } from "./BankOneConfig.js"
import { type BankOneJournal, memoryJournal, sqlJournal } from "./BankOneJournal.js"
import { makeBankOneOperations } from "./BankOneOperations.js"
import { makeBankOneTransport } from "./BankOneTransport.js"

export interface BankOneAdapterOptions {
  readonly baseUrl: string
  readonly settings: BankOneSettings
  /** the bearer of the sandbox's test route (CORE_BANKING_TOKEN) */
  readonly testToken: Redacted.Redacted<string>
  readonly timeoutMs: number
  readonly journal: BankOneJournal
  /** raises a staff alert (none: logged only) */
  readonly alert?: ((input: { readonly dedupKey: string; readonly message: string }) => Effect.Effect<void>) | undefined
  readonly maxConcurrency?: number
  readonly maxAttempts?: number
  readonly retryBaseDelayMs?: number
  readonly wrapSend?: (send: Send) => Send
}

export const makeBankOneCoreBanking = (options: BankOneAdapterOptions) =>
  Effect.gen(function*() {
    const common = {
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs,
      ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
      ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
      ...(options.retryBaseDelayMs === undefined ? {} : { retryBaseDelayMs: options.retryBaseDelayMs }),
      ...(options.wrapSend === undefined ? {} : { wrapSend: options.wrapSend })
    }
    const run = yield* makeBankOneTransport({ ...common, bearer: options.settings.token })
    const runTest = yield* makeBankOneTransport({ ...common, bearer: options.testToken })
    return makeBankOneOperations({
      run,
      runTest,
      settings: options.settings,
      journal: options.journal,
      alert: options.alert ?? (() => Effect.void)
    })
  })

/**
 * The journal: in the service's database when there is one (always, in the runnables), else in
 * memory (unit tests); production refuses to run without the database (its records are what make a
 * status query possible after a restart).
 */
export const journalFromContext = (production: boolean): Effect.Effect<BankOneJournal> =>
  Effect.flatMap(Effect.serviceOption(SqlClient.SqlClient), (sql) =>
    Option.match(sql, {
      onSome: (client) => Effect.succeed(sqlJournal(client)),
      onNone: () =>
        production
          ? Effect.dieMessage("the BankOne adapter needs the service's database for its request journal")
          : Effect.succeed(memoryJournal())
    }))

/**
 * Staff alerts from the context the adapter is built in (the service's alert repository and ids),
 * as `provider_unreachable` (a warning: the bank answered something the service cannot use); none
 * without them (unit tests, benchmarks): the adapter's error log line stays.
 */
export const alertFromContext = Effect.map(
  Effect.all([Effect.serviceOption(Alerts.AlertRepo), Effect.serviceOption(Ids)]),
  ([repo, ids]) =>
    Option.isSome(repo) && Option.isSome(ids)
      ? (input: { readonly dedupKey: string; readonly message: string }) =>
        Alerts.raiseAlert({ kind: "provider_unreachable", ...input }).pipe(
          Effect.provideService(Alerts.AlertRepo, repo.value),
          Effect.provideService(Ids, ids.value),
          Effect.asVoid
        )
      : undefined
)

/** The adapter as a layer; its connections are closed with the layer. */
export const bankOneLayer = (
  options: Omit<BankOneAdapterOptions, "journal"> & { readonly production: boolean }
): Layer.Layer<CoreBanking | TestFunding> =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const journal = yield* journalFromContext(options.production)
      const alert = yield* alertFromContext
      const { coreBanking, testFunding } = yield* makeBankOneCoreBanking({ ...options, journal, alert })
      return Context.make(CoreBanking, coreBanking).pipe(Context.add(TestFunding, testFunding))
    })
  )
