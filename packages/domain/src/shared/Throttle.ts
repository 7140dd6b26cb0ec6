/**
 * Per-customer throttles of costly or guessable actions, counted durably (`AttemptLog`) so that
 * they hold across processes and restarts.
 *
 * A throttle admits at most `max` counted attempts of one kind by one subject (an account id) in
 * any window of `windowMs`. `reserveAttempt` counts the attempt BEFORE the action runs, atomically
 * per (subject, kind): a burst of concurrent requests cannot slip past the count, and an action in
 * flight already counts. When only failures should count (BVN verification), the use case
 * `release`s its attempt once it succeeded. Past the limit the action is refused with
 * `TooManyAttempts` (429, Retry-After: when the oldest counted attempt leaves the window).
 */
import { Context, Effect } from "effect"
import { Ids } from "./Ports.js"
import { now } from "./UseCase.js"
import { Failure } from "./Failure.js"

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

export type ReserveOutcome =
  | { readonly _tag: "Reserved" }
  /** `max` attempts are already counted; the oldest of them was made at `oldest` */
  | { readonly _tag: "Full"; readonly oldest: Date }

export class AttemptLog extends Context.Tag("domain/AttemptLog")<AttemptLog, {
  /**
   * Counts attempt `id` (at `at`) unless `max` attempts of this subject and kind are already counted
   * after `since`. Atomic per (subject, kind), across processes.
   */
  readonly reserve: (input: {
    readonly id: string
    readonly subject: string
    readonly kind: AttemptKind
    readonly at: Date
    readonly since: Date
    readonly max: number
  }) => Effect.Effect<ReserveOutcome>
  /** Uncounts an attempt (a success, where only failures count). */
  readonly release: (id: string) => Effect.Effect<void>
  /** Deletes attempts made before `before` (housekeeping); returns how many. */
  readonly purgeBefore: (before: Date) => Effect.Effect<number>
}>() {}

/** Too many attempts of `kind` in the window (429); retry after `retryAfterSeconds`. */
export class TooManyAttempts extends Failure("TooManyAttempts", {
  status: 429,
  code: "BVN_VERIFICATION_THROTTLED",
  meaning: "3 failed BVN verifications within 24 hours: refused until the oldest is 24 hours old (`error.retryAfterSeconds`, Retry-After)"
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

/** Counts one attempt of `kind` by `subject`, or fails with TooManyAttempts. Returns its id (for `release`). */
export const reserveAttempt = (subject: string, kind: AttemptKind) =>
  Effect.gen(function*() {
    const limit = (yield* ThrottlePolicy)[kind]
    const at = yield* now
    const id = yield* (yield* Ids).next
    const outcome = yield* (yield* AttemptLog).reserve({
      id,
      subject,
      kind,
      at,
      since: new Date(at.getTime() - limit.windowMs),
      max: limit.max
    })
    if (outcome._tag === "Full") {
      const retryAfterMs = outcome.oldest.getTime() + limit.windowMs - at.getTime()
      return yield* new TooManyAttempts({
        kind,
        max: limit.max,
        windowMs: limit.windowMs,
        retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000))
      })
    }
    return id
  })

/** Uncounts an attempt reserved by `reserveAttempt`. */
export const releaseAttempt = (id: string) => Effect.flatMap(AttemptLog, (log) => log.release(id))

/** The `purge-customer-attempts` job: attempts older than every window count for nothing. */
export const purgeExpiredAttempts = Effect.gen(function*() {
  const policy = yield* ThrottlePolicy
  const longest = Math.max(...Object.values(policy).map((l) => l.windowMs))
  const at = yield* now
  return { attempts: yield* (yield* AttemptLog).purgeBefore(new Date(at.getTime() - longest)) }
})
