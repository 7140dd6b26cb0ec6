/**
 * Property tests of the pure PIN rules (PinLockout.ts), against a plain reference written from the
 * spec: 5 wrong tries lock for 15 minutes; 3 lockouts within a rolling 24 hours freeze.
 */
import {describe, expect, it} from "@effect/vitest"
import {FastCheck as fc} from "effect"
import {
  claimTry,
  clearTries,
  isLocked,
  isPinFormat,
  noGuard,
  type PinClaim,
  type PinGuard,
  PinPolicy,
  retryAfterSeconds,
  settleCorrect,
  shouldFreeze
} from "../src/auth/PinLockout.js"

const MIN = 60_000
const HOUR = 60 * MIN
const LOCK = 15 * MIN
const WINDOW = 24 * HOUR

type Step =
  | { readonly kind: "wait"; readonly ms: number }
  | { readonly kind: "try"; readonly right: boolean }
  | { readonly kind: "reset" }

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("wait" as const), ms: fc.oneof(fc.integer({ min: 0, max: 20 * MIN }), fc.integer({ min: 0, max: 26 * HOUR })) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("try" as const), right: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "reset" as const }) }
)

/** One try, claimed and settled at once, as the use cases do. */
const tryOnce = (guard: PinGuard, now: Date, right: boolean): readonly [PinClaim, PinGuard] => {
  const [claim, claimed] = claimTry(guard, now, PinPolicy)
  if (claim._tag === "Claimed" && right) return [claim, settleCorrect(claimed, claim.lock)]
  return [claim, claimed]
}

describe("PinLockout rules", () => {
  it("the policy is the spec's", () => {
    expect(PinPolicy.length).toBe(4)
    expect(PinPolicy.maxWrongTries).toBe(5)
    expect(PinPolicy.freezeAfterLockouts).toBe(3)
    expect(claimTry(noGuard, new Date(0))[0]).toEqual({ _tag: "Claimed", tryNumber: 1, lock: null })
  })

  it.prop("a PIN is exactly 4 ASCII digits", [fc.oneof(fc.stringMatching(/^[0-9]{4}$/), fc.string({ maxLength: 6 }), fc.string({ unit: "grapheme", maxLength: 5 }))], ([s]) => {
    expect(isPinFormat(s)).toBe(/^[0-9]{4}$/.test(s))
  })

  it.prop(
    "any sequence of tries, waits and resets behaves as the spec's reference",
    [fc.array(step, { maxLength: 150 })],
    ([steps]) => {
      let guard = noGuard
      let now = 0
      // the reference
      let count = 0
      let lockUntil: number | null = null
      const lockouts: Array<number> = []
      for (const s of steps) {
        if (s.kind === "wait") now += s.ms
        else if (s.kind === "reset") {
          guard = clearTries(guard)
          count = 0
          lockUntil = null
        } else {
          const [claim, next] = tryOnce(guard, new Date(now), s.right)
          guard = next
          if (lockUntil !== null && now < lockUntil) {
            // locked: refused without a compare, Retry-After within the lock
            expect(claim).toEqual({ _tag: "Locked", lockedUntil: new Date(lockUntil) })
            const retry = retryAfterSeconds(new Date(lockUntil), new Date(now))
            expect(retry).toBeGreaterThanOrEqual(1)
            expect(retry).toBeLessThanOrEqual(LOCK / 1000)
            continue
          }
          if (lockUntil !== null) (count = 0), (lockUntil = null)
          count += 1
          expect(claim._tag).toBe("Claimed")
          if (claim._tag !== "Claimed") continue
          expect(claim.tryNumber).toBe(count)
          expect(claim.lock !== null).toBe(count === 5)
          if (s.right) count = 0
          else if (count === 5) {
            lockUntil = now + LOCK
            lockouts.push(now)
            const inWindow = lockouts.filter((t) => now - t < WINDOW).length
            expect(claim.lock!.lockoutsInWindow).toBe(inWindow)
            expect(claim.lock!.until).toEqual(new Date(lockUntil))
            expect(shouldFreeze(claim.lock!)).toBe(inWindow >= 3)
          }
        }
        expect(guard.wrongTries).toBeGreaterThanOrEqual(0)
        expect(guard.wrongTries).toBeLessThanOrEqual(5)
        expect(isLocked(guard, new Date(now))).toBe(lockUntil !== null && now < lockUntil)
      }
    },
    { fastCheck: { numRuns: 300 } }
  )

  it.prop(
    "a burst of simultaneous claims never counts more than the tries left (5 after a clear)",
    [fc.array(step, { maxLength: 60 }), fc.integer({ min: 1, max: 40 })],
    ([prefix, n]) => {
      let guard = noGuard
      let now = 0
      for (const s of prefix) {
        if (s.kind === "wait") now += s.ms
        else if (s.kind === "reset") guard = clearTries(guard)
        else guard = tryOnce(guard, new Date(now), s.right)[1]
      }
      const at = new Date(now)
      const left = isLocked(guard, at) ? 0 : 5 - (guard.lockedUntil === null ? guard.wrongTries : 0)
      let claimed = 0
      for (let i = 0; i < n; i++) {
        const [claim, next] = claimTry(guard, at, PinPolicy)
        guard = next
        if (claim._tag === "Claimed") claimed += 1
      }
      expect(claimed).toBe(Math.min(n, left))
      expect(claimed).toBeLessThanOrEqual(5)
    }
  )

  it.prop(
    "three lockouts freeze exactly when the first and third start less than 24 hours apart",
    // 12 h + 12 h puts the third lockout exactly 24 hours after the first: no longer within the window
    [fc.oneof(fc.integer({ min: LOCK, max: 30 * HOUR }), fc.constant(12 * HOUR)), fc.oneof(fc.integer({ min: LOCK, max: 30 * HOUR }), fc.constant(12 * HOUR))],
    ([gap1, gap2]) => {
      let guard = noGuard
      const locks: Array<boolean> = []
      for (const start of [0, gap1, gap1 + gap2]) {
        let last: PinClaim | undefined
        for (let i = 0; i < 5; i++) [last, guard] = tryOnce(guard, new Date(start), false)
        expect(last!._tag === "Claimed" && last!.lock !== null).toBe(true)
        if (last!._tag === "Claimed") locks.push(shouldFreeze(last!.lock!))
      }
      expect(locks).toEqual([false, false, gap1 + gap2 < WINDOW])
    }
  )

  it.prop(
    "a right 5th PIN undoes exactly the lock its claim started; a reset keeps the lockouts",
    [fc.array(step, { maxLength: 60 })],
    ([prefix]) => {
      let guard = noGuard
      let now = 0
      for (const s of prefix) {
        if (s.kind === "wait") now += s.ms
        else if (s.kind === "reset") guard = clearTries(guard)
        else guard = tryOnce(guard, new Date(now), s.right)[1]
      }
      now += LOCK // any lock has ended
      const before = guard
      const at = new Date(now)
      const left = guard.lockedUntil === null ? 5 - guard.wrongTries : 5
      for (let i = 0; i < left - 1; i++) guard = tryOnce(guard, at, false)[1]
      const [claim, locked] = claimTry(guard, at, PinPolicy)
      expect(claim._tag === "Claimed" && claim.lock !== null).toBe(true)
      if (claim._tag !== "Claimed") return
      const undone = settleCorrect(locked, claim.lock)
      expect(undone.wrongTries).toBe(0)
      expect(undone.lockedUntil).toBeNull()
      // the lockouts are the ones before, less those that fell out of the window
      expect(undone.lockouts.map((d) => d.getTime())).toEqual(
        before.lockouts.filter((t) => now - t.getTime() < WINDOW).map((d) => d.getTime())
      )
      expect(clearTries(locked).lockouts).toEqual(locked.lockouts)
      expect(isLocked(clearTries(locked), at)).toBe(false)
    }
  )
})
