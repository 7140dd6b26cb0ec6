import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * The durable notification outbox (notifications/OutboxQueueSql.ts): a message stored in the same
 * transaction as what caused it, sent by the `deliver-notifications` job. `payload` is the message's
 * JSON (subject, text, html, attachments) and never holds a one-time code: messages with a code are
 * not queued. A claim sets `lease_until`; a sender that dies before marking the row leaves it to be
 * claimed again when the lease ends (at least once, never lost).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE notification_outbox (
      id uuid PRIMARY KEY,
      channel text NOT NULL CHECK (channel IN ('email', 'sms')),
      recipient text NOT NULL,
      kind text NOT NULL,
      payload text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      next_attempt_at timestamptz NOT NULL,
      lease_until timestamptz,
      last_error text,
      created_at timestamptz NOT NULL,
      sent_at timestamptz
    )`
  // the job's claim: pending rows due now, oldest first
  yield* sql`CREATE INDEX notification_outbox_due ON notification_outbox (next_attempt_at) WHERE status = 'pending'`
})
