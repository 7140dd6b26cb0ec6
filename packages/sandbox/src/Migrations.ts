/**
 * The sandbox bank's own tables (prefix `sandbox_`) and migration history (`sandbox_migrations`),
 * so it can share the service's database (embedded mode) without touching the service's schema.
 * Ids are only ever appended. Amounts are int8 kobo; both SQL clients return int8 as strings.
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

const m0001_sandbox_bank = Effect.gen(function*() {
  const sql = (yield* SqlClient.SqlClient).withoutTransforms()
  // One row: the bank's settlement account, what left through NIP, and what came in.
  yield* sql`
    CREATE TABLE sandbox_ledger (
      id integer PRIMARY KEY CHECK (id = 1),
      settlement int8 NOT NULL DEFAULT 0,
      paid_out int8 NOT NULL DEFAULT 0 CHECK (paid_out >= 0),
      deposits int8 NOT NULL DEFAULT 0 CHECK (deposits >= 0)
    )`
  yield* sql`INSERT INTO sandbox_ledger (id) VALUES (1)`
  yield* sql`CREATE SEQUENCE sandbox_account_serial`
  yield* sql`CREATE SEQUENCE sandbox_reference_serial`
  yield* sql`
    CREATE TABLE sandbox_accounts (
      account_number text PRIMARY KEY CHECK (account_number ~ '^[0-9]{10}$'),
      customer_reference text NOT NULL UNIQUE,
      account_name text NOT NULL,
      first_name text NOT NULL,
      last_name text NOT NULL,
      other_names text,
      phone text NOT NULL,
      email text NOT NULL,
      date_of_birth text NOT NULL,
      gender text,
      balance int8 NOT NULL DEFAULT 0 CHECK (balance >= 0),
      pnd_active boolean NOT NULL DEFAULT true,
      frozen boolean NOT NULL DEFAULT false,
      freeze_reference text,
      freeze_reason text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE sandbox_liens (
      account_number text NOT NULL REFERENCES sandbox_accounts (account_number),
      reference text NOT NULL,
      amount int8 NOT NULL CHECK (amount > 0),
      reason text NOT NULL,
      placed_at timestamptz NOT NULL DEFAULT now(),
      removed_at timestamptz,
      PRIMARY KEY (account_number, reference)
    )`
  // Every debit, credit, transfer and deposit, keyed by its reference, with its first answer.
  yield* sql`
    CREATE TABLE sandbox_operations (
      reference text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('debit', 'credit', 'transfer', 'deposit')),
      account_number text,
      amount int8 NOT NULL CHECK (amount > 0),
      destination_account_number text,
      destination_bank_code text,
      destination_account_name text,
      name_enquiry_session_id text,
      narration text NOT NULL,
      status text NOT NULL CHECK (status IN ('Successful', 'Failed', 'Pending', 'Reversed')),
      response_code text NOT NULL,
      response_message text NOT NULL,
      money_out boolean NOT NULL DEFAULT false,
      requery_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE sandbox_postings (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      reference text NOT NULL UNIQUE,
      account_number text NOT NULL REFERENCES sandbox_accounts (account_number),
      type text NOT NULL CHECK (type IN ('C', 'D')),
      amount int8 NOT NULL CHECK (amount > 0),
      narration text NOT NULL,
      channel text NOT NULL CHECK (channel IN ('nip_inbound', 'core_debit', 'core_credit', 'nip_outbound')),
      counterparty_name text,
      counterparty_account_number text,
      counterparty_bank_code text,
      posted_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX sandbox_postings_account_idx ON sandbox_postings (account_number, posted_at DESC, id DESC)`
  yield* sql`
    CREATE TABLE sandbox_name_enquiries (
      session_id text PRIMARY KEY,
      account_number text NOT NULL,
      bank_code text NOT NULL,
      account_name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
})

export const sandboxMigrations = Migrator.fromRecord({
  "0001_sandbox_bank": m0001_sandbox_bank
})

/** Applies the sandbox's pending migrations (history in `sandbox_migrations`). */
export const runSandboxMigrations = Migrator.make({})({ loader: sandboxMigrations, table: "sandbox_migrations" })
