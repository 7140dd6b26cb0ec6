import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Staff freezes of customers (their provider step may wait for a movement in flight: the lease lets
 * one process take it) and four-eyes approvals of settings changes and unfreezes.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE customer_freezes (
      id uuid PRIMARY KEY,
      customer_id uuid NOT NULL REFERENCES customers (id),
      staff_id uuid REFERENCES staff (id),
      reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
      previous_status text NOT NULL,
      state text NOT NULL
        CHECK (state IN ('pending_provider', 'frozen', 'no_core_account', 'provider_failed', 'provider_unknown')),
      provider_reference text,
      requested_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      lifted_at timestamptz,
      lifted_by uuid REFERENCES staff (id),
      lease_until timestamptz
    )`
  // at most one open freeze per customer
  yield* sql`CREATE UNIQUE INDEX customer_freezes_open_key ON customer_freezes (customer_id) WHERE lifted_at IS NULL`
  yield* sql`
    CREATE INDEX customer_freezes_pending_idx ON customer_freezes (requested_at)
    WHERE state = 'pending_provider' AND lifted_at IS NULL`
  yield* sql`
    CREATE TABLE staff_approvals (
      id uuid PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('settings.update', 'customer.unfreeze')),
      action jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
      requested_by uuid NOT NULL REFERENCES staff (id),
      requested_at timestamptz NOT NULL,
      decided_by uuid REFERENCES staff (id),
      decided_at timestamptz,
      note text CHECK (note IS NULL OR char_length(note) <= 1000)
    )`
  yield* sql`CREATE INDEX staff_approvals_status_idx ON staff_approvals (status, requested_at DESC, id DESC)`
})
