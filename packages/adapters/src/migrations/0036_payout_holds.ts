import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * A due payout goes ahead of its customer's new movements (issue 41): a payout run that finds the
 * customer with a movement in flight records a hold here; while the plan is active and due with no
 * payout started, the customer's new movements are refused as in flight (TransferRepoSql.create),
 * so the next run pays. Starting the payout removes the hold (PlanRepoSql).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE payout_holds (
      plan_id uuid PRIMARY KEY REFERENCES disbursement_plans (id) ON DELETE CASCADE,
      customer_id uuid NOT NULL,
      since timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX payout_holds_customer_idx ON payout_holds (customer_id)`
})
