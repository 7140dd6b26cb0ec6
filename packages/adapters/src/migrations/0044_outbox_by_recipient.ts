import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * The messages queued for one address, newest first: a customer's message log in the back office
 * (admin/CustomerMessageLogSql.ts) and an account's erasure both select `notification_outbox` by
 * recipient. Sent rows stay in the table, so without this index each of those reads the whole of it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX notification_outbox_recipient ON notification_outbox (recipient, created_at DESC)`
})
