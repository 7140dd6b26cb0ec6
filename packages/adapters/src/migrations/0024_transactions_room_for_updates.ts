import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Journal writes of a movement as heap-only updates. A movement's row is written four or five
 * times while it is driven (each step journaled, its lease renewed with it), and each write put
 * a new entry into every one of the table's eight indexes, for two reasons:
 *
 * - `lease_until` was indexed (transactions_in_flight_lease_idx, 0003), so renewing the lease
 *   changed an indexed column. No query uses that index: the claim of due sagas reads the pending
 *   transfers through transactions_transfer_next_attempt_idx (same plan with and without it) and
 *   filters the lease there. Dropped.
 * - the pages were packed full by the inserts (fillfactor 100), so a new version of a row never
 *   fitted on its own page. A quarter of each new page is now kept free.
 *
 * A write that changes no indexed column (the PND, lien, debit and transfer steps) can now stay on
 * its page with no index entries and less WAL; a change of status still updates the indexes.
 * The fillfactor applies to pages written from now on; existing rows are not moved.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX transactions_in_flight_lease_idx`
  yield* sql`ALTER TABLE transactions SET (fillfactor = 75)`
})
