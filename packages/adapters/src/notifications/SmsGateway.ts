/**
 * SMS through an HTTP gateway shaped like the common Nigerian SMS APIs (Termii's "send message"):
 * POST SMS_GATEWAY_URL with JSON `{api_key, to, from, sms, type: "plain", channel: "generic"}`,
 * `to` in international form without "+" (2348031234567), `from` the registered sender id. A 2xx
 * answer with a `message_id` is accepted.
 *
 * One attempt per `send` (Delivery.ts retries and bounds time; an interrupted attempt aborts its
 * request). 408, 429 and 5xx are transient; other 4xx and an unreadable 2xx are final: the gateway
 * may have queued the message, and sending it again could charge and deliver it twice.
 */
import type { OutboundMessage } from "@app/domain"
import { Effect, Redacted } from "effect"
import { DeliveryFailure, type Transport } from "./Delivery.js"

export interface SmsGatewaySettings {
  readonly url: string
  readonly apiKey: Redacted.Redacted<string>
  readonly senderId: string
}

/** The gateway's number format: digits only, country code first. */
export const gatewayNumber = (to: string) => to.replace(/^\+/, "")

const bodyOf = (settings: SmsGatewaySettings, message: OutboundMessage) =>
  JSON.stringify({
    api_key: Redacted.value(settings.apiKey),
    to: gatewayNumber(message.to),
    from: settings.senderId,
    sms: message.text,
    type: "plain",
    channel: "generic"
  })

const networkFailure = (error: unknown) => {
  const cause = (error as { cause?: { code?: unknown } })?.cause
  const code = typeof cause?.code === "string" ? cause.code : (error as Error)?.name ?? "Error"
  return new DeliveryFailure({ reason: `sms-gateway ${code}`, retryable: true })
}

export const makeSmsGateway = (settings: SmsGatewaySettings): Transport => ({
  name: "sms-gateway",
  send: (message) =>
    Effect.gen(function*() {
      const response = yield* Effect.tryPromise({
        try: (signal) =>
          fetch(settings.url, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json" },
            body: bodyOf(settings, message),
            signal
          }),
        catch: networkFailure
      })
      const answer = yield* Effect.tryPromise({ try: () => response.text(), catch: networkFailure })
      if (!response.ok) {
        const status = response.status
        return yield* new DeliveryFailure({
          reason: `sms-gateway HTTP ${status}`,
          retryable: status === 408 || status === 429 || status >= 500
        })
      }
      const messageId = yield* Effect.try(() => (JSON.parse(answer) as { message_id?: unknown })?.message_id).pipe(
        Effect.orElseSucceed(() => undefined)
      )
      if ((typeof messageId !== "string" && typeof messageId !== "number") || String(messageId).length === 0) {
        return yield* new DeliveryFailure({ reason: `sms-gateway HTTP ${response.status} without a message_id`, retryable: false })
      }
    })
})
