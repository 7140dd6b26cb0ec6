/**
 * What the notifier does with a message a transport (SMTP relay, SMS gateway) will not take:
 * bounded retries with exponential backoff, each attempt under a time limit, then a log line and a
 * `notification_undelivered` staff alert. Never an error for the caller: `Notifier.send` has no
 * error channel, and a message lost to an outage must not fail (or roll back) a payout or a sign-up.
 *
 * Which failures are retried: the peer down (connection refused/reset), too slow (the attempt's
 * time limit), or answering "try later" (SMTP 4xx, HTTP 408/429/5xx). A definite refusal (SMTP 5xx,
 * other HTTP 4xx, an answer we cannot read) is not: repeating it cannot help and, for an answer we
 * cannot read, might send the message twice. A retried timeout can deliver a message twice (the peer
 * may have taken it just after we gave up); for one-time codes and notices that is the lesser harm.
 *
 * Nothing logged or stored here names the text, the HTML, an attachment or a one-time code: a
 * failure is described by its `reason`, which transports build from status codes and error classes
 * only (never the peer's free text, which may echo the message).
 */
import { Alerts, type Ids, maskContact, type OutboundMessage, Spans } from "@app/domain"
import { Data, Duration, Effect, Schedule } from "effect"
import { count, notificationsSentTotal } from "../ops/Metrics.js"

export class DeliveryFailure extends Data.TaggedError("DeliveryFailure")<{
  /** safe to log and store: a status code or an error class, never the peer's text */
  readonly reason: string
  /** a transient condition: another attempt may succeed */
  readonly retryable: boolean
}> {}

/** One way out for one channel: the SMTP relay or the SMS gateway. */
export interface Transport {
  /** for logs and alerts: "smtp", "sms-gateway" */
  readonly name: string
  /** one attempt; the caller bounds it in time */
  readonly send: (message: OutboundMessage) => Effect.Effect<void, DeliveryFailure>
}

export interface RetryPolicy {
  /** attempts in all, the first included (≥ 1) */
  readonly attempts: number
  /** how long one attempt may take */
  readonly timeout: Duration.DurationInput
  /** the wait before the 2nd attempt; doubled for each later one (jittered) */
  readonly backoff: Duration.DurationInput
}

/**
 * One attempt under a time limit (running out of time is a retryable failure), traced as a
 * `Notification.send` span (channel, kind, transport and outcome: never the recipient or the text)
 * and counted in `notifications_sent_total{channel,outcome}` (sent or failed).
 */
export const sendAttempt = (transport: Transport, message: OutboundMessage, timeout: Duration.DurationInput) =>
  Spans.useSpan("Notification.send", {
    kind: "client",
    attributes: { channel: message.channel, kind: message.kind, transport: transport.name }
  }, (span) =>
    transport.send(message).pipe(
      Effect.timeoutFail({
        duration: timeout,
        onTimeout: () => new DeliveryFailure({ reason: `timeout after ${Duration.toMillis(timeout)} ms`, retryable: true })
      }),
      Effect.tapBoth({
        onSuccess: () =>
          Effect.zipRight(
            Effect.sync(() => span.attribute("outcome", "sent")),
            count(notificationsSentTotal, { channel: message.channel, outcome: "sent" })
          ),
        onFailure: (failure) =>
          Effect.zipRight(
            Effect.sync(() => {
              span.attribute("outcome", "failed")
              span.attribute("retryable", failure.retryable)
            }),
            count(notificationsSentTotal, { channel: message.channel, outcome: "failed" })
          )
      })
    ))

/**
 * Sends through `transport` with the policy's retries; when every attempt failed (or one failed
 * for good), logs it and raises a `notification_undelivered` alert. Never fails.
 */
export const deliver = (transport: Transport, message: OutboundMessage, policy: RetryPolicy) =>
  Effect.gen(function*() {
    let attempts = 0
    const outcome = yield* Effect.suspend(() => {
      attempts++
      return sendAttempt(transport, message, policy.timeout)
    }).pipe(
      Effect.retry({
        schedule: Schedule.exponential(policy.backoff).pipe(Schedule.jittered),
        times: Math.max(0, policy.attempts - 1),
        while: (failure) => failure.retryable
      }),
      Effect.either
    )
    const annotations = { channel: message.channel, to: maskContact(message.to), kind: message.kind, transport: transport.name, attempts }
    if (outcome._tag === "Right") {
      yield* Effect.logInfo("notification sent").pipe(Effect.annotateLogs(annotations))
      return
    }
    yield* Effect.logWarning("notification undelivered").pipe(Effect.annotateLogs({ ...annotations, reason: outcome.left.reason }))
    yield* undelivered(message, `${transport.name}: ${outcome.left.reason}, after ${attempts} attempt${attempts === 1 ? "" : "s"}`)
  })

/** The staff alert for a lost message: one open alert per channel and kind, counting occurrences. */
export const undelivered = (message: OutboundMessage, why: string): Effect.Effect<void, never, Alerts.AlertRepo | Ids> =>
  Alerts.raiseAlert({
    kind: "notification_undelivered",
    dedupKey: `notification_undelivered:${message.channel}:${message.kind}`,
    message: `An ${message.channel === "email" ? "email" : "SMS"} of kind ${message.kind} could not be delivered (${why}). ` +
      `Check the ${message.channel === "email" ? "SMTP relay (SMTP_URL)" : "SMS gateway (SMS_GATEWAY_URL)"}; ` +
      "occurrences count the messages lost since this alert opened."
  }).pipe(Effect.asVoid)
