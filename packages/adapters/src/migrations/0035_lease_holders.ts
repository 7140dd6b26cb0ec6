import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Leases carry their holder's process identity (issue 41): every process that takes leases
 * registers in `lease_holders` and heartbeats there (concurrency/LeaseHolder.ts); a movement's or a
 * plan's `lease_holder` names the process that leased it. A lease whose holder stopped heartbeating
 * (or is gone from the table) is free before its `lease_until`: on the embedded database the only
 * writer of the data directory removes its dead predecessor at start-up, so a movement cut short
 * by a SIGKILL is recovered at once instead of blocking its customer for the 2-minute lease.
 * Rows leased before this migration have no holder and keep the plain lease.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE lease_holders (
      id text PRIMARY KEY,
      pid integer NOT NULL,
      host text NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now(),
      heartbeat_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`ALTER TABLE transactions ADD COLUMN lease_holder text`
  yield* sql`ALTER TABLE disbursement_plans ADD COLUMN lease_holder text`
})
