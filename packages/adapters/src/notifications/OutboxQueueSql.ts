/**
 * The durable notification outbox (table `notification_outbox`, migration 0016). `enqueue` runs on
 * the caller's SQL client, so inside a unit of work it joins that transaction: the message exists
 * exactly when what caused it was committed. `claimDue` takes due rows with FOR UPDATE SKIP LOCKED
 * and leases them in one statement, so concurrent senders (any number of scheduler processes) never
 * take the same row; a sender that dies before `markSent` leaves a row whose lease runs out and is
 * claimed again: at least once, never lost. One-time codes are never stored here (see NotifierLive).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { OutboundMessage } from "@app/domain"
import { Context, Effect, Layer, Schema } from "effect"
import { decodeRows, leaseFromNow, orDieDb } from "../sql/SqlSupport.js"

/** A claimed message: its row id, how many claims it has had (this one included), the message. */
export interface QueuedMessage {
  readonly id: string
  readonly attempts: number
  readonly message: OutboundMessage
}

const Row = Schema.Struct({
  id: Schema.String,
  attempts: Schema.Number,
  payload: Schema.parseJson(Schema.Struct({
    channel: Schema.Literal("email", "sms"),
    to: Schema.String,
    kind: Schema.String,
    subject: Schema.optional(Schema.String),
    text: Schema.String,
    html: Schema.optional(Schema.String),
    attachments: Schema.optional(Schema.Array(Schema.Struct({ filename: Schema.String, contentType: Schema.String, content: Schema.String })))
  }))
})

export class OutboxQueue extends Context.Tag("adapters/OutboxQueue")<OutboxQueue, {
  /** Stores a message (without its code, which callers must not queue) due at `at`. */
  readonly enqueue: (id: string, message: OutboundMessage, at: Date) => Effect.Effect<void>
  /** Up to `limit` pending rows due at `now` and not leased, leased until `leaseUntil`, attempts + 1. */
  readonly claimDue: (now: Date, leaseUntil: Date, limit: number) => Effect.Effect<ReadonlyArray<QueuedMessage>>
  /** Gives back claimed rows that were never attempted: unleased, their claim not counted. */
  readonly release: (ids: ReadonlyArray<string>) => Effect.Effect<void>
  readonly markSent: (id: string, at: Date) => Effect.Effect<void>
  /** A failed attempt: due again at `retryAt`, or failed for good when `retryAt` is null. */
  readonly markFailed: (id: string, reason: string, retryAt: Date | null) => Effect.Effect<void>
}>() {}

export const OutboxQueueSql = Layer.effect(
  OutboxQueue,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(Row)
    return OutboxQueue.of({
      enqueue: (id, message, at) => {
        const { code: _code, ...rest } = message
        return sql`INSERT INTO notification_outbox ${
          sql.insert({
            id,
            channel: message.channel,
            recipient: message.to,
            kind: message.kind,
            payload: JSON.stringify(rest),
            nextAttemptAt: at,
            createdAt: at
          })
        }`.pipe(Effect.asVoid, orDieDb)
      },
      claimDue: (now, leaseUntil, limit) =>
        sql`
          UPDATE notification_outbox SET lease_until = ${leaseFromNow(sql, now, leaseUntil)}, attempts = attempts + 1
          WHERE id IN (
            SELECT id FROM notification_outbox
            -- leases run on the database's clock (see leaseFromNow), so processes whose clocks
            -- disagree cannot take a row another still holds
            WHERE status = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until < now())
            ORDER BY next_attempt_at, id
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED
          )
          RETURNING id, attempts, payload`.pipe(
          Effect.flatMap(decode),
          Effect.map((rows) => rows.map((r) => ({ id: r.id, attempts: r.attempts, message: r.payload as OutboundMessage }))),
          orDieDb
        ),
      release: (ids) =>
        ids.length === 0
          ? Effect.void
          : sql`UPDATE notification_outbox SET lease_until = NULL, attempts = attempts - 1
                WHERE ${sql.in("id", ids)} AND status = 'pending' AND lease_until IS NOT NULL`.pipe(Effect.asVoid, orDieDb),
      markSent: (id, at) =>
        sql`UPDATE notification_outbox SET status = 'sent', sent_at = ${at}, lease_until = NULL, last_error = NULL WHERE id = ${id}`
          .pipe(Effect.asVoid, orDieDb),
      markFailed: (id, reason, retryAt) =>
        (retryAt === null
          ? sql`UPDATE notification_outbox SET status = 'failed', lease_until = NULL, last_error = ${reason} WHERE id = ${id}`
          : sql`UPDATE notification_outbox SET next_attempt_at = ${retryAt}, lease_until = NULL, last_error = ${reason} WHERE id = ${id}`)
          .pipe(Effect.asVoid, orDieDb)
    })
  })
)
