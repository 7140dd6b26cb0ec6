/**
 * Email over SMTP against a real SMTP server on loopback (smtp-server, mail parsed by mailparser):
 * what arrives (sender, subject, text, HTML, attachment), and what happens when the relay is down,
 * too slow or refusing: the caller is never held up or failed, attempts are bounded, and the loss
 * becomes one staff alert whose message and log lines hold no code and no text.
 */
import { Notifier, type OutboundMessage } from "@app/domain"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { AppConfigTest } from "../src/AppConfig.js"
import { NotificationTransportsLive, NotifierLive } from "../src/notifications/NotifierLive.js"
import { deliverQueuedNotifications } from "../src/notifications/OutboxDelivery.js"
import { makeSmtpMailer, transportOptions } from "../src/notifications/SmtpMailer.js"
import { describeBackend } from "../src/testing/TestDatabase.js"
import { closedPort, SMTP_PASS, SMTP_USER, smtpPeer } from "./support/MailPeers.js"
import { quickPolicy, recordLogs, Repos, sendAndDrain, undeliveredAlert, uniqueKind } from "./support/NotifierHarness.js"

const FROM = "kobo-plans <no-reply@kobo.test>"

const otpEmail = (kind: string): OutboundMessage => ({
  channel: "email",
  to: "ada@example.com",
  subject: "Your verification code",
  text: "Your code is 493817. It expires in 10 minutes.",
  html: "<p>Your code is <b>493817</b>.</p>",
  kind,
  code: "493817"
})

const mailer = (url: string, timeoutMs = 300) =>
  makeSmtpMailer({ url: Redacted.make(url), from: FROM, timeoutMs, requireTls: false })

layer(Repos, { excludeTestServices: true, timeout: "90 seconds" })(`SMTP email (${describeBackend()})`, (it) => {
  it.scoped("NotifierLive with SMTP_URL queues a report and the job delivers subject, text, HTML and attachments from MAIL_FROM; the outbox file is written too", () =>
    Effect.gen(function*() {
      const peer = yield* smtpPeer()
      const outboxFile = path.join(os.tmpdir(), `outbox-${randomUUID()}.jsonl`)
      const config = AppConfigTest({
        smtp: Option.some({ url: Redacted.make(peer.url), from: FROM }),
        notifyOutboxFile: Option.some(outboxFile)
      })
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(
          NotifierLive.pipe(Layer.provideMerge(NotificationTransportsLive), Layer.provide(config))
        )
        yield* Effect.provide(
          Effect.flatMap(Notifier, (n) =>
            n.send({
              channel: "email",
              to: "ada@example.com",
              subject: "Your spending report",
              text: "Your report for November is attached.",
              html: "<h1>Spending report</h1><p>November</p>",
              attachments: [{ filename: "report-2026-11.csv", contentType: "text/csv", content: "date,amount\n2026-11-01,1500.00\n" }],
              kind: "spending_report"
            })),
          context
        )
        // no code: queued in notification_outbox, sent by the delivery job
        expect(peer.received).toEqual([])
        expect(yield* Effect.provide(deliverQueuedNotifications(), context)).toEqual({ sent: 1, retrying: 0, failed: 0 })
      }))
      expect(peer.received).toHaveLength(1)
      const mail = peer.received[0]!
      expect(mail.from?.value).toEqual([{ address: "no-reply@kobo.test", name: "kobo-plans" }])
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : []).toEqual(["ada@example.com"])
      expect(mail.subject).toBe("Your spending report")
      expect(mail.text?.trim()).toBe("Your report for November is attached.")
      expect(mail.html).toContain("<h1>Spending report</h1><p>November</p>")
      expect(mail.attachments).toHaveLength(1)
      expect(mail.attachments[0]!.filename).toBe("report-2026-11.csv")
      expect(mail.attachments[0]!.contentType).toBe("text/csv")
      expect(mail.attachments[0]!.content.toString("utf8")).toBe("date,amount\n2026-11-01,1500.00\n")
      const outboxLines = fs.readFileSync(outboxFile, "utf8").trim().split("\n").map((l) => JSON.parse(l))
      expect(outboxLines).toMatchObject([{ channel: "email", kind: "spending_report", subject: "Your spending report" }])
      fs.rmSync(outboxFile, { force: true })
    }))

  it.scoped("a one-time code email arrives whole; the sent log line names neither code nor text", () =>
    Effect.gen(function*() {
      const peer = yield* smtpPeer()
      const logs = recordLogs()
      const kind = uniqueKind("email_verification")
      yield* sendAndDrain([otpEmail(kind)], { email: yield* mailer(peer.url) }).pipe(Effect.provide(logs.layer))
      expect(peer.received.map((m) => [m.subject, m.text?.trim()])).toEqual([
        ["Your verification code", "Your code is 493817. It expires in 10 minutes."]
      ])
      expect(peer.received[0]!.attachments).toEqual([])
      expect(logs.lines.some((l) => l.includes("notification sent") && l.includes("a***@example.com"))).toBe(true)
      expect(logs.lines.filter((l) => l.includes("493817") || l.includes("ada@example.com"))).toEqual([])
      expect(yield* undeliveredAlert("email", kind)).toBeUndefined()
    }))

  it.scoped("relay down (connection refused): the caller returns at once; 3 attempts, then one alert, nothing secret logged", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const logs = recordLogs()
      const kind = uniqueKind("email_verification")
      const sent = yield* sendAndDrain([otpEmail(kind)], { email: yield* mailer(`smtp://u:p@127.0.0.1:${port}`) }).pipe(
        Effect.provide(logs.layer)
      )
      expect(sent.callerMillis).toBeLessThan(200)
      const alert = yield* undeliveredAlert("email", kind)
      expect(alert).toMatchObject({ kind: "notification_undelivered", severity: "warning", occurrences: 1, customerId: null })
      expect(alert!.message).toContain("ESOCKET ECONNREFUSED")
      expect(alert!.message).toContain("after 3 attempts")
      expect(alert!.message).not.toContain("493817")
      expect(alert!.message).not.toContain("ada@example.com")
      const undelivered = logs.lines.filter((l) => l.includes("notification undelivered"))
      expect(undelivered).toHaveLength(1)
      expect(undelivered[0]).toContain("\"attempts\":3")
      expect(logs.lines.filter((l) => l.includes("493817") || l.includes("Your code is") || l.includes("ada@example.com"))).toEqual([])
    }))

  it.scoped("relay refusing for good (550): one attempt only, then the alert", () =>
    Effect.gen(function*() {
      const peer = yield* smtpPeer({ _tag: "refuse", responseCode: 550 })
      const kind = uniqueKind("password_reset")
      yield* sendAndDrain([otpEmail(kind)], { email: yield* mailer(peer.url) })
      expect(peer.attempts()).toBe(1)
      expect(peer.received).toEqual([])
      const alert = yield* undeliveredAlert("email", kind)
      expect(alert!.message).toContain("smtp 550")
      expect(alert!.message).toContain("after 1 attempt)")
    }))

  it.scoped("relay answering 451 (try later): retried up to 3 attempts, then the alert", () =>
    Effect.gen(function*() {
      const peer = yield* smtpPeer({ _tag: "refuse", responseCode: 451 })
      const kind = uniqueKind("password_reset")
      yield* sendAndDrain([otpEmail(kind)], { email: yield* mailer(peer.url) })
      expect(peer.attempts()).toBe(3)
      const alert = yield* undeliveredAlert("email", kind)
      expect(alert!.message).toContain("smtp 451")
    }))

  it.scoped("wrong credentials in SMTP_URL (535): not retried, alert", () =>
    Effect.gen(function*() {
      const peer = yield* smtpPeer()
      const kind = uniqueKind("email_verification")
      const wrong = peer.url.replace(encodeURIComponent(SMTP_PASS), "wrong")
      yield* sendAndDrain([otpEmail(kind)], { email: yield* mailer(wrong) })
      expect(peer.attempts()).toBe(0)
      expect((yield* undeliveredAlert("email", kind))!.message).toMatch(/smtp 535 \(EAUTH\), after 1 attempt\)/)
    }))

  it.scoped("relay slower than the time limit: the caller is not held; each attempt times out; alert", () =>
    Effect.gen(function*() {
      const peer = yield* smtpPeer({ _tag: "slow", delayMs: 1_500 })
      const kind = uniqueKind("payout_sent")
      const sent = yield* sendAndDrain([otpEmail(kind)], { email: yield* mailer(peer.url, 5_000) })
      expect(sent.callerMillis).toBeLessThan(200)
      expect(peer.attempts()).toBe(3)
      expect((yield* undeliveredAlert("email", kind))!.message).toContain("timeout after 300 ms")
    }))

  it.scoped("a slow relay within the time limit delivers; no alert", () =>
    Effect.gen(function*() {
      const peer = yield* smtpPeer({ _tag: "slow", delayMs: 100 })
      const kind = uniqueKind("payout_sent")
      yield* sendAndDrain([otpEmail(kind)], { email: yield* mailer(peer.url, 2_000) }, {
        policy: { ...quickPolicy, timeout: Duration.seconds(2) }
      })
      expect(peer.received).toHaveLength(1)
      expect(yield* undeliveredAlert("email", kind)).toBeUndefined()
    }))

  it.scoped("an outage loses several messages of one kind: one open alert counting them", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const kind = uniqueKind("payout_sent")
      const email = yield* mailer(`smtp://127.0.0.1:${port}`)
      yield* sendAndDrain([otpEmail(kind), otpEmail(kind), otpEmail(kind)], { email }, {
        policy: { ...quickPolicy, attempts: 1 }
      })
      expect((yield* undeliveredAlert("email", kind))!.occurrences).toBe(3)
    }))
})

layer(Repos, { excludeTestServices: true })("SMTP_URL options", (it) => {
  it.effect("smtps:// is TLS on 465; smtp:// defaults to 587 and requires STARTTLS when asked, except on loopback", () =>
    Effect.sync(() => {
      const of = (url: string, requireTls = true) =>
        transportOptions({ url: Redacted.make(url), from: FROM, timeoutMs: 1_000, requireTls })
      expect(of("smtps://a%40b:p%2Fw@mail.example.com")).toMatchObject({
        host: "mail.example.com",
        port: 465,
        secure: true,
        requireTLS: false,
        auth: { user: "a@b", pass: "p/w" }
      })
      expect(of("smtp://relay.example.com")).toMatchObject({ port: 587, secure: false, requireTLS: true })
      expect(of("smtp://relay.example.com", false)).toMatchObject({ requireTLS: false })
      expect(of("smtp://127.0.0.1:2525")).toMatchObject({ port: 2525, requireTLS: false })
      expect(of("smtp://relay.example.com:25")).not.toHaveProperty("auth")
      expect(of("smtp://relay.example.com")).toMatchObject({ connectionTimeout: 1_000, greetingTimeout: 1_000, socketTimeout: 1_000 })
      expect(SMTP_USER).toBe("mailer")
    }))
})
