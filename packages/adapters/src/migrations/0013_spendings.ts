import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * The spending log, and the claims of the monthly report: one row per (customer, month) whose
 * report a scheduler run took on. The primary key is what makes it at most once across processes
 * (INSERT … ON CONFLICT DO NOTHING: one inserter wins).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE spendings (
      id uuid PRIMARY KEY,
      customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
      amount_kobo int8 NOT NULL CHECK (amount_kobo > 0 AND amount_kobo <= 100000000000),
      category text NOT NULL CHECK (char_length(category) BETWEEN 1 AND 40),
      description text CHECK (description IS NULL OR char_length(description) BETWEEN 1 AND 280),
      spent_on date NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  // the list (newest date first) and the report of a customer
  yield* sql`CREATE INDEX spendings_customer_date_idx ON spendings (customer_id, spent_on DESC, created_at DESC, id DESC)`
  // the monthly job: who spent in a month
  yield* sql`CREATE INDEX spendings_date_customer_idx ON spendings (spent_on, customer_id)`
  yield* sql`
    CREATE TABLE spending_report_claims (
      customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
      month text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
      claimed_at timestamptz NOT NULL,
      PRIMARY KEY (customer_id, month)
    )`
})
