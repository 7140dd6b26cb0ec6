import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/** Staff review of deletion records (the back office): who reviewed one, when, and their note. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE deletion_records
      ADD COLUMN reviewed_by uuid REFERENCES staff (id),
      ADD COLUMN reviewed_at timestamptz,
      ADD COLUMN review_note text CHECK (review_note IS NULL OR char_length(review_note) <= 2000)`
  yield* sql`CREATE INDEX deletion_records_status_idx ON deletion_records (status, created_at DESC, id DESC)`
})
