/**
 * A customer's message log (domain admin/CustomerMessages.ts) on SQL: the one-time codes issued to
 * the account (`one_time_codes`, migration 0001: never `code_hash` is read) and the messages queued in
 * `notification_outbox` (migration 0016) addressed to the account's email or phone (never `payload`
 * is read; by recipient through migration 0044's index). Newest first.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { StaffAccess } from "@app/domain"
import { Effect, Layer, Schema } from "effect"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"

const Channel = Schema.Literal("email", "sms")

const CodeRow = Schema.Struct({
  id: Schema.String,
  channel: Channel,
  purpose: Schema.String,
  destination: Schema.String,
  attempts: Schema.Number,
  maxAttempts: Schema.Number,
  expiresAt: Schema.DateFromSelf,
  consumedAt: Schema.NullOr(Schema.DateFromSelf),
  replaced: Schema.Boolean,
  createdAt: Schema.DateFromSelf
})

const OutboxRow = Schema.Struct({
  id: Schema.String,
  channel: Channel,
  recipient: Schema.String,
  kind: Schema.String,
  status: Schema.Literal("pending", "sent", "failed"),
  attempts: Schema.Number,
  lastError: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  sentAt: Schema.NullOr(Schema.DateFromSelf)
})

export const CustomerMessageLogSql = Layer.effect(
  StaffAccess.CustomerMessages.CustomerMessageLog,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const codes = decodeRows(CodeRow)
    const outbox = decodeRows(OutboxRow)
    return {
      forCustomer: (customerId, limit) =>
        Effect.gen(function*() {
          const issued = yield* codes(
            yield* sql`
              SELECT o.id, o.channel, o.purpose, o.destination, o.attempts, o.max_attempts, o.expires_at,
                     o.consumed_at, o.created_at,
                     -- issuing a code retires the open one of its purpose, stamping the new one's time
                     EXISTS (
                       SELECT 1 FROM one_time_codes n
                       WHERE n.account_id = o.account_id AND n.purpose = o.purpose AND n.id <> o.id
                         AND n.created_at = o.consumed_at
                     ) AS replaced
              FROM one_time_codes o JOIN customers c ON c.account_id = o.account_id
              WHERE c.id = ${customerId}
              ORDER BY o.created_at DESC, o.id
              LIMIT ${limit}`
          )
          const queued = yield* outbox(
            yield* sql`
              SELECT n.id, n.channel, n.recipient, n.kind, n.status, n.attempts, n.last_error, n.created_at, n.sent_at
              FROM notification_outbox n
              WHERE n.recipient IN (
                SELECT a.email FROM accounts a JOIN customers c ON c.account_id = a.id WHERE c.id = ${customerId}
                UNION SELECT a.phone FROM accounts a JOIN customers c ON c.account_id = a.id
                  WHERE c.id = ${customerId} AND a.phone IS NOT NULL
              )
              ORDER BY n.created_at DESC, n.id
              LIMIT ${limit}`
          )
          const all: Array<StaffAccess.CustomerMessages.MessageRecord> = [
            ...issued.map((r) => ({
              id: r.id,
              source: "one_time_code" as const,
              channel: r.channel,
              kind: r.purpose,
              destination: r.destination,
              status: "sent" as const,
              deliveryAttempts: null,
              lastError: null,
              createdAt: r.createdAt,
              sentAt: r.createdAt,
              code: { consumedAt: r.consumedAt, replaced: r.replaced, expiresAt: r.expiresAt, checks: r.attempts, maxChecks: r.maxAttempts }
            })),
            ...queued.map((r) => ({
              id: r.id,
              source: "outbox" as const,
              channel: r.channel,
              kind: r.kind,
              destination: r.recipient,
              status: r.status,
              deliveryAttempts: r.attempts,
              lastError: r.lastError,
              createdAt: r.createdAt,
              sentAt: r.sentAt,
              code: null
            }))
          ]
          return all.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.id.localeCompare(b.id)).slice(0, limit)
        }).pipe(orDieDb)
    }
  })
)
