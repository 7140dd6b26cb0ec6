import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Disbursement plans (PlanRepo), their instalments, and notices to customers (NoticeRepo); and the
 * reserve a movement must leave in the wallet (Extra Cash keeps the plan's remaining payouts).
 */
export default Effect.gen(function*() {
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
