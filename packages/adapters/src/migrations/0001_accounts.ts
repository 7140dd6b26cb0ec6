import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

export default Effect.gen(function*() {
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
