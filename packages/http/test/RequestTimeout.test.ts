/**
 * The request time limit as a middleware, without a server: a request answered in time keeps its
 * answer and what the work set on the request (a pre-response handler, a log annotation); past
 * the limit the answer is the 503 at the limit, without waiting for the work, which is
 * interrupted in the background; a request that is itself interrupted (the client went away)
 * interrupts its work without waiting.
 * EdgeLimits.test.ts checks the same 503 through a real server.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, FiberRef, HashMap, Option } from "effect"
import { requestTimeout } from "../src/edge/RequestTimeout.js"

const request = HttpServerRequest.fromWeb(new Request("http://localhost/api/v1/customers/me"))
const run = <E>(app: HttpApp.Default<E, HttpServerRequest.HttpServerRequest>, timeoutMs: number) =>
  // the platform runs a request's middleware uninterruptibly: so does this
  Effect.uninterruptible(requestTimeout(timeoutMs)(app)).pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, request))

describe("requestTimeout", () => {
  it.live("an answer in time is the work's own, with the fiber refs the work set", () =>
    Effect.gen(function*() {
      const app = Effect.gen(function*() {
        yield* HttpApp.appendPreResponseHandler((_req, res) => Effect.succeed(HttpServerResponse.setHeader(res, "x-set-by-work", "yes")))
        yield* FiberRef.update(FiberRef.currentLogAnnotations, HashMap.set<string, unknown>("set-by-work", "yes"))
        yield* Effect.sleep("20 millis")
        return HttpServerResponse.text("done", { status: 201 })
      })
      const response = yield* run(app, 1_000)
      expect(response.status).toBe(201)
      const handlers = yield* FiberRef.get(HttpApp.currentPreResponseHandlers)
      expect(Option.isSome(handlers)).toBe(true)
      if (Option.isSome(handlers)) {
        const handled = yield* handlers.value(request, response)
        expect(handled.headers["x-set-by-work"]).toBe("yes")
      }
      // and the log annotations it set, for the request's log line
      expect(HashMap.get(yield* FiberRef.get(FiberRef.currentLogAnnotations), "set-by-work")).toEqual(Option.some("yes"))
      // a failure of the work is the request's failure, unchanged
      const failed = yield* Effect.exit(run(Effect.fail("refused" as const), 1_000))
      expect(failed).toEqual(Exit.fail("refused"))
    }))

  it.live("past the limit: 503 REQUEST_TIMEOUT at the limit, without waiting for the work, which is interrupted", () =>
    Effect.gen(function*() {
      const interrupted = yield* Deferred.make<void>()
      const app = Effect.never.pipe(
        // an uninterruptible step at the end of the work (a money step): the answer must not wait for it
        Effect.onInterrupt(() => Effect.sleep("500 millis").pipe(Effect.zipRight(Deferred.succeed(interrupted, undefined)))),
        Effect.as(HttpServerResponse.empty())
      )
      const started = Date.now()
      const response = yield* run(app, 100)
      const took = Date.now() - started
      expect(response.status).toBe(503)
      expect(response.headers["retry-after"]).toBe("5")
      expect(took).toBeGreaterThanOrEqual(90)
      expect(took).toBeLessThan(400)
      expect(yield* Deferred.isDone(interrupted)).toBe(false)
      yield* Deferred.await(interrupted).pipe(Effect.timeout("2 seconds"))
    }))

  it.live("a request interrupted while its work runs: the work is interrupted, and the request does not wait for it", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const interrupted = yield* Deferred.make<void>()
      const app = Deferred.succeed(started, undefined).pipe(
        Effect.zipRight(Effect.never),
        Effect.onInterrupt(() => Effect.sleep("500 millis").pipe(Effect.zipRight(Deferred.succeed(interrupted, undefined)))),
        Effect.as(HttpServerResponse.empty())
      )
      const fiber = yield* Effect.fork(run(app, 10_000))
      yield* Deferred.await(started)
      const before = Date.now()
      yield* Fiber.interrupt(fiber)
      expect(Date.now() - before).toBeLessThan(300)
      expect(yield* Deferred.isDone(interrupted)).toBe(false)
      yield* Deferred.await(interrupted).pipe(Effect.timeout("2 seconds"))
    }))
})
