/**
 * Saves 1.3 ms of CPU per step and 360 MiB of heap with 64 fibers queued on one permit (vs Effect's).
 * (`bench/devices.ts semaphore`: 3,000 steps each holding the permit across a turn of the event
 * loop, 64 at a time: Effect's Semaphore 1.49 ms of CPU per step and 378 MiB of heap growth at the
 * peak, this one 0.16 ms and 17 MiB; medians of 6 runs in alternation.)
 *
 * A semaphore that hands a released permit to the longest waiter (first in, first out), used where
 * fibers queue for a scarce resource: PGlite's one connection (sql/PgliteClient.ts), the
 * provider adapter's permits (corebanking/Transport.ts), the notifier's delivery slots and the
 * outbox file's lock (notifications/).
 *
 * Why not Effect's own `Semaphore` (effect 3.22, internal/effect/circular.ts): on a release it
 * wakes waiters while `free > 0`, but a woken waiter only counts its permit when its fiber next
 * runs, so one release wakes every waiter; all but one find the permit gone and call `take` again
 * from inside the continuation of the previous one. With 63 fibers queued on PGlite's connection,
 * each statement woke all 63 and added a level to 62 of their stacks, which lasted until the
 * caller's `forEach` ended: 3,000 statements at 64 at a time held ~340 MiB of continuations
 * (EffectPrimitive, onSuccess/onFailure, RevertFlags), freed only then (README, Benchmarks).
 * Here a release completes exactly one waiter's Deferred, which then owns the permit; the permit
 * count never changes hands in between, so nobody else can take it and nobody waits twice.
 *
 * Interruption: a waiter interrupted before its turn leaves the queue; one interrupted after it was
 * handed the permit (but before it could use it) passes the permit on. `withPermit` releases on any
 * exit of the guarded effect.
 */
import { Deferred, Effect, Exit, FiberId, Scope } from "effect"

interface Waiter {
  readonly turn: Deferred.Deferred<void>
  handed: boolean
}

/**
 * Two uses, as Effect's own Semaphore: `withPermit` around an effect, `takeScoped` for a permit held
 * until a scope closes (a transaction's connection); `take` and `release` are what both are made of.
 */
export interface FairSemaphore {
  /** Runs `self` holding one permit. */
  readonly withPermit: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Takes one permit (interruptibly while it waits), given back when the scope closes. */
  readonly takeScoped: Effect.Effect<void, never, Scope.Scope>
  /**
   * Takes one permit, waiting for it as `restore` allows (run it inside `Effect.uninterruptibleMask`
   * and pass that mask's `restore`, so the wait is interruptible and the permit, once held, cannot
   * leak before its release is registered). The permit is then the caller's until `release`.
   */
  readonly take: (restore: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>) => Effect.Effect<void>
  /** Gives one permit back: to the longest waiter if any, else to the pool. */
  readonly release: Effect.Effect<void>
  /** How many fibers wait for a permit (diagnostics and tests). */
  readonly waiting: () => number
}

export const makeFairSemaphore = (permits: number): Effect.Effect<FairSemaphore> =>
  Effect.sync(() => {
    let free = permits
    // a Set iterates in insertion order and deletes in O(1): the queue, with leaving waiters removed
    const waiters = new Set<Waiter>()

    const releaseUnsafe = () => {
      const next = waiters.values().next()
      if (next.done === true) {
        free++
        return
      }
      waiters.delete(next.value)
      next.value.handed = true
      Deferred.unsafeDone(next.value.turn, Exit.void)
    }
    const release = Effect.sync(releaseUnsafe)

    const take: FairSemaphore["take"] = (restore) =>
      Effect.suspend(() => {
        if (free > 0) {
          free--
          return Effect.void
        }
        const waiter: Waiter = { turn: Deferred.unsafeMake<void>(FiberId.none), handed: false }
        waiters.add(waiter)
        return Effect.onInterrupt(restore(Deferred.await(waiter.turn)), () =>
          Effect.sync(() => {
            if (waiter.handed) releaseUnsafe()
            else waiters.delete(waiter)
          }))
      })

    const withPermit = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.uninterruptibleMask((restore) => {
        // already uninterruptible here: the release follows `self` whatever its exit, with no
        // second mask (Effect.ensuring's); a free permit is taken without suspending
        const held = Effect.matchCauseEffect(restore(self), {
          onFailure: (cause) => Effect.zipRight(release, Effect.failCause(cause)),
          onSuccess: (value) => Effect.as(release, value)
        })
        return Effect.suspend(() => {
          if (free > 0) {
            free--
            return held
          }
          return Effect.zipRight(take(restore), held)
        })
      })

    // take interruptibly, then register the release uninterruptibly, so the permit cannot leak
    const takeScoped: Effect.Effect<void, never, Scope.Scope> = Effect.uninterruptibleMask((restore) =>
      Effect.zipRight(take(restore), Effect.flatMap(Effect.scope, (scope) => Scope.addFinalizer(scope, release)))
    )

    return { take, release, withPermit, takeScoped, waiting: () => waiters.size }
  })
