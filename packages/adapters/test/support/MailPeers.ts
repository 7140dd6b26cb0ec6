/**
 * Real peers on loopback for the notifier's tests: an SMTP server (smtp-server) that parses what it
 * receives (mailparser), a stub SMS gateway (node:http) that checks the JSON and the api key, and a
 * port where nothing listens. Each can be told to refuse or to be slow.
 */
import { Effect } from "effect"
import { type ParsedMail, simpleParser } from "mailparser"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

export const SMTP_USER = "mailer"
export const SMTP_PASS = "p@ss word/with:specials"

export interface SmtpPeer {
  readonly url: string
  /** mails accepted, parsed */
  readonly received: Array<ParsedMail>
  /** DATA commands seen (accepted or not) */
  readonly attempts: () => number
}

export type SmtpBehaviour =
  | { readonly _tag: "accept" }
  /** answer DATA with this SMTP code (e.g. 550 permanent, 451 transient) */
  | { readonly _tag: "refuse"; readonly responseCode: number }
  /** accept, but only after this long */
  | { readonly _tag: "slow"; readonly delayMs: number }

/** An SMTP server on 127.0.0.1 requiring AUTH (SMTP_USER/SMTP_PASS), no TLS; closed with the scope. */
export const smtpPeer = (behaviour: SmtpBehaviour = { _tag: "accept" }) =>
  Effect.acquireRelease(
    Effect.async<{ server: SMTPServer; peer: SmtpPeer }>((resume) => {
      const received: Array<ParsedMail> = []
      let attempts = 0
      const server = new SMTPServer({
        secure: false,
        hideSTARTTLS: true,
        disabledCommands: ["STARTTLS"],
        allowInsecureAuth: true,
        authMethods: ["PLAIN", "LOGIN"],
        logger: false,
        closeTimeout: 100,
        onAuth(auth, _session, callback) {
          if (auth.username === SMTP_USER && auth.password === SMTP_PASS) callback(null, { user: auth.username })
          else callback(new Error("Invalid username or password"))
        },
        onData(stream, _session, callback) {
          attempts++
          simpleParser(stream).then((mail) => {
            switch (behaviour._tag) {
              case "accept":
                received.push(mail)
                return callback()
              case "refuse":
                return callback(Object.assign(new Error("Refused by the test relay"), { responseCode: behaviour.responseCode }))
              case "slow":
                return void setTimeout(() => {
                  received.push(mail)
                  callback()
                }, behaviour.delayMs)
            }
          }, (error) => callback(error))
        }
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.server.address() as AddressInfo
        const url = `smtp://${encodeURIComponent(SMTP_USER)}:${encodeURIComponent(SMTP_PASS)}@127.0.0.1:${port}`
        resume(Effect.succeed({ server, peer: { url, received, attempts: () => attempts } }))
      })
    }),
    ({ server }) => Effect.async<void>((resume) => server.close(() => resume(Effect.void)))
  ).pipe(Effect.map(({ peer }) => peer))

export const SMS_API_KEY = "test-sms-api-key"

export interface SmsRequest {
  readonly method: string
  readonly path: string
  readonly contentType: string | undefined
  readonly body: Record<string, unknown>
}

export type SmsBehaviour =
  | { readonly _tag: "accept" }
  | { readonly _tag: "status"; readonly status: number }
  | { readonly _tag: "slow"; readonly delayMs: number }
  /** 200 with a body that has no message_id */
  | { readonly _tag: "noMessageId" }

export interface SmsPeer {
  readonly url: string
  readonly requests: Array<SmsRequest>
}

/**
 * A Termii-like gateway on 127.0.0.1: POST /api/sms/send with JSON; a wrong api_key is 401; a good
 * request answers per `behaviour` (accepted: 200 {message_id, message, balance}).
 */
export const smsPeer = (behaviour: SmsBehaviour = { _tag: "accept" }) =>
  Effect.acquireRelease(
    Effect.async<{ server: http.Server; peer: SmsPeer }>((resume) => {
      const requests: Array<SmsRequest> = []
      const server = http.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          let body: Record<string, unknown> = {}
          try {
            body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
          } catch {
            body = {}
          }
          requests.push({ method: req.method ?? "", path: req.url ?? "", contentType: req.headers["content-type"], body })
          const answer = (status: number, json: unknown) => {
            res.writeHead(status, { "content-type": "application/json" })
            res.end(JSON.stringify(json))
          }
          if (req.method !== "POST" || req.url !== "/api/sms/send") return answer(404, { message: "not found" })
          if (body.api_key !== SMS_API_KEY) return answer(401, { message: "Invalid API key" })
          switch (behaviour._tag) {
            case "accept":
              return answer(200, { message_id: `msg-${requests.length}`, message: "Successfully Sent", balance: 100 })
            case "status":
              return answer(behaviour.status, { message: "refused" })
            case "slow":
              return void setTimeout(() => answer(200, { message_id: "late", message: "Successfully Sent" }), behaviour.delayMs)
            case "noMessageId":
              return answer(200, { message: "queued" })
          }
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ server, peer: { url: `http://127.0.0.1:${port}/api/sms/send`, requests } }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ peer }) => peer))

/** A loopback port where nothing listens (connection refused): one that was just bound and freed. */
export const closedPort = Effect.async<number>((resume) => {
  const server = http.createServer()
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    server.close(() => resume(Effect.succeed(port)))
  })
})
