import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Social sign-in links (SocialIdentityRepo): the identity provider's subject of each account, at
 * most one each way. Kept when an account is deleted (no cascade, no foreign key): a deleted
 * identity is recognised by its subject after deletion frees the email.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE social_identities (
      subject text PRIMARY KEY,
      account_id uuid NOT NULL UNIQUE,
      linked_at timestamptz NOT NULL
    )`
})
