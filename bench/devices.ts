/**
 * The performance devices' micro-benchmarks: what each saves, measured against what it replaces, in
 * turns (A then B, then B then A, …), medians of the rounds. The numbers in the devices' headers
 * come from here: `npx tsx bench/devices.ts <spans|requests|semaphore|console> [rounds]`.
 * - spans: one span around a small effect with Effect's tracer off (domain shared/Spans.ts);
 * - requests: a request through HttpApp.toHandled with three spans, Effect's tracer on and the
 *   request span made, against adapters' ops/UnreceivedSpans.ts's settings;
 * - semaphore: 3,000 steps holding one permit across a turn of the event loop, 64 at a time, with
 *   Effect's Semaphore and with concurrency/FairSemaphore.ts (CPU and peak heap growth; run it with
 *   `node --expose-gc`, e.g. NODE_OPTIONS=--expose-gc);
 * - console: 4 log lines per turn of the event loop to stdout, Node's console against
 *   ops/BufferedConsole.ts (pipe stdout away: `… console | cat > /dev/null`; results on stderr).
 */
import { HttpApp, HttpMiddleware, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { makeFairSemaphore } from "@app/adapters/concurrency/FairSemaphore"
import { turnBufferedConsole } from "@app/adapters/ops/BufferedConsole"
import { Spans } from "@app/domain"
import { Effect, FiberRef, Layer, Logger } from "effect"

type Measure = () => Promise<Record<string, number>>
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const cpuMicros = async (f: () => Promise<void> | void) => {
  const start = process.cpuUsage()
  await f()
  const used = process.cpuUsage(start)
  return used.user + used.system
}
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Runs every mode once to warm up, then `rounds` times in alternating order; prints the medians. */
const compare = async (modes: Record<string, Measure>, rounds: number) => {
  const names = Object.keys(modes)
  for (const name of names) await modes[name]!()
  const results: Record<string, Record<string, Array<number>>> = {}
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      for (const [metric, value] of Object.entries(await modes[name]!())) {
        ;((results[name] ??= {})[metric] ??= []).push(value)
      }
    }
  }
  for (const name of names) {
    const line = Object.entries(results[name]!).map(([metric, values]) =>
      `${metric} ${median(values).toFixed(1)} [${values.map((v) => v.toFixed(0)).join(" ")}]`
    )
    process.stderr.write(`${name}: ${line.join(", ")}\n`)
  }
}

const spans = (): Record<string, Measure> => {
  const K = 100_000
  const body = Effect.succeed(1).pipe(Effect.flatMap((n) => Effect.succeed(n + 1)))
  const loop = (one: Effect.Effect<number>) =>
    Effect.withTracerEnabled(Effect.gen(function*() {
      for (let i = 0; i < K; i++) yield* one
    }), false)
  const mode = (one: Effect.Effect<number>): Measure => async () => ({ "ns/span": (await cpuMicros(() => Effect.runSync(loop(one)))) * 1000 / K })
  return {
    "no span": mode(body),
    "Effect.withSpan": mode(body.pipe(Effect.withSpan("Use.case", { captureStackTrace: false }))),
    "Spans.withSpan": mode(body.pipe(Spans.withSpan("Use.case")))
  }
}

const requests = (): Record<string, Measure> => {
  const K = 20_000
  const useCase = Effect.succeed(1).pipe(
    Spans.withSpan("Use.case"),
    Effect.zipRight(Effect.succeed(2).pipe(Spans.withSpan("sql.execute"))),
    Effect.zipRight(Effect.succeed(3).pipe(Spans.withSpan("sql.execute")))
  )
  const app = HttpApp.toHandled(Effect.as(useCase, HttpServerResponse.empty()), () => Effect.void)
  const request = HttpServerRequest.fromWeb(
    new Request("http://127.0.0.1:3000/api/v1/customers/me?x=1", { headers: { authorization: "Bearer abc", "user-agent": "bench" } })
  )
  const loop = Effect.gen(function*() {
    for (let i = 0; i < K; i++) yield* app
  }).pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, request))
  const mode = (run: Effect.Effect<void>): Measure => async () => ({ "µs/request": (await cpuMicros(() => Effect.runSync(run))) / K })
  return {
    "spans made": mode(loop),
    "UnreceivedSpans": mode(loop.pipe(
      HttpMiddleware.withTracerDisabledWhenEffect(() => true),
      Effect.locally(FiberRef.currentTracerEnabled, false)
    ))
  }
}

const semaphore = (): Record<string, Measure> => {
  const N = 3_000
  const step = Effect.async<void>((resume) => {
    setImmediate(() => resume(Effect.void))
  })
  type WithPermit = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  const mode = (make: Effect.Effect<WithPermit>): Measure => async () => {
    ;(globalThis as { gc?: () => void }).gc?.()
    const base = process.memoryUsage().heapUsed
    let peak = 0
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed - base)
    }, 5)
    const cpu = await cpuMicros(() =>
      Effect.runPromise(Effect.flatMap(make, (withPermit) =>
        Effect.forEach(Array.from({ length: N }), () => withPermit(step), { concurrency: 64, discard: true })))
    )
    clearInterval(sampler)
    return { "µs/step": cpu / N, "peak heap MiB": peak / 2 ** 20 }
  }
  return {
    "Effect's Semaphore": mode(Effect.map(Effect.makeSemaphore(1), (s): WithPermit => s.withPermits(1))),
    "FairSemaphore": mode(Effect.map(makeFairSemaphore(1), (s): WithPermit => s.withPermit))
  }
}

const console = (): Record<string, Measure> => {
  const TURNS = 2_000
  const PER_TURN = 4
  const buffered = turnBufferedConsole()
  const line = Effect.logInfo("request").pipe(
    Effect.annotateLogs({ method: "GET", route: "/api/v1/customers/me", status: 200, millis: 3, requestId: "0f8e6a3c-0d1e-4f7b-9f3a-1c2b3d4e5f60" })
  )
  const loop = Effect.gen(function*() {
    for (let t = 0; t < TURNS; t++) {
      for (let i = 0; i < PER_TURN; i++) yield* line
      yield* Effect.promise(turn)
    }
  })
  const mode = (logger: Layer.Layer<never>, withBuffer: boolean): Measure => async () => ({
    "µs/line": (await cpuMicros(async () => {
      await Effect.runPromise(Effect.provide(withBuffer ? Effect.withConsole(loop, buffered) : loop, logger))
      await turn()
    })) / (TURNS * PER_TURN)
  })
  return {
    "json, Node's console": mode(Logger.json, false),
    "json, BufferedConsole": mode(Logger.json, true),
    "pretty, Node's console": mode(Logger.pretty, false),
    "pretty, BufferedConsole": mode(Logger.pretty, true)
  }
}

const benches: Record<string, () => Record<string, Measure>> = { spans, requests, semaphore, console }
const which = process.argv[2] ?? ""
const bench = benches[which]
if (bench === undefined) {
  process.stderr.write(`usage: tsx bench/devices.ts <${Object.keys(benches).join("|")}> [rounds]\n`)
  process.exit(2)
}
await compare(bench(), Number(process.argv[3] ?? 8))
