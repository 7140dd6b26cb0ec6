/**
 * Helpers of the notifier tests: the database (for staff alerts), a log recorder, quick retry
 * policies, and `sendAndDrain`, which sends through a fresh notifier and returns once every
 * background delivery is over (closing the notifier waits for them).
 */
import { Alerts, type OutboundMessage } from "@app/domain"
import { Duration, Effect, HashMap, Layer, Logger, Option } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../../src/AppConfig.js"
import { adaptersLayer } from "../../src/Live.js"
import type { RetryPolicy, Transport } from "../../src/notifications/Delivery.js"
import { makeNotifier, type NotifierOptions } from "../../src/notifications/NotifierLive.js"
import { TestSqlLayer } from "../../src/testing/TestDatabase.js"

export const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

/** 3 attempts, 300 ms each, 20 ms backoff: a whole failure in about a second. */
export const quickPolicy: RetryPolicy = { attempts: 3, timeout: Duration.millis(300), backoff: Duration.millis(20) }

/** Every log line (message and annotations) as JSON text, to check what is never logged. */
export const recordLogs = () => {
  const lines: Array<string> = []
  const logger = Logger.make(({ annotations, logLevel, message }) => {
    lines.push(JSON.stringify({ level: logLevel.label, message, annotations: Object.fromEntries(HashMap.toEntries(annotations)) }))
  })
  return { lines, layer: Logger.replace(Logger.defaultLogger, logger) }
}

/** A message kind of its own per test, so its alert (keyed by channel and kind) is this test's alone. */
export const uniqueKind = (name: string) => `${name}_${randomUUID().slice(0, 8)}`

export interface Sent {
  /** how long `send` took for the caller, all messages together */
  readonly callerMillis: number
}

/** Sends `messages` through a notifier with these transports, then waits for all deliveries. */
export const sendAndDrain = (
  messages: ReadonlyArray<OutboundMessage>,
  transports: { readonly email?: Transport; readonly sms?: Transport },
  options: Partial<NotifierOptions> = {}
) =>
  Effect.scoped(Effect.gen(function*() {
    const notifier = yield* makeNotifier({
      appEnv: "test",
      outboxFile: Option.none(),
      email: Option.fromNullable(transports.email),
      sms: Option.fromNullable(transports.sms),
      policy: quickPolicy,
      drainTimeout: "20 seconds",
      ...options
    })
    const start = Date.now()
    for (const message of messages) yield* notifier.send(message)
    return { callerMillis: Date.now() - start } satisfies Sent
  }))

/** The open notification_undelivered alert of this channel and kind, if any. */
export const undeliveredAlert = (channel: "email" | "sms", kind: string) =>
  Effect.map(
    Effect.flatMap(Alerts.AlertRepo, (repo) => repo.listOpen()),
    (open) => open.find((a) => a.dedupKey === `notification_undelivered:${channel}:${kind}`)
  )
