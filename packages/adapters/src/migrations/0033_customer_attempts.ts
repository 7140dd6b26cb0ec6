import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Counted attempts of throttled customer actions (Throttle.AttemptLog): failed BVN verifications,
 * and the provider look-ups (name enquiry, BVN) a customer may make per window. `subject` is the
 * account id (text: the log stays generic); rows are deleted by the housekeeping job once older
 * than any window. No foreign key: a deleted account's attempts simply age out.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE customer_attempts (
      id uuid PRIMARY KEY,
      subject text NOT NULL,
      kind text NOT NULL,
      at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX customer_attempts_subject_kind_at_idx ON customer_attempts (subject, kind, at)`
  yield* sql`CREATE INDEX customer_attempts_at_idx ON customer_attempts (at)`
})
