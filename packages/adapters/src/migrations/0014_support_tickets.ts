import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * Support tickets, their conversation and staff's internal notes. Notes have their own table, so
 * no query of the conversation can return one. A ticket's reference is `TKT-` and its number, from
 * a sequence (TKT-10001, TKT-10002, …; gaps are possible, duplicates are not). Messages and notes
 * keep the order they were added in (`seq`), whatever their timestamps.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE SEQUENCE support_ticket_number_seq START WITH 10001`
  yield* sql`
    CREATE TABLE support_tickets (
      id uuid PRIMARY KEY,
      number int8 NOT NULL UNIQUE DEFAULT nextval('support_ticket_number_seq'),
      reference text GENERATED ALWAYS AS ('TKT-' || number::text) STORED,
      customer_id uuid NOT NULL REFERENCES customers (id),
      subject text NOT NULL CHECK (char_length(subject) BETWEEN 3 AND 120),
      category text NOT NULL CHECK (category IN ('general', 'deposit', 'disbursement', 'transfer', 'account', 'kyc')),
      transaction_id uuid REFERENCES transactions (id),
      status text NOT NULL CHECK (status IN ('open', 'awaiting_customer', 'resolved', 'closed')),
      assigned_staff_id uuid REFERENCES staff (id),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_message_at timestamptz NOT NULL
    )`
  yield* sql`ALTER TABLE support_tickets ADD CONSTRAINT support_tickets_reference_key UNIQUE (reference)`
  yield* sql`CREATE INDEX support_tickets_customer_idx ON support_tickets (customer_id, last_message_at DESC, number DESC)`
  yield* sql`CREATE INDEX support_tickets_queue_idx ON support_tickets (status, last_message_at DESC, number DESC)`
  yield* sql`CREATE INDEX support_tickets_assignee_idx ON support_tickets (assigned_staff_id) WHERE assigned_staff_id IS NOT NULL`
  yield* sql`
    CREATE TABLE support_ticket_messages (
      id uuid PRIMARY KEY,
      seq int8 GENERATED ALWAYS AS IDENTITY,
      ticket_id uuid NOT NULL REFERENCES support_tickets (id),
      author_kind text NOT NULL CHECK (author_kind IN ('customer', 'staff')),
      author_id uuid NOT NULL,
      body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 5000),
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX support_ticket_messages_ticket_idx ON support_ticket_messages (ticket_id, seq)`
  yield* sql`
    CREATE TABLE support_ticket_notes (
      id uuid PRIMARY KEY,
      seq int8 GENERATED ALWAYS AS IDENTITY,
      ticket_id uuid NOT NULL REFERENCES support_tickets (id),
      staff_id uuid NOT NULL REFERENCES staff (id),
      body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 5000),
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX support_ticket_notes_ticket_idx ON support_ticket_notes (ticket_id, seq)`
})
