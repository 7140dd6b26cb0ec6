import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Staff alerts (Alerts.AlertRepo): conditions an operator must act on. One OPEN alert per dedup key
 * (a partial unique index), so concurrent raises of one condition count occurrences on one row;
 * acknowledged alerts are kept. No foreign keys: an alert must outlive anything it names.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE staff_alerts (
      id uuid PRIMARY KEY,
      kind text NOT NULL,
      severity text NOT NULL CHECK (severity IN ('critical', 'warning')),
      dedup_key text NOT NULL,
      customer_id uuid,
      transaction_id uuid,
      message text NOT NULL,
      occurrences integer NOT NULL DEFAULT 1 CHECK (occurrences >= 1),
      first_raised_at timestamptz NOT NULL,
      last_raised_at timestamptz NOT NULL,
      acknowledged_at timestamptz,
      acknowledged_by text,
      CHECK ((acknowledged_at IS NULL) = (acknowledged_by IS NULL))
    )`
  yield* sql`CREATE UNIQUE INDEX staff_alerts_open_dedup_key ON staff_alerts (dedup_key) WHERE acknowledged_at IS NULL`
  // listOpen
  yield* sql`CREATE INDEX staff_alerts_open_idx ON staff_alerts (last_raised_at DESC, id DESC) WHERE acknowledged_at IS NULL`
})
