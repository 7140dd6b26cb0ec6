/**
 * The durable notification outbox against a real database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL) and a real SMTP server on loopback: a message is stored with the transaction
 * that caused it (and not when it rolls back), codes are never stored, the job sends each message
 * once, concurrent runs do not share a message, a sender that died before marking is recovered
 * after its lease, and failures back off and end in a staff alert. Time is the TestClock.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Notifier, type OutboundMessage } from "@app/domain"
import { expect, layer } from "@effect/vitest"
import { Deferred, Duration, Effect, Fiber, Layer, Option, Redacted, TestClock } from "effect"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { NotificationTransports, NotificationTransportsLive, NotifierLive } from "../src/notifications/NotifierLive.js"
import { deliverQueuedNotifications, LEASE, MAX_ATTEMPTS, retryDelay } from "../src/notifications/OutboxDelivery.js"
import { OutboxQueue } from "../src/notifications/OutboxQueueSql.js"
import { makeSmtpMailer } from "../src/notifications/SmtpMailer.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"
import { closedPort, smtpPeer } from "./support/MailPeers.js"
import { quickPolicy, undeliveredAlert, uniqueKind } from "./support/NotifierHarness.js"

// the database and every port; the tests swap the transports in per case
const Adapters = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const notice = (kind: string, to = "ada@example.com"): OutboundMessage => ({
  channel: "email",
  to,
  subject: "Payout sent",
  text: "We sent NGN 5,000.00 to your bank account.",
  kind
})

/** The notifier and job over an SMTP transport at `url` (the database and alerts from Adapters). */
const withSmtp = (url: string) =>
  Effect.map(makeSmtpMailer({ url: Redacted.make(url), from: "no-reply@kobo.test", timeoutMs: 5_000, requireTls: false }), (email) =>
    NotificationTransports.of({ email: Option.some(email), sms: Option.none(), policy: quickPolicy }))

const rowsOfKind = (kind: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ status: string; attempts: number; payload: string; lastError: string | null }>`
      SELECT status, attempts, payload, last_error FROM notification_outbox WHERE kind = ${kind} ORDER BY created_at, id`)

/** An accepting SMTP peer, the job over it, a fresh message kind, the queue and the time now. */
const acceptingRelay = Effect.gen(function*() {
  const peer = yield* smtpPeer()
  const transports = yield* withSmtp(peer.url)
  return {
    peer,
    kind: uniqueKind("payout_sent"),
    queue: yield* OutboxQueue,
    now: new Date(yield* TestClock.currentTimeMillis),
    run: (options?: Parameters<typeof deliverQueuedNotifications>[0]) =>
      deliverQueuedNotifications(options).pipe(Effect.provideService(NotificationTransports, transports))
  }
})

/** Sends through a fresh NotifierLive whose transports are `transports`. */
const notify = (message: OutboundMessage) => Effect.flatMap(Notifier, (n) => n.send(message))

layer(Adapters, { timeout: "90 seconds" })(`notification outbox (${describeBackend()})`, (it) => {
  it.scoped("a message without a code is stored, not sent; the job sends it once; later runs send nothing more", () =>
    Effect.gen(function*() {
      const { kind, now, peer, queue, run } = yield* acceptingRelay
      yield* queue.enqueue(crypto.randomUUID(), notice(kind), now)
      expect(peer.received).toEqual([])
      const first = yield* run()
      expect(first.sent).toBeGreaterThanOrEqual(1)
      expect(peer.received.map((m) => m.subject)).toEqual(["Payout sent"])
      yield* TestClock.adjust(Duration.sum(LEASE, Duration.seconds(1)))
      yield* run()
      expect(peer.received).toHaveLength(1)
      expect((yield* rowsOfKind(kind)).map((r) => [r.status, r.attempts])).toEqual([["sent", 1]])
    }))

  it.scoped("the Notifier stores inside the caller's transaction: committed → queued, rolled back → nothing", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const committed = uniqueKind("payout_sent")
      const rolledBack = uniqueKind("payout_sent")
      // NotifierLive queues only for a channel with a transport: give it one (only the code reaches it)
      const peer = yield* smtpPeer()
      const notifier = yield* Layer.build(
        NotifierLive.pipe(
          Layer.provideMerge(NotificationTransportsLive),
          Layer.provide(AppConfigTest({ smtp: Option.some({ url: Redacted.make(peer.url), from: "a@b.co" }) }))
        )
      )
      yield* sql.withTransaction(Effect.provide(notify(notice(committed)), notifier))
      yield* sql.withTransaction(
        Effect.provide(notify(notice(rolledBack)), notifier).pipe(Effect.zipRight(Effect.fail("rollback" as const)))
      ).pipe(Effect.ignore)
      const stored = yield* rowsOfKind(committed)
      expect(stored.map((r) => r.status)).toEqual(["pending"])
      expect(JSON.parse(stored[0]!.payload)).toEqual({
        channel: "email",
        to: "ada@example.com",
        subject: "Payout sent",
        text: "We sent NGN 5,000.00 to your bank account.",
        kind: committed
      })
      expect(yield* rowsOfKind(rolledBack)).toEqual([])
      // a message with a code is never stored
      const otp = uniqueKind("email_verification")
      yield* Effect.provide(notify({ ...notice(otp), text: "Your code is 771204", code: "771204" }), notifier)
      expect(yield* rowsOfKind(otp)).toEqual([])
      const withCode = yield* sql<{ n: number | string }>`SELECT count(*) AS n FROM notification_outbox WHERE payload LIKE ${"%771204%"}`
      expect(Number(withCode[0]!.n)).toBe(0)
      // … it goes straight out instead
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 500)))
      expect(peer.received.map((m) => m.text?.trim())).toEqual(["Your code is 771204"])
    }))

  it.scoped("a sender that died after claiming (before marking) is recovered once the lease ends", () =>
    Effect.gen(function*() {
      const { kind, now, peer, queue, run } = yield* acceptingRelay
      const id = crypto.randomUUID()
      yield* queue.enqueue(id, notice(kind), now)
      // the "dead" sender: claims everything due, then never sends nor marks
      const taken = yield* queue.claimDue(now, new Date(now.getTime() + Duration.toMillis(LEASE)), 1_000)
      expect(taken.some((q) => q.message.kind === kind)).toBe(true)
      expect((yield* run()).sent).toBe(0)
      // the lease runs on the database's clock: run it out there (as LEASE passing would)
      yield* TestClock.adjust(Duration.sum(LEASE, Duration.seconds(1)))
      expect((yield* run()).sent).toBe(0)
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE notification_outbox SET lease_until = now() - interval '1 second' WHERE status = 'pending' AND lease_until IS NOT NULL`
      yield* run()
      expect(peer.received.filter((m) => m.text?.includes("NGN 5,000.00"))).toHaveLength(taken.length)
      expect((yield* rowsOfKind(kind)).map((r) => [r.status, r.attempts])).toEqual([["sent", 2]])
      // every attempt at one message carries the same Message-ID, the outbox row's: a repeat after
      // a lost answer can be recognised by the relay or the mailbox
      expect(peer.received.filter((m) => m.messageId === `<${id}@outbox.kobo-plans>`)).toHaveLength(1)
    }))

  it.scoped("interrupted (SIGTERM): the send under way ends and is marked, the claimed rest goes back at once, unattempted", () =>
    Effect.gen(function*() {
      const { kind, now, peer, queue } = yield* acceptingRelay
      const real = yield* withSmtp(peer.url)
      const entered = yield* Deferred.make<void>()
      const gate = yield* Deferred.make<void>()
      // the first send waits at the gate: the run is interrupted while it is under way
      const slow = NotificationTransports.of({
        ...real,
        email: Option.map(real.email, (t) => ({
          ...t,
          send: (m: OutboundMessage) =>
            Deferred.succeed(entered, undefined).pipe(Effect.zipRight(Deferred.await(gate)), Effect.zipRight(t.send(m)))
        }))
      })
      for (let i = 0; i < 3; i++) yield* queue.enqueue(crypto.randomUUID(), notice(kind, `i${i}@example.com`), now)
      const sql = yield* SqlClient.SqlClient
      // only this test's rows are due now
      yield* sql`UPDATE notification_outbox SET next_attempt_at = ${new Date(now.getTime() + 86_400_000)}
                 WHERE status = 'pending' AND kind <> ${kind}`
      const run = yield* Effect.fork(
        deliverQueuedNotifications({ concurrency: 1 }).pipe(Effect.provideService(NotificationTransports, slow))
      )
      yield* Deferred.await(entered)
      const stopping = yield* Effect.fork(Fiber.interrupt(run))
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(stopping)
      const rows = yield* sql<{ status: string; attempts: number; leaseUntil: Date | null }>`
        SELECT status, attempts, lease_until FROM notification_outbox WHERE kind = ${kind} ORDER BY status DESC, recipient`
      expect(rows.map((r) => [r.status, r.attempts, r.leaseUntil])).toEqual([["sent", 1, null], ["pending", 0, null], ["pending", 0, null]])
      expect(peer.received.filter((m) => m.text?.includes("NGN 5,000.00"))).toHaveLength(1)
      // the rows given back are this test's to finish: the next tests share the table
      yield* sql`UPDATE notification_outbox SET status = 'failed' WHERE kind = ${kind} AND status = 'pending'`
    }))

  it.scoped("two runs at once share no message: each is sent exactly once", () =>
    Effect.gen(function*() {
      const { kind, now, peer, queue, run } = yield* acceptingRelay
      for (let i = 0; i < 12; i++) yield* queue.enqueue(crypto.randomUUID(), notice(kind, `c${i}@example.com`), now)
      const batch = run({ batchSize: 8 })
      yield* Effect.all([batch, batch, batch], { concurrency: "unbounded" })
      const ours = peer.received.filter((m) => m.text?.includes("NGN 5,000.00"))
      const recipients = ours.map((m) => (m.to && !Array.isArray(m.to) ? m.to.value[0]!.address : "")).sort()
      expect(recipients).toEqual(Array.from({ length: 12 }, (_, i) => `c${i}@example.com`).sort())
      expect((yield* rowsOfKind(kind)).map((r) => `${r.status}/${r.attempts}`)).toEqual(Array(12).fill("sent/1"))
    }))

  it.scoped("the relay down: retried with doubling backoff, then failed with one staff alert after the last attempt", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const transports = yield* withSmtp(`smtp://127.0.0.1:${port}`)
      const kind = uniqueKind("payout_sent")
      const queue = yield* OutboxQueue
      yield* queue.enqueue(crypto.randomUUID(), notice(kind), new Date(yield* TestClock.currentTimeMillis))
      const run = deliverQueuedNotifications().pipe(Effect.provideService(NotificationTransports, transports))
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        yield* run
        const [row] = yield* rowsOfKind(kind)
        expect(row!.attempts).toBe(attempt)
        expect(row!.status).toBe(attempt < MAX_ATTEMPTS ? "pending" : "failed")
        expect(row!.lastError).toContain("ECONNREFUSED")
        if (attempt < MAX_ATTEMPTS) {
          // not due again before its backoff
          yield* TestClock.adjust(Duration.subtract(retryDelay(attempt), Duration.seconds(1)))
          yield* run
          expect((yield* rowsOfKind(kind))[0]!.attempts).toBe(attempt)
          yield* TestClock.adjust(Duration.seconds(2))
        }
      }
      const alert = yield* undeliveredAlert("email", kind)
      expect(alert).toMatchObject({ kind: "notification_undelivered", occurrences: 1 })
      expect(alert!.message).toContain(`after ${MAX_ATTEMPTS} attempts`)
      expect(alert!.message).not.toContain("NGN 5,000.00")
      expect(retryDelay(1)).toEqual(Duration.seconds(30))
      expect(retryDelay(3)).toEqual(Duration.minutes(2))
      expect(retryDelay(20)).toEqual(Duration.hours(1))
    }))
})
