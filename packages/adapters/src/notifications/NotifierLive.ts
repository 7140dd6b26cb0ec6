/**
 * The Notifier: email to the SMTP relay (SMTP_URL), SMS to the gateway (SMS_GATEWAY_URL), each when
 * configured, and every message to the outbox file too when NOTIFY_OUTBOX_FILE is set.
 *
 * A message sent directly (one with a code, or any when no queue is given) is handed to a background
 * delivery once the outbox line is written (at most `concurrency` at once), with Delivery.ts's
 * retries, so a slow or dead peer never slows or fails the request that sent it, nor holds its
 * transaction; one that cannot be delivered becomes a `notification_undelivered` staff alert.
 * Shutting down waits up to `drainTimeout` for deliveries in flight, then abandons them.
 *
 * A channel without a transport: outside production the outbox file (or nothing) is the whole of
 * delivery, as before; in production (email is required there, SMS is not) such a message is lost,
 * so it raises the alert.
 *
 * With a queue (NotifierLive always has one: the `notification_outbox` table), a message WITHOUT a
 * one-time code is not sent from here but stored, on the caller's SQL client, so inside a unit of
 * work it commits or rolls back with what caused it; the `deliver-notifications` job sends it
 * (OutboxDelivery.ts). Messages with a code are never stored (the code would sit in the table):
 * they go straight out as above, and a lost one is re-requested by the customer.
 */
import { type Alerts, Ids, maskContact, Notifier, type OutboundMessage } from "@app/domain"
import { Clock, Context, Duration, Effect, FiberSet, Layer, Option } from "effect"
import { AppConfig, type AppEnv } from "../AppConfig.js"
import { deliver, type RetryPolicy, type Transport, undelivered } from "./Delivery.js"
import { makeOutbox } from "./Outbox.js"
import { OutboxQueue } from "./OutboxQueueSql.js"
import { makeSmsGateway } from "./SmsGateway.js"
import { makeSmtpMailer } from "./SmtpMailer.js"
import { makeFairSemaphore } from "../concurrency/FairSemaphore.js"

export interface NotifierOptions {
  readonly appEnv: AppEnv
  readonly outboxFile: Option.Option<string>
  readonly email: Option.Option<Transport>
  readonly sms: Option.Option<Transport>
  readonly policy: RetryPolicy
  /** deliveries in flight at once */
  readonly concurrency?: number
  /** how long closing the notifier waits for deliveries in flight */
  readonly drainTimeout?: Duration.DurationInput
  /** stores a message (without a code) for the delivery job instead of sending it now */
  readonly queue?: (message: OutboundMessage) => Effect.Effect<void>
}

/** The Notifier service over the given transports; deliveries belong to the enclosing scope. */
export const makeNotifier = (options: NotifierOptions) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<Alerts.AlertRepo | Ids>()
    const appendToOutbox = Option.isSome(options.outboxFile) ? Option.some(yield* makeOutbox(options.outboxFile.value)) : Option.none()
    const inFlight = yield* FiberSet.make<void>()
    // runs before FiberSet's own finaliser (finalisers run in reverse), so deliveries may finish
    yield* Effect.addFinalizer(() =>
      FiberSet.awaitEmpty(inFlight).pipe(Effect.timeout(options.drainTimeout ?? "10 seconds"), Effect.ignore)
    )
    const slots = yield* makeFairSemaphore(options.concurrency ?? 8)

    const inBackground = (effect: Effect.Effect<void, never, Alerts.AlertRepo | Ids>) =>
      FiberSet.run(inFlight, slots.withPermit(effect).pipe(Effect.provide(context))).pipe(Effect.asVoid)

    const withoutTransport = (message: OutboundMessage) =>
      Option.isNone(options.outboxFile) && options.appEnv === "production"
        ? Effect.logWarning("notification undelivered").pipe(
          Effect.annotateLogs({ channel: message.channel, to: maskContact(message.to), kind: message.kind, reason: "no transport" }),
          Effect.zipRight(inBackground(undelivered(message, "no transport is configured for this channel")))
        )
        : Effect.logInfo("notification sent").pipe(
          Effect.annotateLogs({ channel: message.channel, to: maskContact(message.to), kind: message.kind, transport: "outbox" })
        )

    return Notifier.of({
      send: (message) =>
        Effect.gen(function*() {
          if (Option.isSome(appendToOutbox)) yield* appendToOutbox.value(message)
          const transport = message.channel === "email" ? options.email : options.sms
          yield* Option.match(transport, {
            onNone: () => withoutTransport(message),
            onSome: (t) =>
              message.code === undefined && options.queue !== undefined
                ? options.queue(message)
                : inBackground(deliver(t, message, options.policy))
          })
        })
    })
  })

/** Attempts per message and the wait before the second (doubling, jittered): about 1 s, 2 s, then given up. */
export const DELIVERY_ATTEMPTS = 3
export const DELIVERY_BACKOFF = Duration.seconds(1)

/** The transports of AppConfig (none, one or both), shared by the Notifier and the delivery job. */
export class NotificationTransports extends Context.Tag("adapters/NotificationTransports")<NotificationTransports, {
  readonly email: Option.Option<Transport>
  readonly sms: Option.Option<Transport>
  readonly policy: RetryPolicy
}>() {}

export const NotificationTransportsLive = Layer.scoped(
  NotificationTransports,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const email = yield* Effect.transposeOption(Option.map(config.smtp, (smtp) =>
      makeSmtpMailer({
        url: smtp.url,
        from: smtp.from,
        timeoutMs: config.notifyTimeoutMs,
        requireTls: config.appEnv === "production"
      })))
    return {
      email,
      sms: Option.map(config.sms, makeSmsGateway),
      policy: { attempts: DELIVERY_ATTEMPTS, timeout: Duration.millis(config.notifyTimeoutMs), backoff: DELIVERY_BACKOFF }
    }
  })
)

/** The Notifier from AppConfig; needs the transports, the outbox queue, AlertRepo and Ids. */
export const NotifierLive = Layer.scoped(
  Notifier,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const transports = yield* NotificationTransports
    const queue = yield* OutboxQueue
    const ids = yield* Ids
    return yield* makeNotifier({
      appEnv: config.appEnv,
      outboxFile: config.notifyOutboxFile,
      email: transports.email,
      sms: transports.sms,
      policy: transports.policy,
      queue: (message) =>
        Effect.gen(function*() {
          const at = new Date(yield* Clock.currentTimeMillis)
          yield* queue.enqueue(yield* ids.next, message, at)
          yield* Effect.logInfo("notification queued").pipe(
            Effect.annotateLogs({ channel: message.channel, to: maskContact(message.to), kind: message.kind })
          )
        })
    })
  })
)
