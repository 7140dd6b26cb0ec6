/**
 * Email over SMTP with nodemailer: a well-kept library that handles what a hand-written client would
 * get wrong (MIME multipart/alternative with attachments, header encoding, dot-stuffing, STARTTLS,
 * AUTH mechanisms). SMTP_URL is `smtp://user:pass@host:port` (STARTTLS when the relay offers
 * it; required in production unless the relay is on loopback) or `smtps://…` (TLS from the first byte).
 *
 * One attempt per `send`; Delivery.ts retries and bounds time. nodemailer's own connection, greeting
 * and socket time limits are set to the same budget so an abandoned attempt does not hold a socket.
 */
import type { OutboundMessage } from "@app/domain"
import { Effect, Redacted } from "effect"
import { getSystemErrorName } from "node:util"
import { DeliveryFailure, type Transport } from "./Delivery.js"

export interface SmtpSettings {
  readonly url: Redacted.Redacted<string>
  readonly from: string
  /** time limit of connecting, the greeting and each socket wait */
  readonly timeoutMs: number
  /** refuse to send (or authenticate) without STARTTLS on smtp:// */
  readonly requireTls: boolean
}

const isLoopback = (host: string) => host === "localhost" || host === "::1" || host === "[::1]" || host.startsWith("127.")

/** nodemailer's options from SMTP_URL (decoded credentials, port defaults 587 / 465). */
export const transportOptions = (settings: SmtpSettings) => {
  const url = new URL(Redacted.value(settings.url))
  const secure = url.protocol === "smtps:"
  const user = decodeURIComponent(url.username)
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port === "" ? (secure ? 465 : 587) : Number(url.port),
    secure,
    requireTLS: !secure && settings.requireTls && !isLoopback(url.hostname),
    ...(user === "" ? {} : { auth: { user, pass: decodeURIComponent(url.password) } }),
    // one connection per attempt: a pool re-queues a message on its own when a connection drops
    // (unbounded by default) and keeps sending one we gave up on, so retries would not be ours to count
    pool: false,
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: settings.timeoutMs,
    // never log envelopes or bodies
    logger: false,
    debug: false
  }
}

/** Transient: the relay down, a network error, or a 4xx ("try again later"); 5xx and the rest are final. */
const failureOf = (error: unknown): DeliveryFailure => {
  const e = error as { code?: unknown; responseCode?: unknown; errno?: unknown }
  const code = typeof e?.code === "string" ? e.code : "EUNKNOWN"
  // a socket error also names the system error, e.g. "ESOCKET ECONNREFUSED"
  const system = typeof e?.errno === "number" && e.errno < 0 ? ` ${getSystemErrorName(e.errno)}` : ""
  if (typeof e?.responseCode === "number") {
    return new DeliveryFailure({
      reason: `smtp ${e.responseCode} (${code})`,
      retryable: e.responseCode >= 400 && e.responseCode < 500
    })
  }
  return new DeliveryFailure({
    reason: `${code}${system}`,
    retryable: ["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "ECONNREFUSED", "ECONNRESET", "EPROTOCOL"].includes(code)
  })
}

const mailOf = (from: string, message: OutboundMessage) => ({
  from,
  to: message.to,
  subject: message.subject ?? "kobo-plans",
  text: message.text,
  // the same Message-ID on every attempt at one outbox message: a relay or mailbox that received
  // an earlier attempt (its answer lost) can recognise the repeat
  ...(message.reference === undefined ? {} : { messageId: `<${message.reference}@outbox.kobo-plans>` }),
  ...(message.html === undefined ? {} : { html: message.html }),
  ...(message.attachments === undefined
    ? {}
    : {
      attachments: message.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content }))
    })
})

/**
 * The SMTP transport, closed with the scope. nodemailer is imported here, when SMTP is configured,
 * not with the module: a start without SMTP_URL never loads it.
 */
export const makeSmtpMailer = (settings: SmtpSettings) =>
  Effect.gen(function*() {
    const { default: nodemailer } = yield* Effect.promise(() => import("nodemailer"))
    const transporter = yield* Effect.acquireRelease(
      Effect.sync(() => nodemailer.createTransport(transportOptions(settings))),
      (t) => Effect.sync(() => t.close())
    )
    return {
      name: "smtp",
      send: (message) =>
        Effect.tryPromise({
          try: () => transporter.sendMail(mailOf(settings.from, message)),
          catch: failureOf
        }).pipe(Effect.asVoid)
    } satisfies Transport
  })
