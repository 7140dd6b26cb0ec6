import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Money movements out of the account (TransferRepo): a transfer is a `transactions` row of type
 * 'transfer' carrying its request and its saga journal. Every new column is nullable or has a
 * default, so deposit rows stay valid (`restored` defaults to true: no saga work left).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE transactions
      ADD COLUMN source_account_number text,
      ADD COLUMN destination_account_number text,
      ADD COLUMN destination_bank_code text,
      ADD COLUMN destination_bank_name text,
      ADD COLUMN destination_account_name text,
      ADD COLUMN name_enquiry_session_id text,
      ADD COLUMN narration text,
      ADD COLUMN idempotency_key text,
      ADD COLUMN request_hash text,
      ADD COLUMN pnd_lifted boolean NOT NULL DEFAULT false,
      ADD COLUMN lien_placed boolean NOT NULL DEFAULT false,
      ADD COLUMN debit_state text NOT NULL DEFAULT 'none'
        CHECK (debit_state IN ('none', 'attempted', 'applied', 'refused')),
      ADD COLUMN transfer_state text NOT NULL DEFAULT 'none'
        CHECK (transfer_state IN ('none', 'attempted', 'successful', 'pending', 'failed')),
      ADD COLUMN reversal_state text NOT NULL DEFAULT 'none'
        CHECK (reversal_state IN ('none', 'attempted', 'applied')),
      ADD COLUMN restored boolean NOT NULL DEFAULT true,
      ADD COLUMN next_attempt_at timestamptz,
      ADD COLUMN lease_until timestamptz`
  // a transfer row always carries its whole request
  yield* sql`
    ALTER TABLE transactions ADD CONSTRAINT transactions_transfer_fields_check CHECK (
      type <> 'transfer' OR (
        source_account_number IS NOT NULL AND destination_account_number IS NOT NULL
        AND destination_bank_code IS NOT NULL AND destination_bank_name IS NOT NULL
        AND destination_account_name IS NOT NULL AND name_enquiry_session_id IS NOT NULL
        AND narration IS NOT NULL AND idempotency_key IS NOT NULL AND request_hash IS NOT NULL
      )
    )`
  // a movement whose account is not yet put back (PND active, lien removed)
  yield* sql`
    ALTER TABLE transactions
      ADD COLUMN in_flight boolean GENERATED ALWAYS AS (type = 'transfer' AND status = 'pending' AND NOT restored) STORED`
  // one movement in flight per customer, across processes
  yield* sql`CREATE UNIQUE INDEX transactions_one_in_flight_key ON transactions (customer_id) WHERE in_flight`
  yield* sql`
    CREATE UNIQUE INDEX transactions_customer_idempotency_key ON transactions (customer_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL`
  // due work: requeries of pending transfers, and sagas whose driver's lease expired
  yield* sql`
    CREATE INDEX transactions_transfer_next_attempt_idx ON transactions (next_attempt_at)
    WHERE type = 'transfer' AND status = 'pending'`
  yield* sql`CREATE INDEX transactions_in_flight_lease_idx ON transactions (lease_until) WHERE in_flight`
})
