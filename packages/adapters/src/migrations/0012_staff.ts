import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Staff records, apart from customers. Only what the customer side reads today (social sign-in
 * refuses staff emails: StaffDirectory); the back office adds names, roles and credentials.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE staff (
      id uuid PRIMARY KEY,
      email text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL
    )`
})
