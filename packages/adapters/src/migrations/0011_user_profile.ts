import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * The web profile (GET/PATCH /users/profile): a display name and a WhatsApp number, apart from the
 * legal names and the verified phone that KYC sets.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE accounts ADD COLUMN display_name text`
  yield* sql`ALTER TABLE accounts ADD COLUMN whatsapp_number text`
})
