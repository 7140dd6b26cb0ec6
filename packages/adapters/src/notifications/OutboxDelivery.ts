/**
 * The `deliver-notifications` job: sends what the notifier queued in `notification_outbox`. Each run
 * claims due rows (SKIP LOCKED, leased for LEASE), sends each once under the attempt time limit, and
 * marks it sent; a transient failure is due again after a backoff that doubles from 30 s (capped at
 * an hour), a definite refusal or the MAX_ATTEMPTS-th failure marks it failed and raises the
 * `notification_undelivered` staff alert. A run that dies mid-way leaves leased rows that the next
 * run after the lease takes again, so a message is never lost (it may, rarely, arrive twice: every
 * attempt at one message carries the same reference, an email's Message-ID, for the peer to
 * recognise). A run that is interrupted (SIGTERM) finishes the sends under way and gives back the
 * rest of its claim at once.
 */
import { type Alerts, type Ids, maskContact } from "@app/domain"
import { Clock, Duration, Effect, Option } from "effect"
import { DeliveryFailure, sendAttempt, undelivered } from "./Delivery.js"
import { NotificationTransports } from "./NotifierLive.js"
import { OutboxQueue, type QueuedMessage } from "./OutboxQueueSql.js"

export const MAX_ATTEMPTS = 6
export const LEASE = Duration.minutes(5)
const FIRST_RETRY = Duration.seconds(30)
const LONGEST_RETRY = Duration.hours(1)

/** The wait after the n-th failed attempt: 30 s, 1 min, 2 min, … at most an hour. */
export const retryDelay = (attempts: number) =>
  Duration.min(Duration.times(FIRST_RETRY, 2 ** Math.max(0, attempts - 1)), LONGEST_RETRY)

export interface DeliveryRun {
  readonly sent: number
  readonly retrying: number
  readonly failed: number
}

const nowDate = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

const deliverOne = (queued: QueuedMessage) =>
  Effect.gen(function*() {
    const { email, policy, sms } = yield* NotificationTransports
    const queue = yield* OutboxQueue
    const { message } = queued
    const transport = message.channel === "email" ? email : sms
    const outcome = yield* (Option.isNone(transport)
      ? Effect.fail(new DeliveryFailure({ reason: "no transport is configured for this channel", retryable: false }))
      : sendAttempt(transport.value, { ...message, reference: queued.id }, policy.timeout)).pipe(Effect.either)
    const at = yield* nowDate
    const log = { channel: message.channel, to: maskContact(message.to), kind: message.kind, attempts: queued.attempts }
    if (outcome._tag === "Right") {
      yield* queue.markSent(queued.id, at)
      yield* Effect.logInfo("notification sent").pipe(Effect.annotateLogs(log))
      return "sent" as const
    }
    const failure = outcome.left
    if (failure.retryable && queued.attempts < MAX_ATTEMPTS) {
      yield* queue.markFailed(queued.id, failure.reason, new Date(at.getTime() + Duration.toMillis(retryDelay(queued.attempts))))
      yield* Effect.logWarning("notification delivery failed, will retry").pipe(Effect.annotateLogs({ ...log, reason: failure.reason }))
      return "retrying" as const
    }
    yield* queue.markFailed(queued.id, failure.reason, null)
    yield* Effect.logWarning("notification undelivered").pipe(Effect.annotateLogs({ ...log, reason: failure.reason }))
    yield* undelivered(message, `${failure.reason}, after ${queued.attempts} attempt${queued.attempts === 1 ? "" : "s"}`)
    return "failed" as const
  })

/** One run: claims up to `batchSize` due messages and delivers them, `concurrency` at once. */
export const deliverQueuedNotifications = (options: { readonly batchSize?: number; readonly concurrency?: number } = {}) =>
  Effect.gen(function*() {
    const queue = yield* OutboxQueue
    const now = yield* nowDate
    const claimed = yield* queue.claimDue(now, new Date(now.getTime() + Duration.toMillis(LEASE)), options.batchSize ?? 100)
    const started = new Set<string>()
    const outcomes = yield* Effect.forEach(
      claimed,
      // a send under way ends (bounded by the attempt's time limit) and is marked, even on SIGTERM:
      // interrupted mid-send, its outcome would be unknown and the message possibly sent twice
      (queued) => Effect.uninterruptible(Effect.suspend(() => (started.add(queued.id), deliverOne(queued)))),
      { concurrency: options.concurrency ?? 4 }
    ).pipe(
      // interrupted: the claimed messages not yet started go back at once, their claim uncounted,
      // instead of waiting out LEASE
      Effect.onInterrupt(() => queue.release(claimed.map((q) => q.id).filter((id) => !started.has(id))))
    )
    return {
      sent: outcomes.filter((o) => o === "sent").length,
      retrying: outcomes.filter((o) => o === "retrying").length,
      failed: outcomes.filter((o) => o === "failed").length
    } satisfies DeliveryRun
  })

export type DeliveryJobContext = OutboxQueue | NotificationTransports | Alerts.AlertRepo | Ids
