import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Referrals: the referred customers of a referrer are listed by `referred_by` (GET
 * /customers/referrals), and nobody refers themselves.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX customers_referred_by_idx ON customers (referred_by, created_at) WHERE referred_by IS NOT NULL`
  yield* sql`ALTER TABLE customers ADD CONSTRAINT customers_no_self_referral CHECK (referred_by IS NULL OR referred_by <> id)`
})
