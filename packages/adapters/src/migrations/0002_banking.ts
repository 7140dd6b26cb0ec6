import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE customers
      ADD COLUMN bvn_hash text,
      ADD COLUMN core_account_number text,
      ADD COLUMN core_account_reference text,
      ADD COLUMN first_deposit_at timestamptz`
  yield* sql`ALTER TABLE customers ADD CONSTRAINT customers_bvn_hash_key UNIQUE (bvn_hash)`
  yield* sql`ALTER TABLE customers ADD CONSTRAINT customers_core_account_number_key UNIQUE (core_account_number)`
  yield* sql`
    CREATE TABLE transactions (
      id uuid PRIMARY KEY,
      customer_id uuid NOT NULL REFERENCES customers (id),
      plan_id uuid,
      type text NOT NULL CHECK (type IN ('credit', 'debit', 'transfer')),
      purpose text NOT NULL CHECK (purpose IN ('deposit', 'manual_transfer', 'disbursement', 'early_withdrawal')),
      amount_kobo int8 NOT NULL CHECK (amount_kobo >= 0),
      fee_kobo int8 NOT NULL DEFAULT 0 CHECK (fee_kobo >= 0),
      status text NOT NULL CHECK (status IN ('pending', 'confirmed', 'failed')),
      retrieval_reference text,
      transfer_reference text,
      provider_reference text,
      failure_reason text,
      retry_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT transactions_customer_provider_reference_key UNIQUE (customer_id, provider_reference)
    )`
  yield* sql`CREATE INDEX transactions_customer_created_idx ON transactions (customer_id, created_at DESC, id DESC)`
  yield* sql`
    CREATE TABLE beneficiaries (
      id uuid PRIMARY KEY,
      customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
      account_number text NOT NULL,
      bank_code text NOT NULL,
      bank_name text NOT NULL,
      account_name text NOT NULL,
      is_default boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      CONSTRAINT beneficiaries_customer_account_key UNIQUE (customer_id, account_number, bank_code)
    )`
  // at most one default per customer
  yield* sql`CREATE UNIQUE INDEX beneficiaries_one_default_key ON beneficiaries (customer_id) WHERE is_default`
})
