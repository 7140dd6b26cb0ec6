/**
 * The request time limit as a middleware, without a server: a request answered in time keeps its
 * answer and what the work set on the request (a pre-response handler, a log annotation). A
 * request that may move money (POST here): past the limit the answer is the 503 at the limit,
 * without waiting for the work, which is interrupted in the background; a request that is itself
 * interrupted (the client went away) interrupts its work without waiting. A read (GET), which runs
 * on the request's fiber: the same answers, its work interrupted before the 503.
 * EdgeLimits.test.ts checks the 503 of a GET through a real server.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Exit, Fiber, FiberRef, HashMap, Option } from "effect"
import { requestTimeout } from "../src/edge/RequestTimeout.js"

const post = HttpServerRequest.fromWeb(new Request("http://localhost/api/v1/transfers", { method: "POST" }))
const get = HttpServerRequest.fromWeb(new Request("http://localhost/api/v1/customers/me"))
const runAs = (request: HttpServerRequest.HttpServerRequest) =>
<E>(app: HttpApp.Default<E, HttpServerRequest.HttpServerRequest>, timeoutMs: number) =>
  // the platform runs a request's middleware uninterruptibly: so does this
  Effect.uninterruptible(requestTimeout(timeoutMs)(app)).pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, request))
const run = runAs(post)
const runGet = runAs(get)

/** Work that sets what the request reads after it (a pre-response handler, a log annotation), then answers. */
const workSettingRefs = (status: number) =>
  Effect.gen(function*() {
    yield* HttpApp.appendPreResponseHandler((_req, res) => Effect.succeed(HttpServerResponse.setHeader(res, "x-set-by-work", "yes")))
    yield* FiberRef.update(FiberRef.currentLogAnnotations, HashMap.set<string, unknown>("set-by-work", "yes"))
    yield* Effect.sleep("20 millis")
    return HttpServerResponse.text("done", { status })
  })

/**
 * Work that never answers: it tells when it has started and, interrupted, runs a last step of
 * `finalizerMs` (uninterruptible, like a money step) before it tells it was interrupted.
 */
const neverAnswering = (finalizerMs: number) =>
  Effect.gen(function*() {
    const started = yield* Deferred.make<void>()
    const interrupted = yield* Deferred.make<void>()
    const work = Deferred.succeed(started, undefined).pipe(
      Effect.zipRight(Effect.never),
      Effect.onInterrupt(() => Effect.sleep(Duration.millis(finalizerMs)).pipe(Effect.zipRight(Deferred.succeed(interrupted, undefined)))),
      Effect.as(HttpServerResponse.empty())
    )
    return { work, started, interrupted }
  })

/** What `workSettingRefs` set, as the request's fiber sees it once answered. */
const expectRefsOfWork = (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) =>
  Effect.gen(function*() {
    const handlers = yield* FiberRef.get(HttpApp.currentPreResponseHandlers)
    expect(Option.isSome(handlers)).toBe(true)
    if (Option.isSome(handlers)) expect((yield* handlers.value(request, response)).headers["x-set-by-work"]).toBe("yes")
    // and the log annotations it set, for the request's log line
    expect(HashMap.get(yield* FiberRef.get(FiberRef.currentLogAnnotations), "set-by-work")).toEqual(Option.some("yes"))
  })

describe("requestTimeout, a request that may move money (its work in a fiber of its own)", () => {
  it.live("an answer in time is the work's own, with the fiber refs the work set", () =>
    Effect.gen(function*() {
      const response = yield* run(workSettingRefs(201), 1_000)
      expect(response.status).toBe(201)
      yield* expectRefsOfWork(post, response)
      // a failure of the work is the request's failure, unchanged
      const failed = yield* Effect.exit(run(Effect.fail("refused" as const), 1_000))
      expect(failed).toEqual(Exit.fail("refused"))
    }))

  it.live("past the limit: 503 REQUEST_TIMEOUT at the limit, without waiting for the work, which is interrupted", () =>
    Effect.gen(function*() {
      // an uninterruptible step at the end of the work (a money step): the answer must not wait for it
      const { interrupted, work } = yield* neverAnswering(500)
      const started = Date.now()
      const response = yield* run(work, 100)
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
      const { interrupted, started, work } = yield* neverAnswering(500)
      const fiber = yield* Effect.fork(run(work, 10_000))
      yield* Deferred.await(started)
      const before = Date.now()
      yield* Fiber.interrupt(fiber)
      expect(Date.now() - before).toBeLessThan(300)
      expect(yield* Deferred.isDone(interrupted)).toBe(false)
      yield* Deferred.await(interrupted).pipe(Effect.timeout("2 seconds"))
    }))
})

describe("requestTimeout, a read (its work on the request's fiber)", () => {
  it.live("an answer in time is the work's own, with the fiber refs the work set; a failure is unchanged; the limit's timer goes with the answer", () =>
    Effect.gen(function*() {
      const response = yield* runGet(workSettingRefs(200), 300)
      expect(response.status).toBe(200)
      yield* expectRefsOfWork(get, response)
      expect(yield* Effect.exit(runGet(Effect.fail("refused" as const), 300))).toEqual(Exit.fail("refused"))
      // the request's fiber lives on past the limit (the platform writes the answer, closes the
      // scope): a timer left behind would interrupt it there
      const afterwards = yield* Effect.fork(Effect.flatMap(runGet(workSettingRefs(200), 100), () => Effect.as(Effect.sleep("300 millis"), "still running")))
      expect(yield* Fiber.await(afterwards)).toEqual(Exit.succeed("still running"))
    }))

  it.live("past the limit: the work is interrupted where it is, then the 503 REQUEST_TIMEOUT, which the request's fiber goes on to write", () =>
    Effect.gen(function*() {
      // the interruption's own finalizer: on the request's fiber, the 503 comes after it
      const { interrupted, work } = yield* neverAnswering(150)
      const started = Date.now()
      // the request's fiber, as the platform runs it: uninterruptible, and it goes on after the
      // middleware (the answer's writing, the scope's finalizers), async steps included
      const answered = yield* Deferred.make<HttpServerResponse.HttpServerResponse>()
      const fiber = yield* Effect.fork(Effect.uninterruptible(
        Effect.flatMap(runGet(work, 100), (response) =>
          Effect.sleep("10 millis").pipe(Effect.zipRight(Deferred.succeed(answered, response))))
      ))
      yield* Fiber.await(fiber)
      const took = Date.now() - started
      const response = yield* Deferred.await(answered).pipe(Effect.timeout("1 second"))
      expect(response.status).toBe(503)
      expect(response.headers["retry-after"]).toBe("5")
      expect(took).toBeGreaterThanOrEqual(240)
      expect(took).toBeLessThan(700)
      expect(yield* Deferred.isDone(interrupted)).toBe(true)
    }))

  it.live("a read whose client went away: its work is interrupted, and the request ends interrupted, not with a 503", () =>
    Effect.gen(function*() {
      const { interrupted, started, work } = yield* neverAnswering(0)
      const fiber = yield* Effect.fork(runGet(work, 10_000))
      yield* Deferred.await(started)
      const exit = yield* Fiber.interrupt(fiber)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect(yield* Deferred.isDone(interrupted)).toBe(true)
    }))
})
