/**
 * The transaction PIN's rules, as pure functions (no effects, no clock: `now` is an argument), so
 * they can be property-tested and every PinRepo adapter can be written and checked against them.
 *
 * - A PIN is exactly 4 ASCII digits.
 * - Every try is counted BEFORE its PIN is compared (`claimTry`), as a wrong try, and refunded when
 *   the PIN turns out right (`settleCorrect`). So parallel tries can never have more than 5 PINs
 *   compared: a try that finds 5 counted tries finds the PIN locked.
 * - The 5th counted try starts a lock of 15 minutes at once (and records a lockout). If that 5th
 *   PIN was right after all, `settleCorrect` undoes that lock and its lockout.
 * - While locked, every try (even the right PIN) is refused without a compare; the lock ends by
 *   itself, and the next try after its end starts a fresh count of 5.
 * - The counter is also cleared by a right PIN and by an OTP-gated reset (`clearTries`, which lifts
 *   a running lock too); lockouts are never cleared by either.
 * - When a lockout makes 3 lockouts whose start lies within the last 24 hours (rolling: a lockout
 *   started exactly 24 hours ago no longer counts) and its try was wrong, the account is frozen.
 */
import { Duration } from "effect"

export interface PinPolicy {
  /** digits in a PIN */
  readonly length: number
  /** counted tries that start a lock (the last one starts it) */
  readonly maxWrongTries: number
  /** how long a lock lasts */
  readonly lockFor: Duration.Duration
  /** lockouts within `lockoutWindow` that freeze the account */
  readonly freezeAfterLockouts: number
  /** the rolling window in which lockouts are counted */
  readonly lockoutWindow: Duration.Duration
}

export const PinPolicy: PinPolicy = {
  length: 4,
  maxWrongTries: 5,
  lockFor: Duration.minutes(15),
  freezeAfterLockouts: 3,
  lockoutWindow: Duration.hours(24)
}

/** Exactly `policy.length` ASCII digits (no other Unicode digits, no spaces). */
export const isPinFormat = (pin: string, policy: PinPolicy = PinPolicy): boolean =>
  pin.length === policy.length && /^[0-9]+$/.test(pin)

/** The PIN guard of one customer, as a PinRepo stores it. */
export interface PinGuard {
  /** tries counted since the counter was last cleared (a right PIN, a reset, a lock that ended); 0..maxWrongTries */
  readonly wrongTries: number
  /** the end of the current or last lock; null when none since the counter was last cleared */
  readonly lockedUntil: Date | null
  /** start times of lockouts, oldest first; only those within `lockoutWindow` matter (older ones are dropped when a lockout is added) */
  readonly lockouts: ReadonlyArray<Date>
}

/** A customer who never got a PIN wrong. */
export const noGuard: PinGuard = { wrongTries: 0, lockedUntil: null, lockouts: [] }

/** A lock started by a claimed try. */
export interface PinLock {
  readonly startedAt: Date
  readonly until: Date
  /** lockouts started within the window before `startedAt`, this one included */
  readonly lockoutsInWindow: number
}

/**
 * What claiming a try answers. `Locked`: refused, compare nothing. `Claimed`: the try is counted
 * (it is try number `tryNumber` since the counter was cleared); compare the PIN, then settle. `lock`
 * is the lock this very try started (the last allowed try), else null.
 */
export type PinClaim =
  | { readonly _tag: "Locked"; readonly lockedUntil: Date }
  | { readonly _tag: "Claimed"; readonly tryNumber: number; readonly lock: PinLock | null }

const ms = (d: Duration.Duration) => Duration.toMillis(d)

/** A lock is on while `now` is before its end. */
export const isLocked = (guard: PinGuard, now: Date): boolean =>
  guard.lockedUntil !== null && now.getTime() < guard.lockedUntil.getTime()

/** The lockouts that still count at `now`: started less than `lockoutWindow` ago (or later than now). */
export const lockoutsWithin = (lockouts: ReadonlyArray<Date>, now: Date, policy: PinPolicy = PinPolicy): ReadonlyArray<Date> =>
  lockouts.filter((t) => now.getTime() - t.getTime() < ms(policy.lockoutWindow))

/**
 * Claims one try at `now`, atomically with respect to every other claim and settlement of the same
 * customer. Returns the answer and the new guard (unchanged when `Locked`).
 */
export const claimTry = (guard: PinGuard, now: Date, policy: PinPolicy = PinPolicy): readonly [PinClaim, PinGuard] => {
  if (isLocked(guard, now)) return [{ _tag: "Locked", lockedUntil: guard.lockedUntil! }, guard]
  // A lock that has ended leaves a fresh count.
  const tryNumber = (guard.lockedUntil === null ? guard.wrongTries : 0) + 1
  if (tryNumber < policy.maxWrongTries) {
    return [{ _tag: "Claimed", tryNumber, lock: null }, { wrongTries: tryNumber, lockedUntil: null, lockouts: guard.lockouts }]
  }
  const lockouts = [...lockoutsWithin(guard.lockouts, now, policy), now]
  const lock: PinLock = { startedAt: now, until: new Date(now.getTime() + ms(policy.lockFor)), lockoutsInWindow: lockouts.length }
  return [{ _tag: "Claimed", tryNumber, lock }, { wrongTries: tryNumber, lockedUntil: lock.until, lockouts }]
}

/**
 * A claimed try whose PIN was right: the counter goes back to 0, and when the try had started a
 * lock (`lock` from its claim) that lock and its lockout are undone; any other lock stays.
 */
export const settleCorrect = (guard: PinGuard, lock: Pick<PinLock, "startedAt" | "until"> | null): PinGuard => {
  if (lock === null) return { ...guard, wrongTries: 0 }
  const i = guard.lockouts.findIndex((t) => t.getTime() === lock.startedAt.getTime())
  return {
    wrongTries: 0,
    lockedUntil: guard.lockedUntil !== null && guard.lockedUntil.getTime() === lock.until.getTime() ? null : guard.lockedUntil,
    lockouts: i < 0 ? guard.lockouts : [...guard.lockouts.slice(0, i), ...guard.lockouts.slice(i + 1)]
  }
}

/** An OTP-gated reset: the counter goes back to 0 and a running lock ends; lockouts are kept. */
export const clearTries = (guard: PinGuard): PinGuard => ({ wrongTries: 0, lockedUntil: null, lockouts: guard.lockouts })

/** A wrong PIN that started a lock freezes the account when it makes enough lockouts in the window. */
export const shouldFreeze = (lock: PinLock, policy: PinPolicy = PinPolicy): boolean =>
  lock.lockoutsInWindow >= policy.freezeAfterLockouts

/** Whole seconds until `lockedUntil`, at least 1 (for a Retry-After while locked). */
export const retryAfterSeconds = (lockedUntil: Date, now: Date): number =>
  Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000))
