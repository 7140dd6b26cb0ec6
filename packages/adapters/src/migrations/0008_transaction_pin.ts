import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * The transaction PIN's guard (PinRepo): wrong tries, the current or last lock and the start times of
 * recent lockouts (a JSON array of ISO instants, oldest first), one row per customer, created by its
 * first try. The PIN hash itself is `customers.pin_hash`. Provider freezes keep the reference the
 * bank gave, which the manual unfreeze quotes.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE pin_guards (
      customer_id uuid PRIMARY KEY REFERENCES customers (id),
      wrong_tries integer NOT NULL DEFAULT 0 CHECK (wrong_tries >= 0),
      locked_until timestamptz,
      lockouts jsonb NOT NULL DEFAULT '[]'::jsonb
    )`
  yield* sql`
    CREATE TABLE provider_freezes (
      id bigserial PRIMARY KEY,
      customer_id uuid NOT NULL REFERENCES customers (id),
      freeze_reference text NOT NULL,
      frozen_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX provider_freezes_customer_idx ON provider_freezes (customer_id, frozen_at DESC, id DESC)`
})
