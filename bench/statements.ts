/**
 * Diagnostic only: every statement node-postgres sends from this process (the service on
 * PostgreSQL), counted and timed into the same `dbStats` / `dbShapes` as the PGlite hook of
 * support.ts, so a benchmark prints statements per unit of work on either database. The time is the
 * round trip as the caller sees it (network, server and pool wait included), not main-thread time.
 * The benchmarks' own probe (`SELECT 1`) is left out.
 */
import pg from "pg"
import { performance } from "node:perf_hooks"
import { dbShapes, dbStats, record } from "./support.js"

const CONTROL = /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET TRANSACTION|START TRANSACTION)/

let installed = false

/**
 * A statement text's shape and kind, worked out once per text: the texts are the code's few dozen,
 * and reworking a long INSERT's text for every statement cost the service's CPU, which the
 * benchmarks measure.
 */
const shapes = new Map<string, { readonly control: boolean; readonly shape: string }>()
const shapeOf = (text: string) => {
  let known = shapes.get(text)
  if (known === undefined) {
    known = { control: CONTROL.test(text.trimStart().toUpperCase()), shape: text.replace(/\s+/g, " ").trim().slice(0, 70) }
    if (shapes.size < 10_000) shapes.set(text, known)
  }
  return known
}

export const installPgStatementStats = () => {
  if (installed) return
  installed = true
  const proto = pg.Client.prototype as unknown as { query: (...args: Array<unknown>) => unknown }
  const original = proto.query
  proto.query = function(this: unknown, ...args: Array<unknown>) {
    const first = args[0]
    const text = typeof first === "string" ? first : (first as { text?: unknown } | null)?.text
    // (the probe's text is short: a long statement's text is not copied by trim() to find out)
    if (typeof text !== "string" || (text.length < 16 && text.trim() === "SELECT 1")) return original.apply(this, args)
    const start = performance.now()
    const done = () => {
      const elapsed = performance.now() - start
      const { control, shape } = shapeOf(text)
      const bucket = control ? dbStats.control : dbStats.service
      bucket.n++
      bucket.ms += elapsed
      record(dbShapes, shape, elapsed)
    }
    const last = args.length - 1
    if (typeof args[last] === "function") {
      const callback = args[last] as (...a: Array<unknown>) => unknown
      args[last] = (...a: Array<unknown>) => {
        done()
        return callback(...a)
      }
      return original.apply(this, args)
    }
    const result = original.apply(this, args)
    if (result !== null && typeof result === "object" && typeof (result as Promise<unknown>).then === "function") {
      ;(result as Promise<unknown>).then(done, done)
    } else {
      // a submittable (a cursor): counted when sent
      done()
    }
    return result
  }
}
