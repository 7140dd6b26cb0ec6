/**
 * The one ordered set of migrations, shared by PGlite and PostgreSQL. The @effect/sql Migrator
 * records only the highest applied id, so ids are unique and only ever appended.
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

const m0001_accounts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE accounts (
      id uuid PRIMARY KEY,
      email text NOT NULL,
      phone text,
      password_hash text,
      first_name text,
      last_name text,
      other_names text,
      date_of_birth date,
      gender text CHECK (gender IN ('male', 'female')),
      address text,
      email_verified boolean NOT NULL DEFAULT false,
      phone_verified boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE UNIQUE INDEX accounts_email_key ON accounts (email)`
  yield* sql`CREATE UNIQUE INDEX accounts_phone_key ON accounts (phone) WHERE phone IS NOT NULL`
  yield* sql`
    CREATE TABLE customers (
      id uuid PRIMARY KEY,
      account_id uuid NOT NULL UNIQUE REFERENCES accounts (id),
      customer_status text NOT NULL
        CHECK (customer_status IN ('unverified', 'verified', 'active', 'suspended', 'closed', 'deleted')),
      kyc_status text NOT NULL CHECK (kyc_status IN ('pending', 'bvn_verified', 'fully_verified')),
      referral_code text NOT NULL,
      referred_by uuid REFERENCES customers (id),
      pin_hash text,
      sms_enabled boolean NOT NULL DEFAULT true,
      email_enabled boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE UNIQUE INDEX customers_referral_code_key ON customers (referral_code)`
  yield* sql`
    CREATE TABLE one_time_codes (
      id uuid PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      channel text NOT NULL CHECK (channel IN ('email', 'sms')),
      purpose text NOT NULL,
      destination text NOT NULL,
      code_hash text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      max_attempts integer NOT NULL,
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz,
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX one_time_codes_latest_idx ON one_time_codes (account_id, purpose, created_at DESC)`
  yield* sql`
    CREATE TABLE refresh_tokens (
      id uuid PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      family_id uuid NOT NULL,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id)`
  yield* sql`CREATE INDEX refresh_tokens_account_idx ON refresh_tokens (account_id)`
})

const m0002_banking = Effect.gen(function*() {
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

export const migrations = Migrator.fromRecord({
  "0001_accounts": m0001_accounts,
  "0002_banking": m0002_banking
})

/** Applies every pending migration; returns the ids and names applied by this run. */
export const runMigrations = Migrator.make({})({ loader: migrations })
