import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, FiberId, Scope } from "effect"
import { makeFairSemaphore } from "../src/concurrency/FairSemaphore.js"

/** Lets every other ready fiber run until none is left to run (no clock involved). */
const settle = Effect.repeatN(Effect.yieldNow(), 20)

describe("FairSemaphore", () => {
  it.live("with one permit, runs holders one at a time in the order they asked", () =>
    Effect.gen(function*() {
      const semaphore = yield* makeFairSemaphore(1)
      const log: Array<string> = []
      let inside = 0
      let most = 0
      const holder = (name: string) =>
        semaphore.withPermit(Effect.gen(function*() {
          inside++
          most = Math.max(most, inside)
          log.push(`${name} in`)
          yield* Effect.yieldNow()
          yield* Effect.yieldNow()
          log.push(`${name} out`)
          inside--
        }))
      const fibers: Array<Fiber.RuntimeFiber<void>> = []
      for (const name of ["a", "b", "c", "d", "e"]) {
        fibers.push(yield* Effect.fork(holder(name)))
        yield* Effect.yieldNow() // each one asks before the next is started
      }
      yield* Fiber.joinAll(fibers)
      expect(most).toBe(1)
      expect(log).toEqual(["a in", "a out", "b in", "b out", "c in", "c out", "d in", "d out", "e in", "e out"])
    }))

  it.live("with N permits, never lets more than N in, and lets N in at once", () =>
    Effect.gen(function*() {
      const semaphore = yield* makeFairSemaphore(3)
      let inside = 0
      let most = 0
      const gate = yield* Deferred.make<void>()
      const fibers = yield* Effect.forEach(Array.from({ length: 10 }, (_, i) => i), () =>
        Effect.fork(semaphore.withPermit(Effect.gen(function*() {
          inside++
          most = Math.max(most, inside)
          yield* Deferred.await(gate)
          inside--
        }))))
      yield* settle
      expect(inside).toBe(3)
      expect(semaphore.waiting()).toBe(7)
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.joinAll(fibers)
      expect(most).toBe(3)
      expect(semaphore.waiting()).toBe(0)
    }))

  it.live("a release wakes exactly one waiter, which then holds the permit", () =>
    Effect.gen(function*() {
      const semaphore = yield* makeFairSemaphore(1)
      const entered: Array<number> = []
      const release = yield* Deferred.make<void>()
      const first = yield* Effect.fork(semaphore.withPermit(Deferred.await(release)))
      yield* settle
      const gates = yield* Effect.forEach([1, 2, 3], () => Deferred.make<void>())
      const waiting = yield* Effect.forEach([1, 2, 3], (i) =>
        Effect.fork(semaphore.withPermit(Effect.zipRight(Effect.sync(() => entered.push(i)), Deferred.await(gates[i - 1]!)))))
      yield* settle
      expect(semaphore.waiting()).toBe(3)
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(first)
      yield* settle
      expect(entered).toEqual([1])
      expect(semaphore.waiting()).toBe(2)
      yield* Deferred.succeed(gates[0]!, undefined)
      yield* settle
      expect(entered).toEqual([1, 2])
      expect(semaphore.waiting()).toBe(1)
      yield* Effect.forEach(gates, (g) => Deferred.succeed(g, undefined))
      yield* Fiber.joinAll(waiting)
      expect(entered).toEqual([1, 2, 3])
    }))

  it.live("a waiter interrupted before its turn leaves the queue; the next one gets the permit", () =>
    Effect.gen(function*() {
      const semaphore = yield* makeFairSemaphore(1)
      const release = yield* Deferred.make<void>()
      const holder = yield* Effect.fork(semaphore.withPermit(Deferred.await(release)))
      yield* settle
      let ranInterrupted = false
      const interrupted = yield* Effect.fork(semaphore.withPermit(Effect.sync(() => {
        ranInterrupted = true
      })))
      const next = yield* Effect.fork(semaphore.withPermit(Effect.succeed("next ran")))
      yield* settle
      expect(semaphore.waiting()).toBe(2)
      yield* Fiber.interrupt(interrupted)
      expect(semaphore.waiting()).toBe(1)
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(holder)
      expect(yield* Fiber.join(next)).toBe("next ran")
      expect(ranInterrupted).toBe(false)
      expect(semaphore.waiting()).toBe(0)
    }))

  it.live("a waiter interrupted just as it is handed the permit passes it on: no permit is lost", () =>
    Effect.gen(function*() {
      const semaphore = yield* makeFairSemaphore(1)
      yield* Effect.uninterruptibleMask((restore) => semaphore.take(restore))
      const handedTo = yield* Effect.fork(semaphore.withPermit(Effect.void))
      yield* settle
      expect(semaphore.waiting()).toBe(1)
      // the interruption is sent first and the release hands the permit over in the same step, so
      // the waiter, not yet running again, is interrupted holding a permit it never used
      yield* Effect.zipRight(Effect.sync(() => handedTo.unsafeInterruptAsFork(FiberId.none)), semaphore.release)
      const exit = yield* Fiber.await(handedTo)
      expect(Exit.isInterrupted(exit)).toBe(true)
      // it passed the permit on: the permit is free again
      const after = yield* semaphore.withPermit(Effect.succeed("taken")).pipe(Effect.timeout("2 seconds"))
      expect(after).toBe("taken")
      expect(semaphore.waiting()).toBe(0)
    }))

  it.live("a failing or interrupted holder gives its permit back", () =>
    Effect.gen(function*() {
      const semaphore = yield* makeFairSemaphore(1)
      const failed = yield* Effect.exit(semaphore.withPermit(Effect.fail("boom")))
      expect(Exit.isFailure(failed)).toBe(true)
      const holding = yield* Effect.fork(semaphore.withPermit(Effect.never))
      yield* settle
      yield* Fiber.interrupt(holding)
      expect(yield* semaphore.withPermit(Effect.succeed("free")).pipe(Effect.timeout("2 seconds"))).toBe("free")
    }))

  it.live("10,000 turns among 64 fibers on one permit leave no waiter behind, each turn counted once", () =>
    Effect.gen(function*() {
      const semaphore = yield* makeFairSemaphore(1)
      let turns = 0
      let inside = 0
      let overlaps = 0
      yield* Effect.forEach(Array.from({ length: 10_000 }, (_, i) => i), () =>
        semaphore.withPermit(Effect.gen(function*() {
          if (++inside > 1) overlaps++
          yield* Effect.yieldNow()
          turns++
          inside--
        })), { concurrency: 64, discard: true })
      expect(turns).toBe(10_000)
      expect(overlaps).toBe(0)
      expect(semaphore.waiting()).toBe(0)
    }))
  it.live("takeScoped holds the permit until its scope closes, also when the scope's work fails", () =>
    Effect.gen(function*() {
      const semaphore = yield* makeFairSemaphore(1)
      const scope = yield* Scope.make()
      yield* Scope.extend(semaphore.takeScoped, scope)
      const waiter = yield* Effect.fork(semaphore.withPermit(Effect.succeed("after")))
      yield* settle
      expect(semaphore.waiting()).toBe(1)
      yield* Scope.close(scope, Exit.void)
      expect(yield* Fiber.join(waiter)).toBe("after")
      const failed = yield* Effect.scoped(Effect.zipRight(semaphore.takeScoped, Effect.fail("boom" as const))).pipe(Effect.flip)
      expect(failed).toBe("boom")
      expect(yield* semaphore.withPermit(Effect.succeed("free")).pipe(Effect.timeout("2 seconds"))).toBe("free")
      expect(semaphore.waiting()).toBe(0)
    }))
})
