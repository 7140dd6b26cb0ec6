/**
 * The bank's journal: one JSON event per line, appended before the answer leaves, replayed at start.
 *
 * - Appends are synchronous `write(2)`s of one whole line (a string) on a descriptor opened for
 *   appending. Measured per line: ~3 µs of CPU, against ~9 µs for `appendFileSync` (which opens and
 *   closes the file each time) and ~30 µs for a write stream whose callback the answer would have to
 *   await. A line that reached the file
 *   survives the process being killed. With `durable` (DURABLE_WRITES, on unless `false`, in
 *   `npm start`'s embedded bank and in `npm run sandbox` alike) each line is also fdatasync'ed
 *   before the answer leaves, so it survives the machine losing power; without it, a power loss
 *   can lose the last lines the page cache held.
 * - A failed append (disk full…) cuts the file back to where it was and throws: the event is not
 *   applied and the caller answers 500.
 * - Replay: every complete line is an event. A last line without its newline, or a last line that
 *   is not JSON, is what a crash in the middle of a write leaves: it is ignored and cut off, so the
 *   next append starts on a clean line. Any other line that does not parse, or an event that does
 *   not fit the state, stops the start-up (`JournalError`, naming the line): the journal is not
 *   guessed at.
 * - One writer: `<journal>.lock` holds the pid of the process that has the journal open; a second
 *   process (or a second bank in the same process) is refused while that one lives. A lock left by
 *   a process that died is taken over (@app/adapters concurrency/ProcessLock.ts, which the embedded
 *   database's data directory uses too).
 */
import { Data } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { lockPath } from "@app/adapters/concurrency/ProcessLock"

export class JournalError extends Data.TaggedError("JournalError")<{ readonly message: string; readonly cause?: unknown }> {}

export const JOURNAL_FORMAT = { e: "sandbox-bank-journal", v: 1 } as const

export interface Journal {
  readonly file: string
  /** each line fdatasync'ed before `append` returns */
  readonly durable: boolean
  /** appends one line (without its newline); throws when it could not be written */
  readonly append: (line: string) => void
  readonly close: () => void
}

export interface Replayed {
  readonly journal: Journal
  /** events replayed */
  readonly events: number
  /** bytes of a torn last line that were cut off (0 = none) */
  readonly tornBytes: number
}

const lock = (file: string) => {
  try {
    return lockPath(file, (holder) =>
      holder === process.pid
        ? `the sandbox bank's journal ${file} is already open in this process`
        : `the sandbox bank's journal ${file} is in use by process ${holder} (one bank per journal: ` +
          `point other processes at that bank with CORE_BANKING_URL)`)
  } catch (error) {
    throw new JournalError({ message: error instanceof Error ? error.message : `could not lock the sandbox bank's journal ${file}`, cause: error })
  }
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * Opens (creating it and its directory when missing) the journal at `file`, replays every event
 * through `replay` (in order), and returns it ready for appends.
 */
export const openJournal = (file: string, replay: (event: unknown) => void, options: { readonly durable?: boolean } = {}): Replayed => {
  const absolute = path.resolve(file)
  fs.mkdirSync(path.dirname(absolute), { recursive: true })
  const held = lock(absolute)
  let fd: number | undefined
  try {
    const content = fs.existsSync(absolute) ? fs.readFileSync(absolute, "utf8") : ""
    // the end of the last line that is complete and parses (in UTF-16 units of `content`); what follows is a torn write
    let good = 0
    let events = 0
    let start = 0
    let line = 0
    while (start < content.length) {
      const newline = content.indexOf("\n", start)
      line++
      if (newline === -1) break // no newline: torn
      const text = content.slice(start, newline)
      const event = parse(text)
      if (event === undefined) {
        if (newline + 1 === content.length) break // the last line: torn
        throw new JournalError({ message: `${absolute}, line ${line}: not a JSON event: ${text.slice(0, 200)}` })
      }
      if (line > 1 || (event as { e?: unknown }).e !== JOURNAL_FORMAT.e) {
        try {
          replay(event)
        } catch (cause) {
          throw new JournalError({ message: `${absolute}, line ${line}: ${String((cause as Error).message ?? cause)}`, cause })
        }
        events++
      } else if ((event as { v?: unknown }).v !== JOURNAL_FORMAT.v) {
        throw new JournalError({ message: `${absolute}: journal format ${JSON.stringify(event)}, expected version ${JOURNAL_FORMAT.v}` })
      }
      good = newline + 1
      start = newline + 1
    }
    // the complete lines' size in bytes (a torn line may be cut in the middle of a UTF-8 sequence)
    const goodBytes = good === content.length ? Buffer.byteLength(content) : Buffer.byteLength(content.slice(0, good))
    const tornBytes = fs.existsSync(absolute) ? fs.statSync(absolute).size - goodBytes : 0
    fd = fs.openSync(absolute, "a")
    if (tornBytes > 0) fs.ftruncateSync(fd, goodBytes)
    let size = goodBytes
    const write = (text: string) => {
      const length = Buffer.byteLength(text)
      try {
        const written = fs.writeSync(fd!, text)
        // a short write (rare on a regular file): the rest, as bytes
        if (written < length) {
          const bytes = Buffer.from(text)
          for (let at = written; at < length;) at += fs.writeSync(fd!, bytes, at, length - at)
        }
        // durable: on the disk before the answer leaves, not only in the page cache (DURABLE_WRITES)
        if (options.durable === true) fs.fdatasyncSync(fd!)
        size += length
      } catch (error) {
        // a partial line would break the next one: cut the file back to where it was
        try {
          fs.ftruncateSync(fd!, size)
        } catch {
          // the write already failed; the replay will cut a torn last line anyway
        }
        throw error
      }
    }
    if (size === 0) write(`${JSON.stringify(JOURNAL_FORMAT)}\n`)
    const opened = fd
    let closed = false
    return {
      events,
      tornBytes,
      journal: {
        file: absolute,
        durable: options.durable === true,
        append: (text) => {
          if (closed) throw new Error(`the sandbox bank's journal ${absolute} is closed`)
          write(`${text}\n`)
        },
        close: () => {
          if (closed) return
          closed = true
          fs.closeSync(opened)
          held.release()
        }
      }
    }
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd)
    held.release()
    throw error instanceof JournalError ? error : new JournalError({ message: `${absolute}: ${String(error)}`, cause: error })
  }
}
