import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Security hardening (issue 37):
 * - `accounts.session_version`: customer access tokens carry the version they were issued under
 *   (claim `sv`) and are refused once it moves on; it moves when every session of an account is
 *   revoked (a provider identity taking over an unverified account). Read with the account row
 *   every authenticated request already reads: no extra statement.
 * - `staff.token_version`: the same for staff tokens (claim `sv`); it moves on a password set or
 *   reset, an email, role or status change and a sign-out.
 * - `auth_throttles`: one row per throttle key (a customer account's sign-in, a client address's
 *   sign-ins, an account's one-time-code checks): tries counted in a window and the end of a block.
 *   Counted with one atomic upsert per check, shared by every API process.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE accounts ADD COLUMN session_version integer NOT NULL DEFAULT 0`
  yield* sql`ALTER TABLE staff ADD COLUMN token_version integer NOT NULL DEFAULT 0`
  yield* sql`
    CREATE TABLE auth_throttles (
      key text PRIMARY KEY,
      tries integer NOT NULL,
      window_started_at timestamptz NOT NULL,
      blocked_until timestamptz
    )`
  yield* sql`CREATE INDEX auth_throttles_window_idx ON auth_throttles (window_started_at)`
})
