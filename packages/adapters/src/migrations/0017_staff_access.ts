import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Staff access for the back office: names, a role, a status and an argon2id password on the
 * `staff` rows of 0012; single-use invite and reset links (only a keyed digest of the token); and
 * failed sign-ins by throttle key (keyed digests, never an email in clear). Rows of 0012 become
 * invited support staff with no password: nobody can sign in as them until a link is sent.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE staff
      ADD COLUMN first_name text,
      ADD COLUMN last_name text,
      ADD COLUMN role text NOT NULL DEFAULT 'support' CHECK (role IN ('superadmin', 'admin', 'support', 'officer')),
      ADD COLUMN status text NOT NULL DEFAULT 'invited' CHECK (status IN ('invited', 'active', 'disabled')),
      ADD COLUMN password_hash text,
      ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`
  yield* sql`UPDATE staff SET updated_at = created_at`
  yield* sql`ALTER TABLE staff ADD CONSTRAINT staff_active_has_password CHECK (status <> 'active' OR password_hash IS NOT NULL)`
  yield* sql`
    CREATE TABLE staff_links (
      id uuid PRIMARY KEY,
      staff_id uuid NOT NULL REFERENCES staff (id),
      purpose text NOT NULL CHECK (purpose IN ('invite', 'reset')),
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX staff_links_open_idx ON staff_links (staff_id, purpose) WHERE used_at IS NULL`
  yield* sql`
    CREATE TABLE staff_sign_in_failures (
      key text NOT NULL,
      at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX staff_sign_in_failures_key_at_idx ON staff_sign_in_failures (key, at)`
  yield* sql`CREATE INDEX staff_sign_in_failures_at_idx ON staff_sign_in_failures (at)`
})
