import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * An operator's resolution of a movement the saga could not finish (its reversal refused by the
 * bank): what staff established with the bank (`credited_back`: the customer's money was given back
 * by hand; `delivered`: the bank confirmed the transfer reached the destination), who recorded it
 * and who approved it under four-eyes, with their note. One per movement (the primary key): a
 * movement is resolved at most once. No foreign key to `transactions`: a customer's deletion moves
 * their transactions to the retention store, and the record of what staff did stays (ids, the
 * outcome and staff's note: no personal data).
 *
 * Four-eyes requests may now also be `movement.resolve`.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE movement_resolutions (
      transaction_id uuid PRIMARY KEY,
      customer_id uuid NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('credited_back', 'delivered')),
      note text NOT NULL CHECK (char_length(note) BETWEEN 1 AND 1000),
      requested_by uuid NOT NULL REFERENCES staff (id),
      resolved_by uuid NOT NULL REFERENCES staff (id),
      resolved_at timestamptz NOT NULL
    )`
  yield* sql`ALTER TABLE staff_approvals DROP CONSTRAINT IF EXISTS staff_approvals_kind_check`
  yield* sql`
    ALTER TABLE staff_approvals ADD CONSTRAINT staff_approvals_kind_check
      CHECK (kind IN ('settings.update', 'customer.unfreeze', 'movement.resolve'))`
})
