/**
 * A programmable HTTP stub of the core banking provider for adapter tests: a real `node:http` server
 * on a random local port, living in the test's Scope. Each route ("METHOD /path", query excluded) is
 * given a handler that decides the reply of each hit: an envelope, any status, malformed text, a
 * delay, or a destroyed connection. The stub records every request it received (with its parsed
 * body) and the largest number of requests it had in flight at once.
 */
import { Effect, type Scope } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

export interface StubRequest {
  readonly method: string
  readonly path: string
  readonly query: URLSearchParams
  readonly headers: http.IncomingHttpHeaders
  readonly rawBody: string
  readonly body: unknown
}

export type StubReply =
  | { readonly _tag: "Json"; readonly status: number; readonly body: unknown; readonly delayMs: number }
  | { readonly _tag: "Text"; readonly status: number; readonly text: string; readonly delayMs: number }
  | { readonly _tag: "Destroy"; readonly delayMs: number }

/** Decides the reply to the `hit`-th request (1-based) of its route. */
export type StubHandler = (request: StubRequest, hit: number) => StubReply

export const reply = {
  envelope: (responseCode: string, responseMessage: string, data?: unknown): StubReply => ({
    _tag: "Json",
    status: 200,
    body: data === undefined ? { responseCode, responseMessage } : { responseCode, responseMessage, data },
    delayMs: 0
  }),
  ok: (data?: unknown): StubReply => reply.envelope("00", "Approved or completed successfully", data),
  code: (responseCode: string, responseMessage = `answer ${responseCode}`): StubReply =>
    reply.envelope(responseCode, responseMessage),
  status: (status: number, body: unknown = { error: "boom" }): StubReply => ({ _tag: "Json", status, body, delayMs: 0 }),
  text: (text: string, status = 200): StubReply => ({ _tag: "Text", status, text, delayMs: 0 }),
  destroy: (): StubReply => ({ _tag: "Destroy", delayMs: 0 }),
  delayed: (delayMs: number, r: StubReply): StubReply => ({ ...r, delayMs })
}

/** The same reply to every hit. */
export const always = (r: StubReply): StubHandler => () => r

/** One reply per hit, the last one repeated. */
export const sequence = (...replies: ReadonlyArray<StubReply>): StubHandler => (_, hit) =>
  replies[Math.min(hit, replies.length) - 1]!

export interface StubBank {
  readonly url: string
  /** program a route: "GET /accounts/0123456789" */
  readonly route: (key: string, handler: StubHandler) => void
  /** every request received, in order */
  readonly requests: ReadonlyArray<StubRequest>
  /** the requests received on one route */
  readonly hits: (key: string) => ReadonlyArray<StubRequest>
  readonly maxInFlight: () => number
  /** requests received and not yet answered or abandoned by the client */
  readonly inFlight: () => number
}

export const makeStubBank: Effect.Effect<StubBank, never, Scope.Scope> = Effect.gen(function*() {
  const routes = new Map<string, StubHandler>()
  const hitCounts = new Map<string, number>()
  const requests: Array<StubRequest> = []
  let inFlight = 0
  let maxInFlight = 0

  const server = http.createServer((req, res) => {
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    let done = false
    const finish = () => {
      if (!done) {
        done = true
        inFlight--
      }
    }
    res.on("close", finish)
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stub")
      const rawBody = Buffer.concat(chunks).toString("utf8")
      let body: unknown = undefined
      try {
        body = rawBody === "" ? undefined : JSON.parse(rawBody)
      } catch {
        body = rawBody
      }
      const request: StubRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        rawBody,
        body
      }
      requests.push(request)
      const key = `${request.method} ${request.path}`
      const hit = (hitCounts.get(key) ?? 0) + 1
      hitCounts.set(key, hit)
      const handler = routes.get(key)
      const r: StubReply = handler === undefined
        ? { _tag: "Text", status: 404, text: "no such route", delayMs: 0 }
        : handler(request, hit)
      const send = () => {
        if (res.destroyed || res.writableEnded) return
        switch (r._tag) {
          case "Destroy":
            req.socket.destroy()
            return
          case "Json":
            res.writeHead(r.status, { "content-type": "application/json" })
            res.end(JSON.stringify(r.body))
            return
          case "Text":
            res.writeHead(r.status, { "content-type": "text/plain" })
            res.end(r.text)
            return
        }
      }
      if (r.delayMs > 0) {
        const timer = setTimeout(send, r.delayMs)
        res.on("close", () => clearTimeout(timer))
      } else {
        send()
      }
    })
  })

  yield* Effect.acquireRelease(
    Effect.async<void>((resume) => {
      server.listen(0, "127.0.0.1", () => resume(Effect.void))
    }),
    () =>
      Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
        server.closeAllConnections()
      })
  )
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    route: (key, handler) => {
      routes.set(key, handler)
    },
    requests,
    hits: (key) => requests.filter((r) => `${r.method} ${r.path}` === key),
    maxInFlight: () => maxInFlight,
    inFlight: () => inFlight
  }
})

/** A local port nobody listens on (connection refused). */
export const closedPort: Effect.Effect<number> = Effect.async<number>((resume) => {
  const server = http.createServer()
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    server.close(() => resume(Effect.succeed(port)))
  })
})
