/**
 * The retry policy both core banking transports share (Transport.ts `attemptsOf`): what it retries,
 * and that the attempts a ProviderUnknownOutcome counts are its own run's, even when one call's
 * effect is run twice at once (BankOne builds some calls once and reuses them).
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, FiberRef } from "effect"
import { Transient } from "../src/corebanking/Sender.js"
import { attemptsOf } from "../src/corebanking/Transport.js"

const transient = new Transient({ detail: "HTTP 503" })

describe("attemptsOf", () => {
  it.effect("retries a transient failure of a call that is safe to repeat, up to maxAttempts, then counts them", () =>
    Effect.gen(function*() {
      const seen: Array<number> = []
      const error = yield* Effect.flip(
        attemptsOf({ operation: "banks", retry: true }, 3, () => Effect.void, (n) => Effect.sync(() => seen.push(n)).pipe(Effect.zipRight(Effect.fail(transient))))
      )
      expect(seen).toEqual([1, 2, 3])
      expect(error).toMatchObject({ _tag: "ProviderUnknownOutcome", operation: "banks", detail: "HTTP 503 (3 attempts)" })
    }))

  it.effect("never repeats a call that is not safe to repeat, nor one that timed out", () =>
    Effect.gen(function*() {
      let calls = 0
      const once = (error: Transient) =>
        Effect.flip(attemptsOf({ operation: "transfer", retry: false }, 3, () => Effect.void, () => Effect.sync(() => calls++).pipe(Effect.zipRight(Effect.fail(error)))))
      expect(yield* once(transient)).toMatchObject({ _tag: "ProviderUnknownOutcome", detail: "HTTP 503 (1 attempt)" })
      const timedOut = new Transient({ detail: "timed out", timedOut: true })
      const error = yield* Effect.flip(
        attemptsOf({ operation: "account", retry: true }, 3, () => Effect.void, () => Effect.sync(() => calls++).pipe(Effect.zipRight(Effect.fail(timedOut))))
      )
      expect(error).toMatchObject({ _tag: "ProviderUnknownOutcome", detail: "timed out (1 attempt)" })
      expect(calls).toBe(2)
    }))

  it.effect("counts each run's own attempts when the same call's effect runs twice at once", () =>
    Effect.gen(function*() {
      const who = FiberRef.unsafeMake("")
      const aOnItsLast = yield* Deferred.make<void>()
      const bStarted = yield* Deferred.make<void>()
      const call = attemptsOf({ operation: "banks", retry: true }, 2, () => Effect.void, (n) =>
        Effect.flatMap(FiberRef.get(who), (name) => {
          if (name === "B") return Effect.zipRight(Deferred.succeed(bStarted, undefined), Effect.never)
          // A's second (last) attempt fails only once B has made its first
          if (n === 2) return Deferred.succeed(aOnItsLast, undefined).pipe(Effect.zipRight(Deferred.await(bStarted)), Effect.zipRight(Effect.fail(transient)))
          return Effect.fail(transient)
        }))
      const a = yield* Effect.fork(Effect.flip(Effect.locally(call, who, "A")))
      yield* Deferred.await(aOnItsLast)
      const b = yield* Effect.fork(Effect.locally(call, who, "B"))
      const error = yield* Fiber.join(a)
      yield* Fiber.interrupt(b)
      expect(error).toMatchObject({ _tag: "ProviderUnknownOutcome", detail: "HTTP 503 (2 attempts)" })
    }))
})
