import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * The back office's customer directory: a last-known balance per customer (written whenever the
 * provider's account is read: profile, balance, sync, payouts), so staff can sort by it without
 * asking the bank for every row; and the customer's account officer (a staff member).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE customers
      ADD COLUMN last_known_balance_kobo bigint,
      ADD COLUMN balance_seen_at timestamptz,
      ADD COLUMN officer_id uuid REFERENCES staff (id)`
  yield* sql`CREATE INDEX customers_balance_idx ON customers (last_known_balance_kobo)`
  yield* sql`CREATE INDEX customers_officer_idx ON customers (officer_id) WHERE officer_id IS NOT NULL`
  yield* sql`CREATE INDEX customers_created_idx ON customers (created_at, id)`
})
