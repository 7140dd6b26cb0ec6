import * as SqlClient from "@effect/sql/SqlClient"
import { Clock, Effect } from "effect"

/**
 * One throttle table for every budget (the domain's ThrottleStore): `auth_throttles` (0030: sign-in
 * and one-time codes, one row per key with its count, window and block) becomes `throttles`, and
 * the per-customer attempts of `customer_attempts` (0033: one row per attempt) move into it as
 * counts under the keys `bvn:<account id>` and `ne:<account id>`, then that table goes.
 *
 * Counts in flight are kept: each (customer, kind) with attempts inside its window (BVN failures
 * 24 hours, name enquiries 1 hour) becomes a row counting them from the oldest; 3 BVN failures or
 * more become a block until 24 hours after the last. A name-enquiry budget already full gets its
 * block at its next try (the limit is configured, not known here): one more look-up at most.
 */
/** The per-customer attempts counted in their windows at `now`, as throttle rows (the test runs it on its own). */
export const carryAttempts = (now: Date) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      INSERT INTO throttles (key, tries, window_started_at, blocked_until)
      SELECT
        CASE kind WHEN 'bvn_verification_failure' THEN 'bvn:' ELSE 'ne:' END || subject,
        count(*)::int,
        min(at),
        CASE WHEN kind = 'bvn_verification_failure' AND count(*) >= 3 THEN max(at) + interval '24 hours' END
      FROM customer_attempts
      WHERE (kind = 'bvn_verification_failure' AND at > ${now}::timestamptz - interval '24 hours')
         OR (kind = 'name_enquiry' AND at > ${now}::timestamptz - interval '1 hour')
      GROUP BY kind, subject
      ON CONFLICT (key) DO NOTHING`)

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE auth_throttles RENAME TO throttles`
  yield* sql`ALTER TABLE throttles RENAME CONSTRAINT auth_throttles_pkey TO throttles_pkey`
  yield* sql`ALTER INDEX auth_throttles_window_idx RENAME TO throttles_window_idx`
  yield* carryAttempts(new Date(yield* Clock.currentTimeMillis))
  yield* sql`DROP TABLE customer_attempts`
})
