/**
 * SMS through the HTTP gateway adapter against a stub Termii-like gateway on loopback (node:http):
 * the JSON it receives and the api key; the gateway down, too slow, refusing (4xx) or failing (5xx,
 * 429); an answer without a message id; and a channel with no transport in production.
 */
import { Notifier, type OutboundMessage } from "@app/domain"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import { AppConfigTest } from "../src/AppConfig.js"
import { NotificationTransportsLive, NotifierLive } from "../src/notifications/NotifierLive.js"
import { makeSmsGateway } from "../src/notifications/SmsGateway.js"
import { describeBackend } from "../src/testing/TestDatabase.js"
import { closedPort, SMS_API_KEY, smsPeer } from "./support/MailPeers.js"
import { quickPolicy, recordLogs, Repos, sendAndDrain, undeliveredAlert, uniqueKind } from "./support/NotifierHarness.js"

const otpSms = (kind: string): OutboundMessage => ({
  channel: "sms",
  to: "+2348031234567",
  text: "Your kobo-plans code is 582013. It expires in 10 minutes.",
  kind,
  code: "582013"
})

const gateway = (url: string, apiKey = SMS_API_KEY) =>
  makeSmsGateway({ url, apiKey: Redacted.make(apiKey), senderId: "KoboPlans" })

layer(Repos, { excludeTestServices: true, timeout: "90 seconds" })(`SMS gateway (${describeBackend()})`, (it) => {
  it.scoped("NotifierLive with SMS_* posts a code at once as JSON {api_key, to, from, sms, type, channel}; nothing secret logged", () =>
    Effect.gen(function*() {
      const peer = yield* smsPeer()
      const logs = recordLogs()
      const kind = uniqueKind("phone_verification")
      const config = AppConfigTest({
        sms: Option.some({ url: peer.url, apiKey: Redacted.make(SMS_API_KEY), senderId: "KoboPlans" })
      })
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(NotifierLive.pipe(Layer.provideMerge(NotificationTransportsLive), Layer.provide(config)))
        yield* Effect.provide(Effect.flatMap(Notifier, (n) => n.send(otpSms(kind))), context)
      })).pipe(Effect.provide(logs.layer))
      expect(peer.requests).toEqual([{
        method: "POST",
        path: "/api/sms/send",
        contentType: "application/json",
        body: {
          api_key: SMS_API_KEY,
          to: "2348031234567",
          from: "KoboPlans",
          sms: "Your kobo-plans code is 582013. It expires in 10 minutes.",
          type: "plain",
          channel: "generic"
        }
      }])
      expect(logs.lines.some((l) => l.includes("notification sent") && l.includes("*********567"))).toBe(true)
      expect(logs.lines.filter((l) => l.includes("582013") || l.includes(SMS_API_KEY) || l.includes("8031234567"))).toEqual([])
      expect(yield* undeliveredAlert("sms", kind)).toBeUndefined()
    }))

  it.scoped("a wrong api key (401): one attempt, then the alert naming the status", () =>
    Effect.gen(function*() {
      const peer = yield* smsPeer()
      const kind = uniqueKind("phone_verification")
      yield* sendAndDrain([otpSms(kind)], { sms: gateway(peer.url, "not-the-key") })
      expect(peer.requests).toHaveLength(1)
      const alert = yield* undeliveredAlert("sms", kind)
      expect(alert).toMatchObject({ kind: "notification_undelivered", severity: "warning", occurrences: 1 })
      expect(alert!.message).toContain("sms-gateway HTTP 401, after 1 attempt)")
      expect(alert!.message).not.toContain("582013")
      expect(alert!.message).not.toContain("8031234567")
    }))

  it.scoped("the gateway failing (500): retried up to 3 attempts, then the alert", () =>
    Effect.gen(function*() {
      const peer = yield* smsPeer({ _tag: "status", status: 500 })
      const kind = uniqueKind("phone_verification")
      const sent = yield* sendAndDrain([otpSms(kind)], { sms: gateway(peer.url) })
      expect(sent.callerMillis).toBeLessThan(200)
      expect(peer.requests).toHaveLength(3)
      expect((yield* undeliveredAlert("sms", kind))!.message).toContain("sms-gateway HTTP 500, after 3 attempts")
    }))

  it.scoped("rate limited (429) is retried; a 400 is not", () =>
    Effect.gen(function*() {
      const limited = yield* smsPeer({ _tag: "status", status: 429 })
      const refusing = yield* smsPeer({ _tag: "status", status: 400 })
      const kind429 = uniqueKind("payout_sent")
      const kind400 = uniqueKind("payout_sent")
      yield* sendAndDrain([otpSms(kind429)], { sms: gateway(limited.url) })
      yield* sendAndDrain([otpSms(kind400)], { sms: gateway(refusing.url) })
      expect(limited.requests).toHaveLength(3)
      expect(refusing.requests).toHaveLength(1)
      expect((yield* undeliveredAlert("sms", kind429))!.message).toContain("HTTP 429")
      expect((yield* undeliveredAlert("sms", kind400))!.message).toContain("HTTP 400")
    }))

  it.scoped("the gateway down (connection refused): the caller returns at once; 3 attempts; alert", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const logs = recordLogs()
      const kind = uniqueKind("phone_verification")
      const sent = yield* sendAndDrain([otpSms(kind)], { sms: gateway(`http://127.0.0.1:${port}/api/sms/send`) }).pipe(
        Effect.provide(logs.layer)
      )
      expect(sent.callerMillis).toBeLessThan(200)
      expect((yield* undeliveredAlert("sms", kind))!.message).toContain("sms-gateway ECONNREFUSED, after 3 attempts")
      expect(logs.lines.filter((l) => l.includes("notification undelivered"))).toHaveLength(1)
      expect(logs.lines.filter((l) => l.includes("582013") || l.includes(SMS_API_KEY))).toEqual([])
    }))

  it.scoped("the gateway slower than the time limit: each attempt is abandoned at the limit; alert", () =>
    Effect.gen(function*() {
      const peer = yield* smsPeer({ _tag: "slow", delayMs: 2_000 })
      const kind = uniqueKind("phone_verification")
      const started = Date.now()
      const sent = yield* sendAndDrain([otpSms(kind)], { sms: gateway(peer.url) })
      expect(sent.callerMillis).toBeLessThan(200)
      expect(Date.now() - started).toBeLessThan(1_900)
      expect(peer.requests).toHaveLength(3)
      expect((yield* undeliveredAlert("sms", kind))!.message).toContain("timeout after 300 ms, after 3 attempts")
    }))

  it.scoped("a 200 without a message_id is not trusted and not repeated (it may have been queued)", () =>
    Effect.gen(function*() {
      const peer = yield* smsPeer({ _tag: "noMessageId" })
      const kind = uniqueKind("phone_verification")
      yield* sendAndDrain([otpSms(kind)], { sms: gateway(peer.url) })
      expect(peer.requests).toHaveLength(1)
      expect((yield* undeliveredAlert("sms", kind))!.message).toContain("without a message_id")
    }))

  it.scoped("a slow gateway within the limit delivers; no alert", () =>
    Effect.gen(function*() {
      const peer = yield* smsPeer({ _tag: "slow", delayMs: 100 })
      const kind = uniqueKind("phone_verification")
      yield* sendAndDrain([otpSms(kind)], { sms: gateway(peer.url) }, { policy: { ...quickPolicy, timeout: Duration.seconds(2) } })
      expect(peer.requests).toHaveLength(1)
      expect(yield* undeliveredAlert("sms", kind)).toBeUndefined()
    }))

  it.effect("no SMS transport: in production without an outbox the message is lost, so alerted; elsewhere not", () =>
    Effect.gen(function*() {
      const prodKind = uniqueKind("phone_verification")
      const devKind = uniqueKind("phone_verification")
      yield* sendAndDrain([otpSms(prodKind)], {}, { appEnv: "production" })
      yield* sendAndDrain([otpSms(devKind)], {}, { appEnv: "development" })
      expect((yield* undeliveredAlert("sms", prodKind))!.message).toContain("no transport is configured")
      expect(yield* undeliveredAlert("sms", devKind)).toBeUndefined()
    }))
})
