/**
 * Throttles, durable and shared by every API process: ONE store (`ThrottleStore`, table
 * `throttles`) for every budget: customer sign-in per account and per client address, wrong
 * one-time codes per account (auth/Throttle.ts, Sessions.ts, Otp.ts), failed BVN verifications and
 * name enquiries per customer (`reserveAttempt` below).
 *
 * A throttle key counts tries in a window that starts with its first try. Each try is claimed
 * BEFORE the guarded action runs (a password hashed, a code checked, the registry or the provider
 * asked), so parallel tries can never run more actions than the limit: the claim that reaches the
 * limit starts a block of one window, and while blocked every claim is refused without running
 * anything. A try that must not count (a right password or code, a BVN verification that was no
 * wrong guess) is refunded (its count given back, and the block it started, if any, lifted). When
 * a block ends the count starts afresh.
 *
 * So at most `limit` tries run per key in any window, and the sustained rate is at most `limit`
 * per window. The price (OWASP's lockout trade-off): anyone who knows an account's email or phone
 * can keep its password sign-in blocked; the owner still has social sign-in and the password reset
 * by email, and staff see the trips (Throttle metric, staff alert per client).
 */
import { Clock, Context, Duration, Effect } from "effect"
import { now } from "./UseCase.js"
import { Failure } from "./Failure.js"

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

export class ThrottleStore extends Context.Tag("domain/ThrottleStore")<ThrottleStore, {
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
   * The claimed try must not count, in one statement: each key's count goes down by one, and the
   * block this claim started on a key (`started[i]`, from the claim) is lifted while it is still the one.
   */
  readonly refund: (keys: ReadonlyArray<string>, started: ReadonlyArray<Date | null>) => Effect.Effect<void>
  /** Forgets keys whose window started at or before `before` and that are not blocked after it; returns how many. */
  readonly purgeBefore: (before: Date) => Effect.Effect<number>
}>() {}

/**
 * Whole seconds from now until `until`, at least 1: a refusal's Retry-After, counted when the answer
 * is made. A concurrent request may block the key after this one read the clock, for a window from
 * then; counted from the earlier reading, the wait would come out longer than the window.
 */
export const secondsUntil = (until: Date): Effect.Effect<number> =>
  Effect.map(Clock.currentTimeMillis, (now) => Math.max(1, Math.ceil((until.getTime() - now) / 1000)))

/** The `purge-throttles` job: forgets rows whose window began over 2 days ago (the longest window is 24 hours) and that are not blocked. */
export const purgeStaleThrottles = Effect.gen(function*() {
  const at = yield* Clock.currentTimeMillis
  return yield* (yield* ThrottleStore).purgeBefore(new Date(at - Duration.toMillis(Duration.days(2))))
})

// ---- per-customer budgets of costly or guessable actions ----

export type AttemptKind = "bvn_verification_failure" | "name_enquiry"

export interface ThrottleLimit {
  /** attempts admitted per window */
  readonly max: number
  readonly windowMs: number
}

/** The limits (the composition root sets them from the configuration). */
export class ThrottlePolicy extends Context.Reference<ThrottlePolicy>()("domain/ThrottlePolicy", {
  defaultValue: (): { readonly [K in AttemptKind]: ThrottleLimit } => ({
    bvn_verification_failure: { max: 3, windowMs: 24 * 60 * 60 * 1000 },
    name_enquiry: { max: 30, windowMs: 60 * 60 * 1000 }
  })
}) {}

/** The throttle key of a customer's budget of `kind` (their account id: no personal data). */
const KEY_PREFIX: { readonly [K in AttemptKind]: string } = { bvn_verification_failure: "bvn", name_enquiry: "ne" }

/** Too many attempts of `kind` in the window (429); retry after `retryAfterSeconds`. */
export class TooManyAttempts extends Failure("TooManyAttempts", {
  status: 429,
  code: "BVN_VERIFICATION_THROTTLED",
  meaning: "3 failed BVN verifications within 24 hours: refused until 24 hours after the third (`error.retryAfterSeconds`, Retry-After)"
}, {
  status: 429,
  code: "LOOKUP_THROTTLED",
  meaning: "Too many account name look-ups in the window: retry after `error.retryAfterSeconds` (also Retry-After)"
})<{
  readonly kind: AttemptKind
  readonly max: number
  readonly windowMs: number
  readonly retryAfterSeconds: number
}> {
  override answer() {
    const [bvn, lookup] = TooManyAttempts.kinds
    const detail = { retryAfterSeconds: this.retryAfterSeconds }
    return this.kind === "bvn_verification_failure"
      ? {
        code: bvn.code,
        message: `Too many failed BVN verifications. Please try again in ${this.retryAfterSeconds} seconds or contact support`,
        detail
      }
      : { code: lookup.code, message: `Too many account look-ups. Please try again in ${this.retryAfterSeconds} seconds`, detail }
  }
}

/** A counted attempt, for `releaseAttempt`. */
export interface Attempt {
  readonly key: string
  /** the block this attempt started (it was the one that reached the limit), or null */
  readonly started: Date | null
}

/**
 * Counts one attempt of `kind` by `subject` (an account id) BEFORE the action runs, or fails with
 * TooManyAttempts while the budget is blocked (Retry-After: the block's end, one window after the
 * attempt that reached the limit). At most `max` attempts run per window, bursts included.
 */
export const reserveAttempt = (subject: string, kind: AttemptKind) =>
  Effect.gen(function*() {
    const limit = (yield* ThrottlePolicy)[kind]
    const at = yield* now
    const key = `${KEY_PREFIX[kind]}:${subject}`
    const claim = yield* (yield* ThrottleStore).claim([{ key, limit: limit.max, window: Duration.millis(limit.windowMs) }], at)
    if (claim._tag === "Blocked") {
      return yield* new TooManyAttempts({
        kind,
        max: limit.max,
        windowMs: limit.windowMs,
        retryAfterSeconds: yield* secondsUntil(claim.until)
      })
    }
    return { key, started: claim.started[0] ?? null } satisfies Attempt
  })

/** Uncounts an attempt that must not count (where only failures do: BVN verification). */
export const releaseAttempt = (attempt: Attempt) => Effect.flatMap(ThrottleStore, (store) => store.refund([attempt.key], [attempt.started]))
