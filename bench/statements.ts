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

export const installPgStatementStats = () => {
  if (installed) return
  installed = true
  const proto = pg.Client.prototype as unknown as { query: (...args: Array<unknown>) => unknown }
  const original = proto.query
  proto.query = function(this: unknown, ...args: Array<unknown>) {
    const first = args[0]
    const text = typeof first === "string" ? first : (first as { text?: unknown } | null)?.text
    if (typeof text !== "string" || text.trim() === "SELECT 1") return original.apply(this, args)
    const start = performance.now()
    const done = () => {
      const elapsed = performance.now() - start
      const bucket = CONTROL.test(text.trimStart().toUpperCase()) ? dbStats.control : dbStats.service
      bucket.n++
      bucket.ms += elapsed
      record(dbShapes, text.replace(/\s+/g, " ").trim().slice(0, 70), elapsed)
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
