/**
 * The balance cache (5 s) and the bank list cache (24 h), and the bank list read through it.
 */
import { Cache, Clock, Context, Duration, Effect, Exit, Layer } from "effect"
import { type AccountSnapshot, type Bank, CoreBanking, type CoreBankingError } from "./CoreBanking.js"
import { withSpan } from "../shared/Spans.js"

export const BalanceCacheTtl = Duration.seconds(5)
export const BankListCacheTtl = Duration.hours(24)

/** Provider account snapshots by account number, kept `BalanceCacheTtl`. */
export class BalanceCache extends Context.Tag("domain/BalanceCache")<BalanceCache, {
  readonly get: (accountNumber: string) => Effect.Effect<AccountSnapshot, CoreBankingError>
  readonly invalidate: (accountNumber: string) => Effect.Effect<void>
}>() {}

/**
 * The last balance the provider told us for an account, kept on the customer for staff (the back
 * office sorts customers by it). Written on every provider read of an account (cache misses).
 */
export class BalanceMemo extends Context.Tag("domain/BalanceMemo")<BalanceMemo, {
  readonly remember: (accountNumber: string, ledgerBalanceKobo: bigint, at: Date) => Effect.Effect<void>
}>() {}

/** The provider's bank list, kept `BankListCacheTtl`. */
export class BankListCache extends Context.Tag("domain/BankListCache")<BankListCache, {
  readonly get: Effect.Effect<ReadonlyArray<Bank>, CoreBankingError>
  readonly invalidate: Effect.Effect<void>
}>() {}

/** A cache of successful lookups only: a failure reaches its callers and is forgotten at once. */
const successCache = <K, A, E>(ttl: Duration.Duration, capacity: number, lookup: (key: K) => Effect.Effect<A, E>) =>
  Effect.map(
    Cache.makeWith({ capacity, lookup, timeToLive: Exit.match({ onFailure: () => Duration.zero, onSuccess: () => ttl }) }),
    (cache) => ({
      get: (key: K) => Effect.tapError(cache.get(key), () => cache.invalidate(key)),
      invalidate: (key: K) => cache.invalidate(key)
    })
  )

export const BalanceCacheLive = Layer.effect(
  BalanceCache,
  Effect.gen(function*() {
    const core = yield* CoreBanking
    const memo = yield* BalanceMemo
    const cache = yield* successCache(BalanceCacheTtl, 100_000, (accountNumber: string) =>
      core.account(accountNumber).pipe(
        Effect.tap((snapshot) =>
          Effect.flatMap(Clock.currentTimeMillis, (ms) => memo.remember(accountNumber, snapshot.ledgerBalanceKobo, new Date(ms)))
        )
      ))
    return BalanceCache.of(cache)
  })
)

export const BankListCacheLive = Layer.effect(
  BankListCache,
  Effect.gen(function*() {
    const core = yield* CoreBanking
    const cache = yield* successCache(BankListCacheTtl, 1, (_: "banks") => core.banks)
    return BankListCache.of({ get: cache.get("banks"), invalidate: cache.invalidate("banks") })
  })
)

/** Both caches; needs CoreBanking and BalanceMemo. Provide once per process (each build starts empty). */
export const BankingCachesLive = Layer.mergeAll(BalanceCacheLive, BankListCacheLive)

/** The NIP bank list (cached 24 hours). */
export const banks = Effect.flatMap(BankListCache, (cache) => cache.get).pipe(withSpan("Banking.banks"))
