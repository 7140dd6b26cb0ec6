/**
 * The services' console (ops/BufferedConsole.ts): the same text as Node's console, written once per
 * turn of the event loop (or at 64 Ki characters), and written before the process exits.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, FiberRef, HashSet, Logger, LogLevel } from "effect"
import { execFileSync } from "node:child_process"
import { Console as NodeConsole } from "node:console"
import { Writable } from "node:stream"
import { turnBufferedConsole } from "../src/ops/BufferedConsole.js"

/** A stream that records each write it gets. */
const recorder = () => {
  const writes: Array<string> = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      writes.push(String(chunk))
      done()
    }
  })
  return { writes, stream: stream as unknown as NodeJS.WriteStream }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** What the pretty logger writes for one annotated line, through `console`. */
const prettyLine = (console: Parameters<typeof Effect.withConsole>[1]) =>
  Effect.log("Sent HTTP response").pipe(
    Effect.annotateLogs({ "http.status": 200, "http.route": "/api/v1/customers/me" }),
    // the loggers and level set outright: a test file before this one in a shared worker may have
    // changed either (Logger.replace would then replace nothing)
    Effect.locally(FiberRef.currentLoggers, HashSet.make(Logger.prettyLogger({ colors: false, formatDate: () => "T" }))),
    Effect.locally(FiberRef.currentMinimumLogLevel, LogLevel.All),
    Effect.withConsole(console)
  )

describe("turnBufferedConsole", () => {
  it.effect("a turn's lines in one write, after the turn, the same text as Node's console writes them one by one", () =>
    Effect.gen(function*() {
      const buffered = recorder()
      const console = turnBufferedConsole(buffered.stream, recorder().stream)
      yield* prettyLine(console)
      yield* prettyLine(console)
      yield* Effect.sync(() => console.unsafe.log("plain", { a: 1 }))
      expect(buffered.writes).toEqual([])
      yield* Effect.promise(nextTurn)
      expect(buffered.writes).toHaveLength(1)
      expect(buffered.writes[0]).toContain("Sent HTTP response")

      // the same calls on Node's own console, unbuffered
      const direct = recorder()
      const nodeConsole = new NodeConsole({ stdout: direct.stream, stderr: recorder().stream, colorMode: false })
      const asEffectConsole = { ...console, unsafe: nodeConsole as never }
      yield* prettyLine(asEffectConsole)
      yield* prettyLine(asEffectConsole)
      nodeConsole.log("plain", { a: 1 })
      expect(direct.writes.length).toBeGreaterThan(5)
      expect(buffered.writes[0]).toBe(direct.writes.join(""))
      expect(buffered.writes[0]).toContain("  http.route: /api/v1/customers/me\n")
    }))

  it.effect("errors to stderr; a turn past 64 Ki characters is written at once", () =>
    Effect.gen(function*() {
      const out = recorder()
      const err = recorder()
      const console = turnBufferedConsole(out.stream, err.stream)
      yield* console.error("failed")
      yield* Effect.promise(nextTurn)
      expect(err.writes).toEqual(["failed\n"])
      expect(out.writes).toEqual([])
      const line = "x".repeat(1023)
      for (let i = 0; i < 63; i++) console.unsafe.log(line)
      expect(out.writes).toEqual([])
      console.unsafe.log(line)
      expect(out.writes).toEqual([`${line}\n`.repeat(64)])
    }))

  it("a write reports success as Node's streams do, so Node's console takes no error path", () => {
    const console = turnBufferedConsole(recorder().stream, recorder().stream)
    // Node's console looks at its stream's _writableState only when a write's callback reports an
    // error (anything but null): a TypeError on this buffer, thrown and swallowed on every call
    const stdout = (console.unsafe as unknown as { _stdout: object })._stdout
    let looked = 0
    Object.defineProperty(stdout, "_writableState", {
      get: () => {
        looked++
        return { errorEmitted: true }
      }
    })
    console.unsafe.log("one")
    console.unsafe.log("two", { a: 1 })
    expect(looked).toBe(0)
  })

  it("what is still buffered when the process exits is written", () => {
    const script = [
      "import { Effect } from 'effect'",
      "import { turnBufferedConsole } from './packages/adapters/src/ops/BufferedConsole.ts'",
      "const console = turnBufferedConsole()",
      "Effect.runSync(console.log('last words'))",
      "console.unsafe.error('and an error')",
      "process.exit(3)"
    ].join("\n")
    let output = ""
    try {
      execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
    } catch (e) {
      const failed = e as { status: number; stdout: string; stderr: string }
      expect(failed.status).toBe(3)
      output = `${failed.stdout}|${failed.stderr}`
    }
    expect(output).toBe("last words\n|and an error\n")
  })
})
