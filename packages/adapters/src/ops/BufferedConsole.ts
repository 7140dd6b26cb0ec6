/**
 * Saves ~30 µs of CPU per JSON log line, ~90 µs per pretty one (JSON 91 → 60 µs, pretty 143 → 54 µs).
 * (`bench/devices.ts console`: 4 lines per turn of the event loop to a pipe, Node's console
 * against this one, medians of 7 runs in alternation.)
 *
 * The services' console: Node's own Console (the same formatting, group indentation and colours)
 * over stdout and stderr, but the text of one turn of the event loop goes out in one write.
 *
 * Why: Node writes to a file or a pipe synchronously, one system call per console call, and the
 * pretty logger (development) makes five console calls per request line, the JSON logger
 * (production) one. Under load that was ~8% of the API's CPU (a profile under bench:api: fs
 * writeSync and console calls), and each call is a write the kernel may deschedule us in.
 *
 * What is given up: lines written in the last turn before the process is killed with SIGKILL (or
 * dies in native code) are lost. On every other exit (SIGINT/SIGTERM, an error, an uncaught
 * exception, process.exit) the buffer is written synchronously in the process's `exit` event. A
 * turn's text is also written as soon as it passes 64 Ki characters (64 KiB of ASCII).
 */
import { Console as EffectConsole, Effect } from "effect"
import { EventEmitter } from "node:events"
import { Console as NodeConsole } from "node:console"

/** Counted in UTF-16 code units (string length), not encoded bytes: a bound on memory, not a write size. */
const FLUSH_AT_CHARACTERS = 64 * 1024

/** A stream for Node's Console that keeps what it is given until the end of the turn. */
class TurnBuffer extends EventEmitter {
  private chunks: Array<string> = []
  private characters = 0
  private scheduled = false

  constructor(private readonly target: NodeJS.WritableStream) {
    super()
  }

  write(chunk: string | Uint8Array, encodingOrCallback?: unknown, callback?: unknown): boolean {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")
    this.chunks.push(text)
    this.characters += text.length
    if (this.characters >= FLUSH_AT_CHARACTERS) this.flush()
    else if (!this.scheduled) {
      this.scheduled = true
      setImmediate(this.flushLater)
    }
    const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback
    // null, as Node's streams report success: Node's Console takes anything else for an error and
    // goes looking for the stream's _writableState, which this buffer has not (a TypeError thrown
    // and swallowed on every console call: ~18 µs each, most of the logger's cost under load)
    if (typeof done === "function") (done as (error: Error | null) => void)(null)
    return true
  }

  private readonly flushLater = () => {
    this.scheduled = false
    this.flush()
  }

  flush(): void {
    if (this.chunks.length === 0) return
    const text = this.chunks.length === 1 ? this.chunks[0]! : this.chunks.join("")
    this.chunks = []
    this.characters = 0
    this.target.write(text)
  }
}

/** Effect's Console over a Node console: every method through `unsafe`, so nothing bypasses the buffer. */
const effectConsoleOf = (unsafe: globalThis.Console): EffectConsole.Console => ({
  [EffectConsole.TypeId]: EffectConsole.TypeId,
  assert: (condition, ...args) => Effect.sync(() => unsafe.assert(condition, ...args)),
  clear: Effect.sync(() => unsafe.clear()),
  count: (label) => Effect.sync(() => unsafe.count(label)),
  countReset: (label) => Effect.sync(() => unsafe.countReset(label)),
  debug: (...args) => Effect.sync(() => unsafe.debug(...args)),
  dir: (item, options) => Effect.sync(() => unsafe.dir(item, options)),
  dirxml: (...args) => Effect.sync(() => unsafe.dirxml(...args)),
  error: (...args) => Effect.sync(() => unsafe.error(...args)),
  group: (options) => Effect.sync(() => (options?.collapsed ? unsafe.groupCollapsed(options.label) : unsafe.group(options?.label))),
  groupEnd: Effect.sync(() => unsafe.groupEnd()),
  info: (...args) => Effect.sync(() => unsafe.info(...args)),
  log: (...args) => Effect.sync(() => unsafe.log(...args)),
  table: (data, properties) => Effect.sync(() => unsafe.table(data, properties)),
  time: (label) => Effect.sync(() => unsafe.time(label)),
  timeEnd: (label) => Effect.sync(() => unsafe.timeEnd(label)),
  timeLog: (label, ...args) => Effect.sync(() => unsafe.timeLog(label, ...args)),
  trace: (...args) => Effect.sync(() => unsafe.trace(...args)),
  warn: (...args) => Effect.sync(() => unsafe.warn(...args)),
  unsafe: unsafe as unknown as EffectConsole.UnsafeConsole
})

/**
 * A console over `stdout` and `stderr` whose text goes out once per turn of the event loop, and
 * at the latest in the process's `exit` event. Colours as Node's console decides them for
 * `stdout` (a terminal's, none for a file or a pipe).
 */
export const turnBufferedConsole = (
  stdout: NodeJS.WriteStream = process.stdout,
  stderr: NodeJS.WriteStream = process.stderr
): EffectConsole.Console => {
  const out = new TurnBuffer(stdout)
  const err = new TurnBuffer(stderr)
  process.on("exit", () => {
    out.flush()
    err.flush()
  })
  const colorMode = stdout.isTTY === true && stdout.hasColors?.() === true
  // Node's Console needs only `write` and the error listener methods of its streams
  const asStream = (buffer: TurnBuffer) => buffer as unknown as NodeJS.WritableStream
  return effectConsoleOf(new NodeConsole({ stdout: asStream(out), stderr: asStream(err), colorMode }))
}
