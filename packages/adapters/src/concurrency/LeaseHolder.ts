/**
 * This process as a holder of leases (issue 41): a row in `lease_holders` (migration 0035) with a
 * heartbeat, and the id the repositories write into the `lease_holder` of what they lease.
 *
 * - Every HEARTBEAT the row's `heartbeat_at` is set to the database's now(); a row that went missing
 *   (deemed dead by a peer while this process stalled) is put back.
 * - A lease is free when its `lease_until` has passed OR its holder has not heartbeated for
 *   STALE_AFTER (or is no longer registered): `freeLease` is that condition, in SQL, for the claims.
 *   A stalled holder that comes back is harmless: movements are fenced by their epoch.
 * - On the embedded database (PGlite: one process, and the data directory's lock says which) the
 *   process is the only writer, so every other registered holder is a dead predecessor (a SIGKILL,
 *   a crash): they are removed at start-up, and their leases are free at once.
 * - On PostgreSQL with several processes nobody can tell a dead peer from a slow one but by its
 *   silence: its leases are free STALE_AFTER after its last heartbeat, well before the lease ends.
 * - A clean stop removes the row (its leases were given back already; anything left is free at once).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Clock, Context, Duration, Effect, Layer, Schedule } from "effect"
import { randomUUID } from "node:crypto"
import * as os from "node:os"
import { orDieDb } from "../sql/SqlSupport.js"

export const HEARTBEAT = Duration.seconds(5)
export const STALE_AFTER = Duration.seconds(20)

export class LeaseHolder extends Context.Tag("adapters/LeaseHolder")<LeaseHolder, {
  /** this process's holder id, written into `lease_holder` */
  readonly id: string
}>() {}

/**
 * The SQL condition "the lease of the row `alias` is free": expired, or held by a process that no
 * longer heartbeats. A row with no holder (leased before migration 0035) keeps the plain lease.
 */
export const freeLease = (sql: SqlClient.SqlClient, alias?: string) => {
  const column = (name: string) => (alias === undefined ? sql(name) : sql`${sql(alias)}.${sql(name)}`)
  return sql`(${column("lease_until")} IS NULL OR ${column("lease_until")} < now() OR (${column("lease_holder")} IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM lease_holders h
    WHERE h.id = ${column("lease_holder")} AND h.heartbeat_at > now() - (${Duration.toMillis(STALE_AFTER)}::float8 * interval '1 millisecond'))))`
}

export const LeaseHolderLive = Layer.scoped(
  LeaseHolder,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
    const register = sql`
      INSERT INTO lease_holders (id, pid, host) VALUES (${id}, ${process.pid}, ${os.hostname()})
      ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`
    const embedded = yield* sql<{ readonly embedded: boolean }>`SELECT version() LIKE '%PGlite%' AS embedded`.pipe(
      Effect.map((rows) => rows[0]?.embedded === true)
    )
    const gone = embedded
      // the only writer of its data directory: every other holder is a dead predecessor
      ? yield* sql<{ readonly id: string }>`DELETE FROM lease_holders WHERE id <> ${id} RETURNING id`
      // holders silent for long are gone for good (their leases are free either way)
      : yield* sql<{ readonly id: string }>`DELETE FROM lease_holders WHERE heartbeat_at < now() - interval '1 day' RETURNING id`
    yield* register
    if (embedded && gone.length > 0) {
      yield* Effect.logInfo("leases of a process that stopped without giving them back are free").pipe(
        Effect.annotateLogs({ holders: gone.map((g) => g.id) })
      )
    }
    const beat = sql`UPDATE lease_holders SET heartbeat_at = now() WHERE id = ${id} RETURNING id`.pipe(
      Effect.flatMap((rows) => (rows.length === 0 ? Effect.asVoid(register) : Effect.void)),
      Effect.catchAllCause((cause) => Effect.logWarning("lease heartbeat failed").pipe(Effect.annotateLogs({ cause: String(cause) })))
    )
    // on the real clock whatever the context's (a test's TestClock must not stop or race it)
    yield* Effect.forkScoped(Effect.withClock(Effect.repeat(beat, Schedule.spaced(HEARTBEAT)), Clock.make()))
    yield* Effect.addFinalizer(() => sql`DELETE FROM lease_holders WHERE id = ${id}`.pipe(Effect.ignore))
    return { id }
  }).pipe(orDieDb)
)
