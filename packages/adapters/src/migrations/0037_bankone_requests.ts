import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * What the BankOne adapter sent to the bank (docs/bankone.md B5, B23, B33): one row per posting,
 * transfer and lien, written BEFORE the request leaves. BankOne's status query needs the original's
 * date, type and amount, which the CoreBanking port's `requery(reference)` does not carry; its
 * Account Enquiry does not list liens; its transaction list does not say which credits we posted.
 * A reference with no row was never sent. Rows are never deleted (like the movements they serve).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE bankone_requests (
      reference text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('debit', 'credit', 'transfer', 'lien')),
      account_number text NOT NULL,
      amount_kobo bigint NOT NULL CHECK (amount_kobo > 0),
      sent_on date NOT NULL,
      state text NOT NULL CHECK (state IN ('sent', 'applied', 'removing', 'removed')),
      tsq_count integer NOT NULL DEFAULT 0,
      last_tsq_at timestamp with time zone,
      created_at timestamp with time zone NOT NULL
    )`
  yield* sql`CREATE INDEX bankone_requests_liens_idx ON bankone_requests (account_number) WHERE kind = 'lien'`
})
