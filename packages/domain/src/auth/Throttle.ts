/**
 * Throttles of guessing (customer sign-in, one-time codes), durable and shared by every API process.
 *
 * A throttle key counts tries in a window that starts with its first try. Each try is claimed
 * BEFORE the secret is compared (a password hashed, a code checked), so parallel guesses can never
 * have more secrets compared than the limit: the claim that reaches the limit starts a block of one
 * window, and while blocked every claim is refused without any compare. A try that turns out right
 * is refunded (its count given back, and the block it started, if any, lifted). When a block ends
 * the count starts afresh.
 *
 * So at most `limit` wrong guesses are compared per key in any window, and the sustained rate is at
 * most `limit` per window. The price (OWASP's lockout trade-off): anyone who knows an account's
 * email or phone can keep its password sign-in blocked; the owner still has social sign-in and the
 * password reset by email, and staff see the trips (Throttle metric, staff alert per client).
 */
import { Clock, Context, Duration, Effect, Metric } from "effect"

export interface ThrottleKey {
  /** a digest or an id, never an email or phone in clear */
  readonly key: string
  /** tries counted in a window that start a block (the last one starts it) */
  readonly limit: number
  readonly window: Duration.Duration
}

/**
 * What a claim answers: for each key (in order) the tries now counted and the block this claim
 * started (null: none); or refused by the first blocked key (its index, and until when).
 */
export type ThrottleClaim =
  | { readonly _tag: "Claimed"; readonly tries: ReadonlyArray<number>; readonly started: ReadonlyArray<Date | null> }
  | { readonly _tag: "Blocked"; readonly index: number; readonly until: Date }

export class AuthThrottle extends Context.Tag("domain/AuthThrottle")<AuthThrottle, {
  /**
   * Claims one try on each key, in order, in ONE atomic statement: a key is claimed only when
   * every key before it was. A key is refused while `blocked_until > now`; otherwise its count
   * goes up by one (restarting at 1 when its window, begun at its first try, has passed or its
   * block has ended), and the claim that reaches `limit` sets `blocked_until = now + window`.
   * Keys claimed before a refused one stay counted. Concurrent claims of one key behave as if one
   * after another: 60 at once on a fresh key with limit 5 give exactly 5 Claimed.
   */
  readonly claim: (keys: ReadonlyArray<ThrottleKey>, now: Date) => Effect.Effect<ThrottleClaim>
  /**
   * The claimed try was right, in one statement: each key's count goes down by one, and the block
   * this claim started on a key (`started[i]`, from the claim) is lifted while it is still the one.
   */
  readonly refund: (keys: ReadonlyArray<string>, started: ReadonlyArray<Date | null>) => Effect.Effect<void>
  /** Forgets keys whose window started at or before `before` and that are not blocked after it; returns how many. */
  readonly purgeBefore: (before: Date) => Effect.Effect<number>
}>() {}

/**
 * How many throttles tripped (a claim started a block), by scope: `sign_in_account`,
 * `sign_in_client`, `otp_account`. Served on /metrics as `auth_throttle_trips_total`.
 */
export const throttleTrips = Metric.counter("auth_throttle_trips_total", {
  description: "Guessing throttles that started a block (customer sign-in per account or client address, one-time codes per account)",
  incremental: true
})

export const countTrip = (scope: "sign_in_account" | "sign_in_client" | "otp_account") =>
  Metric.increment(Metric.tagged(throttleTrips, "scope", scope))

/** Whole seconds until `until`, at least 1 (a Retry-After). */
export const secondsUntil = (until: Date, now: Date): number => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000))

/** Claims and runs `check` (true = the secret was right), refunding a right one. */
export const guarded = <E, R>(
  keys: ReadonlyArray<ThrottleKey>,
  now: Date,
  check: Effect.Effect<boolean, E, R>
) =>
  Effect.gen(function*() {
    const throttle = yield* AuthThrottle
    const claim = yield* throttle.claim(keys, now)
    if (claim._tag === "Blocked") return claim
    const right = yield* check
    if (right) yield* throttle.refund(keys.map((k) => k.key), claim.started)
    return { _tag: "Checked" as const, right, started: claim.started }
  })

/** Housekeeping: forgets throttle rows whose window began over 2 days ago (the longest window is 24 hours) and that are not blocked. */
export const purgeStaleThrottles = Effect.gen(function*() {
  const now = yield* Clock.currentTimeMillis
  return yield* (yield* AuthThrottle).purgeBefore(new Date(now - Duration.toMillis(Duration.days(2))))
})
