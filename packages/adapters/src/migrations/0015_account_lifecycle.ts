import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Closing and deleting accounts.
 * - customers gain the status `closing` (a closure's sweep is under way), plans the state `closed`
 *   (ended by the account's closure: never claimed by the payout job again);
 * - account_closures: one row per closure attempt, at most one `closing` per customer, the key
 *   unique per customer; a lease for the closure job;
 * - deletion_records: what a deletion left, for staff review (ids and counts, nothing personal);
 * - retained_records: transactions and the KYC record of a deleted customer, keyed by the
 *   deletion (no customer id), purged after retain_until.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE customers DROP CONSTRAINT customers_customer_status_check`
  yield* sql`
    ALTER TABLE customers ADD CONSTRAINT customers_customer_status_check
      CHECK (customer_status IN ('unverified', 'verified', 'active', 'suspended', 'closing', 'closed', 'deleted'))`
  yield* sql`ALTER TABLE disbursement_plans DROP CONSTRAINT disbursement_plans_state_check`
  yield* sql`
    ALTER TABLE disbursement_plans ADD CONSTRAINT disbursement_plans_state_check
      CHECK (state IN ('awaiting_funds', 'active', 'depleted', 'paused', 'completed', 'closed'))`
  yield* sql`
    CREATE TABLE account_closures (
      id uuid PRIMARY KEY,
      customer_id uuid NOT NULL REFERENCES customers (id),
      idempotency_key text NOT NULL,
      request_hash text NOT NULL,
      transaction_id uuid,
      amount_kobo int8 NOT NULL CHECK (amount_kobo >= 0),
      plan_id uuid,
      status text NOT NULL CHECK (status IN ('closing', 'closed', 'failed')),
      freeze_reference text,
      delete_requested boolean NOT NULL DEFAULT false,
      delete_via text,
      lease_until timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      closed_at timestamptz,
      CONSTRAINT account_closures_customer_key UNIQUE (customer_id, idempotency_key)
    )`
  yield* sql`CREATE UNIQUE INDEX account_closures_one_open_key ON account_closures (customer_id) WHERE status = 'closing'`
  yield* sql`
    CREATE INDEX account_closures_work_idx ON account_closures (created_at)
    WHERE status = 'closing' OR (status = 'closed' AND delete_requested)`
  yield* sql`
    CREATE TABLE deletion_records (
      id uuid PRIMARY KEY,
      customer_id uuid NOT NULL UNIQUE REFERENCES customers (id),
      status text NOT NULL CHECK (status IN ('pending_review', 'reviewed')),
      via text,
      counts jsonb NOT NULL,
      plan_id uuid,
      last_balance_kobo int8,
      retain_until timestamptz NOT NULL,
      created_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE retained_records (
      id bigserial PRIMARY KEY,
      deletion_id uuid NOT NULL,
      kind text NOT NULL,
      payload jsonb NOT NULL,
      retain_until timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX retained_records_retain_until_idx ON retained_records (retain_until)`
  yield* sql`CREATE INDEX retained_records_deletion_idx ON retained_records (deletion_id)`
})
