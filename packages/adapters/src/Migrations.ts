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

/**
 * Money movements out of the account (TransferRepo): a transfer is a `transactions` row of type
 * 'transfer' carrying its request and its saga journal. Every new column is nullable or has a
 * default, so deposit rows stay valid (`restored` defaults to true: no saga work left).
 */
const m0003_transfers = Effect.gen(function*() {
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

const m0004_app_settings = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE app_settings (
      key text PRIMARY KEY,
      value jsonb NOT NULL,
      updated_at timestamptz NOT NULL
    )`
})

/**
 * Disbursement plans (PlanRepo), their instalments, and notices to customers (NoticeRepo); and the
 * reserve a movement must leave in the wallet (Extra Cash keeps the plan's remaining payouts).
 */
const m0005_plans = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE transactions ADD COLUMN reserve_kobo int8 NOT NULL DEFAULT 0 CHECK (reserve_kobo >= 0)`
  // countMovements: a plan's movements of one purpose
  yield* sql`CREATE INDEX transactions_plan_purpose_idx ON transactions (plan_id, purpose, created_at) WHERE plan_id IS NOT NULL`
  yield* sql`
    CREATE TABLE disbursement_plans (
      id uuid PRIMARY KEY,
      customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
      total_amount_kobo int8 NOT NULL CHECK (total_amount_kobo >= 0),
      duration_days integer NOT NULL,
      frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly')),
      week_day text
        CHECK (week_day IN ('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday')),
      scheduled_time text NOT NULL,
      time_zone text NOT NULL,
      withdrawal_account_number text NOT NULL,
      withdrawal_bank_code text NOT NULL,
      withdrawal_bank_name text NOT NULL,
      withdrawal_account_name text NOT NULL,
      name_enquiry_session_id text NOT NULL,
      state text NOT NULL CHECK (state IN ('awaiting_funds', 'active', 'depleted', 'paused', 'completed')),
      cycle_count integer NOT NULL,
      cycle_base integer NOT NULL DEFAULT 0,
      next_cycle integer NOT NULL DEFAULT 0,
      anchor_date text,
      next_due_at timestamptz,
      borrow_count integer NOT NULL DEFAULT 0,
      lease_until timestamptz,
      version integer NOT NULL DEFAULT 0,
      activated_at timestamptz,
      completed_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  // one plan that is not completed per customer, across processes
  yield* sql`CREATE UNIQUE INDEX disbursement_plans_one_open_key ON disbursement_plans (customer_id) WHERE state <> 'completed'`
  // claimDue, claimInactive
  yield* sql`CREATE INDEX disbursement_plans_due_idx ON disbursement_plans (next_due_at) WHERE state = 'active'`
  yield* sql`
    CREATE INDEX disbursement_plans_inactive_idx ON disbursement_plans (updated_at, id)
    WHERE state IN ('awaiting_funds', 'depleted')`
  yield* sql`CREATE INDEX disbursement_plans_customer_created_idx ON disbursement_plans (customer_id, created_at DESC)`
  yield* sql`
    CREATE TABLE plan_instalments (
      plan_id uuid NOT NULL REFERENCES disbursement_plans (id) ON DELETE CASCADE,
      cycle integer NOT NULL,
      amount_kobo int8 NOT NULL CHECK (amount_kobo >= 0),
      kind text NOT NULL CHECK (kind IN ('scheduled', 'borrow')),
      status text NOT NULL CHECK (status IN ('open', 'paid')),
      attempts integer NOT NULL DEFAULT 0,
      transaction_id uuid,
      due_at timestamptz NOT NULL,
      paid_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (plan_id, cycle)
    )`
  yield* sql`CREATE INDEX plan_instalments_open_transaction_idx ON plan_instalments (transaction_id) WHERE status = 'open'`
  yield* sql`
    CREATE TABLE notices (
      id uuid PRIMARY KEY,
      customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
      plan_id uuid,
      transaction_id uuid,
      kind text NOT NULL,
      message text NOT NULL,
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX notices_customer_created_idx ON notices (customer_id, created_at DESC, id DESC)`
})

/**
 * Staff alerts (Alerts.AlertRepo): conditions an operator must act on. One OPEN alert per dedup key
 * (a partial unique index), so concurrent raises of one condition count occurrences on one row;
 * acknowledged alerts are kept. No foreign keys: an alert must outlive anything it names.
 */
const m0006_staff_alerts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE staff_alerts (
      id uuid PRIMARY KEY,
      kind text NOT NULL,
      severity text NOT NULL CHECK (severity IN ('critical', 'warning')),
      dedup_key text NOT NULL,
      customer_id uuid,
      transaction_id uuid,
      message text NOT NULL,
      occurrences integer NOT NULL DEFAULT 1 CHECK (occurrences >= 1),
      first_raised_at timestamptz NOT NULL,
      last_raised_at timestamptz NOT NULL,
      acknowledged_at timestamptz,
      acknowledged_by text,
      CHECK ((acknowledged_at IS NULL) = (acknowledged_by IS NULL))
    )`
  yield* sql`CREATE UNIQUE INDEX staff_alerts_open_dedup_key ON staff_alerts (dedup_key) WHERE acknowledged_at IS NULL`
  // listOpen
  yield* sql`CREATE INDEX staff_alerts_open_idx ON staff_alerts (last_raised_at DESC, id DESC) WHERE acknowledged_at IS NULL`
})

/**
 * The saga journal's fencing and freshness (Transfers.drive): `epoch`, bumped by every claim and
 * named by every journal write; `name_enquiry_at`, the age of the NIP session a transfer will quote;
 * and the `refused` state of a reversal the bank would not make (it waits for an operator).
 */
const m0007_saga_fencing = Effect.gen(function*() {
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

export const migrations = Migrator.fromRecord({
  "0001_accounts": m0001_accounts,
  "0002_banking": m0002_banking,
  "0003_transfers": m0003_transfers,
  "0004_app_settings": m0004_app_settings,
  "0005_plans": m0005_plans,
  "0006_staff_alerts": m0006_staff_alerts,
  "0007_saga_fencing": m0007_saga_fencing
})

/** Applies every pending migration; returns the ids and names applied by this run. */
export const runMigrations = Migrator.make({})({ loader: migrations })
