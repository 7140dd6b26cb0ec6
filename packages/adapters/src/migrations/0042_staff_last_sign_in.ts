import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * When each staff member last signed in (with a password or through a link), for the staff list
 * (GET /admin/staff). Null for a member who has not signed in since this column exists.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE staff ADD COLUMN last_sign_in_at timestamp with time zone`
})
