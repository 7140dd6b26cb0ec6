import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Every state change of a money movement (a `transactions` row inserted, or its status or saga
 * journal fields changed) is captured by a trigger into `movement_changes`, in the same transaction
 * as the change, whatever code path made it. The `audit-movements` job folds them into the audit
 * chain (one audit row each, in order) and deletes them. Only states, kinds and amounts are kept:
 * no account numbers, names or narrations.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE movement_changes (
      id bigserial PRIMARY KEY,
      transaction_id uuid NOT NULL,
      customer_id uuid NOT NULL,
      before jsonb,
      after jsonb NOT NULL,
      changed_at timestamptz NOT NULL
    )`
  yield* sql.unsafe(`
    CREATE FUNCTION movement_state(t transactions) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
      SELECT jsonb_build_object(
        'status', t.status, 'debitState', t.debit_state, 'transferState', t.transfer_state,
        'reversalState', t.reversal_state, 'pndLifted', t.pnd_lifted, 'lienPlaced', t.lien_placed,
        'restored', t.restored, 'failureReason', t.failure_reason)
    $$`)
  yield* sql.unsafe(`
    CREATE FUNCTION record_movement_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO movement_changes (transaction_id, customer_id, before, after, changed_at)
        VALUES (NEW.id, NEW.customer_id, NULL,
          movement_state(NEW) || jsonb_build_object('type', NEW.type, 'purpose', NEW.purpose,
            'amountKobo', NEW.amount_kobo::text, 'feeKobo', NEW.fee_kobo::text, 'planId', NEW.plan_id),
          NEW.updated_at);
      ELSIF movement_state(OLD) IS DISTINCT FROM movement_state(NEW) THEN
        INSERT INTO movement_changes (transaction_id, customer_id, before, after, changed_at)
        VALUES (NEW.id, NEW.customer_id, movement_state(OLD), movement_state(NEW), NEW.updated_at);
      END IF;
      RETURN NULL;
    END
    $$`)
  yield* sql.unsafe(`
    CREATE TRIGGER transactions_movement_changes AFTER INSERT OR UPDATE ON transactions
    FOR EACH ROW EXECUTE FUNCTION record_movement_change()`)
})
