/**
 * /docs and /api/v1/openapi.json are built at the first request (ops/Docs.ts `onceInScope`): once,
 * and a first request that goes away (a client disconnect, the request time limit) must not leave
 * the interruption as every later request's answer.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Ref } from "effect"
import { onceInScope } from "../src/ops/Docs.js"

describe("onceInScope", () => {
  it.scoped("runs the build once, and a first caller interrupted mid-build does not spoil the later ones", () =>
    Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      const started = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const build = Ref.update(runs, (n) => n + 1).pipe(
        Effect.zipRight(Deferred.succeed(started, undefined)),
        Effect.zipRight(Deferred.await(release)),
        Effect.as("the docs router")
      )
      const docs = yield* onceInScope(build, yield* Effect.scope)
      const first = yield* Effect.fork(docs)
      yield* Deferred.await(started)
      yield* Fiber.interrupt(first)
      yield* Deferred.succeed(release, undefined)
      expect(yield* docs).toBe("the docs router")
      expect(yield* docs).toBe("the docs router")
      expect(yield* Ref.get(runs)).toBe(1)
    }))
})
