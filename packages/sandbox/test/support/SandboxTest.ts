/**
 * The sandbox bank on a random port over a fresh bank in memory (`SandboxBankInMemory`: every
 * server a test builds in its context serves that same bank), a tiny webhook receiver, and request
 * helpers that speak the wire protocol over real HTTP.
 */
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { expect } from "@effect/vitest"
import { Context, Effect, Layer, Logger, LogLevel, Option } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import {
  ageSession as ageBankSession,
  conservation,
  SandboxBankInMemory,
  type SandboxOptions,
  SandboxServer,
  sandboxServerLayer
} from "../../src/index.js"

export const TOKEN = "sandbox-test-token"
export const WEBHOOK_HEADER = "x-webhook-secret"
export const WEBHOOK_SECRET = "sandbox-test-webhook-secret"

// -------------------------------------------------------------------------------------------------
// Webhook receiver
// -------------------------------------------------------------------------------------------------

export interface Delivery {
  readonly headers: http.IncomingHttpHeaders
  readonly body: any
  /** HTTP status the receiver answered */
  readonly status: number
}

export class WebhookReceiver extends Context.Tag("test/WebhookReceiver")<WebhookReceiver, {
  readonly url: string
  readonly deliveries: Array<Delivery>
  /** the next `n` requests are answered 500 */
  readonly failNext: (n: number) => void
}>() {}

export const WebhookReceiverLive = Layer.scoped(
  WebhookReceiver,
  Effect.gen(function*() {
    const deliveries: Array<Delivery> = []
    let failures = 0
    const server = http.createServer((req, res) => {
      let text = ""
      req.setEncoding("utf8")
      req.on("data", (chunk: string) => (text += chunk))
      req.on("end", () => {
        const status = failures > 0 ? 500 : 200
        if (failures > 0) failures--
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {
          // keep the raw text
        }
        deliveries.push({ headers: req.headers, body, status })
        res.writeHead(status, { "content-type": "application/json" }).end("{}")
      })
    })
    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.void))
      }),
      () =>
        Effect.async<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    const port = (server.address() as AddressInfo).port
    return {
      url: `http://127.0.0.1:${port}/api/v1/webhooks/sandbox`,
      deliveries,
      failNext: (n: number) => {
        failures = n
      }
    }
  })
)

// -------------------------------------------------------------------------------------------------
// The sandbox under test
// -------------------------------------------------------------------------------------------------

/** The sandbox (short 0004 delay, fast webhook retries) + receiver + its bank (in memory) + an HTTP client. */
export const sandboxTest = (overrides: Partial<SandboxOptions> = {}) =>
  Layer.unwrapEffect(
    Effect.map(WebhookReceiver, (receiver) =>
      sandboxServerLayer({
        port: 0,
        token: TOKEN,
        latencyMs: 0,
        webhook: Option.some({ url: receiver.url, header: WEBHOOK_HEADER, secret: WEBHOOK_SECRET }),
        slowTransferDelayMs: 400,
        webhookBackoffMs: 50,
        ...overrides
      }))
  ).pipe(
    Layer.provideMerge(WebhookReceiverLive),
    Layer.provideMerge(SandboxBankInMemory),
    Layer.provideMerge(FetchHttpClient.layer),
    // expected failures (e.g. the webhook being down) log warnings; keep test output quiet
    Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
  )

// -------------------------------------------------------------------------------------------------
// Requests
// -------------------------------------------------------------------------------------------------

export interface Reply {
  readonly status: number
  readonly body: any
}

/** A request to the sandbox; `token` null = no Authorization header. */
export const call = (
  method: "GET" | "POST",
  path: string,
  options: { readonly body?: unknown; readonly raw?: string; readonly token?: string | null; readonly baseUrl?: string } = {}
) =>
  Effect.gen(function*() {
    const baseUrl = options.baseUrl ?? (yield* SandboxServer).baseUrl
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method)(`${baseUrl}${path}`)
    const token = options.token === undefined ? TOKEN : options.token
    if (token !== null) request = HttpClientRequest.bearerToken(request, token)
    if (options.raw !== undefined) request = HttpClientRequest.bodyText(request, options.raw, "application/json")
    else if (options.body !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, options.body)
    const response = yield* client.execute(request)
    const text = yield* response.text
    let body: unknown = undefined
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
    return { status: response.status, body } as Reply
  }).pipe(Effect.scoped, Effect.orDie)

export const get = (path: string) => call("GET", path)
export const post = (path: string, body?: unknown) => call("POST", path, body === undefined ? {} : { body })

/** Sends `n` requests made by `request` at once; returns how many were answered with each response code. */
export const concurrentCodes = <R>(n: number, request: () => Effect.Effect<Reply, never, R>) =>
  Effect.map(Effect.all(Array.from({ length: n }, request), { concurrency: "unbounded" }), (replies) => {
    const counts: Record<string, number> = {}
    for (const r of replies) counts[r.body.responseCode] = (counts[r.body.responseCode] ?? 0) + 1
    return counts
  })

/** Asserts an HTTP 200 envelope with this response code; returns `data`. */
export const expectCode = (reply: Reply, code: string): any => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  expect(reply.body.responseCode, JSON.stringify(reply.body)).toBe(code)
  expect(typeof reply.body.responseMessage).toBe("string")
  return reply.body.data
}

// -------------------------------------------------------------------------------------------------
// Fixtures
// -------------------------------------------------------------------------------------------------

let counter = 0
const runTag = Math.random().toString(36).slice(2, 6).toUpperCase().padEnd(4, "0")
/** A fresh reference of exactly 12 characters: prefix (1) + run tag (4) + counter (7). */
export const ref = (prefix = "R"): string => `${prefix.slice(0, 1)}${runTag}${String(++counter).padStart(7, "0")}`

export const openAccount = (customerReference: string = ref("C"), names: { firstName?: string; lastName?: string } = {}) =>
  Effect.map(
    post("/accounts", {
      customerReference,
      firstName: names.firstName ?? "Ada",
      lastName: names.lastName ?? "Obi",
      otherNames: null,
      phone: "08030000000",
      email: "ada@example.com",
      dateOfBirth: "1990-01-01",
      gender: "female"
    }),
    (reply) => expectCode(reply, "00") as { accountNumber: string; accountName: string; customerReference: string }
  )

export const details = (accountNumber: string) => Effect.map(get(`/accounts/${accountNumber}`), (r) => expectCode(r, "00"))

export const deposit = (accountNumber: string, amountKobo: number) =>
  Effect.map(post("/sandbox/deposits", { accountNumber, amountKobo }), (r) => expectCode(r, "00").reference as string)

export const setPnd = (accountNumber: string, active: boolean) =>
  Effect.map(post(`/accounts/${accountNumber}/pnd/${active ? "activate" : "deactivate"}`), (r) => expectCode(r, "00"))

/** An account with `balance` kobo and PND lifted, ready to be debited. */
export const fundedAccount = (balance: number) =>
  Effect.gen(function*() {
    const { accountNumber } = yield* openAccount()
    if (balance > 0) yield* deposit(accountNumber, balance)
    yield* setPnd(accountNumber, false)
    return accountNumber
  })

export const debit = (accountNumber: string, amount: number, reference: string = ref("D")) =>
  post("/transactions/debit", { accountNumber, amount, retrievalReference: reference, narration: "plan funding" })

/** Puts `amount` into the settlement account the way the service would: deposit, then debit. */
export const fundSettlement = (amount: number) =>
  Effect.gen(function*() {
    const accountNumber = yield* fundedAccount(amount)
    expectCode(yield* debit(accountNumber, amount), "00")
  })

export const credit = (accountNumber: string, amount: number, reference: string = ref("K")) =>
  post("/transactions/credit", { accountNumber, amount, retrievalReference: reference, narration: "reversal" })

export const nameEnquiry = (accountNumber: string, bankCode: string) =>
  get(`/nip/name-enquiry?accountNumber=${encodeURIComponent(accountNumber)}&bankCode=${encodeURIComponent(bankCode)}`)

/** Name enquiry (must succeed), then the transfer. */
export const transfer = (destinationAccountNumber: string, amount: number, reference: string = ref("T"), bankCode = "000013") =>
  Effect.gen(function*() {
    const enquiry = expectCode(yield* nameEnquiry(destinationAccountNumber, bankCode), "00")
    return yield* post("/nip/transfers", {
      transactionReference: reference,
      amount,
      destinationAccountNumber,
      destinationBankCode: bankCode,
      destinationAccountName: enquiry.accountName,
      nameEnquirySessionId: enquiry.sessionId,
      narration: "payout"
    })
  })

/** Makes a name enquiry's session `ms` older at the bank (the sandbox compares its time with the clock's now). */
export const ageSession = (sessionId: string, ms: number) => ageBankSession(sessionId, ms)

export const requery = (reference: string) => get(`/transactions/${reference}/status`)

export const statusOf = (reference: string) => Effect.map(requery(reference), (r) => expectCode(r, "00").status as string)

export const ledger = Effect.map(get("/sandbox/ledger"), (r) => expectCode(r, "00") as {
  customerBalances: number
  settlement: number
  paidOut: number
  deposits: number
})

/** Money was neither created nor lost (`conservation` over the sandbox's bank); returns the totals. */
export const expectConserved = Effect.gen(function*() {
  const check = yield* conservation
  expect(check.problems).toEqual([])
  expect(check.ok).toBe(true)
  return check.ledger
})
