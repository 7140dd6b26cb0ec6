import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * The saga journal's fencing and freshness (Transfers.drive): `epoch`, bumped by every claim and
 * named by every journal write; `name_enquiry_at`, the age of the NIP session a transfer will quote;
 * and the `refused` state of a reversal the bank would not make (it waits for an operator).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE transactions
      ADD COLUMN epoch integer NOT NULL DEFAULT 0,
      ADD COLUMN name_enquiry_at timestamptz`
  yield* sql`ALTER TABLE transactions DROP CONSTRAINT transactions_reversal_state_check`
  yield* sql`
    ALTER TABLE transactions ADD CONSTRAINT transactions_reversal_state_check
      CHECK (reversal_state IN ('none', 'attempted', 'applied', 'refused'))`
})
