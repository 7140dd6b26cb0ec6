import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * A deleted customer's core account number leaves their row (it is personal: it goes sealed to the
 * KYC record), but money can still arrive in that account, frozen at the bank. The erasure keeps a
 * keyed digest of it (SecretHasher, purpose `core-account`: no number can be read back or guessed
 * from it without the service's key), so a webhook for the number still finds the tombstone, and
 * the deposit is recorded and alerted instead of ignored.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE customers ADD COLUMN erased_core_account_digest text`
  yield* sql`
    CREATE INDEX customers_erased_core_account_digest_idx ON customers (erased_core_account_digest)
    WHERE erased_core_account_digest IS NOT NULL`
})
