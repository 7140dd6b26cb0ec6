import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * The audit log: one hash-chained row per staff action or recorded state change (domain
 * admin/Audit.ts). before/after are kept as the canonical JSON text the hash covers (not jsonb,
 * which would reorder keys and renormalise numbers). `audit_head` is one row holding the chain's
 * last seq and hash: an append locks it FOR UPDATE in the caller's transaction, so appends from any
 * number of processes form one line.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE audit_log (
      seq bigint PRIMARY KEY,
      at timestamptz NOT NULL,
      actor_kind text NOT NULL,
      actor_id text NOT NULL,
      action text NOT NULL,
      target_kind text NOT NULL,
      target_id text NOT NULL,
      before_json text,
      after_json text,
      prev_hash text NOT NULL,
      hash text NOT NULL
    )`
  yield* sql`CREATE INDEX audit_log_target_idx ON audit_log (target_kind, target_id, seq DESC)`
  yield* sql`CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, seq DESC)`
  yield* sql`CREATE INDEX audit_log_action_idx ON audit_log (action, seq DESC)`
  yield* sql`CREATE TABLE audit_head (id integer PRIMARY KEY CHECK (id = 1), seq bigint NOT NULL, hash text NOT NULL)`
  yield* sql`INSERT INTO audit_head (id, seq, hash) VALUES (1, 0, ${"0".repeat(64)})`
})
