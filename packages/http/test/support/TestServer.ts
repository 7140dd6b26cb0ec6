/**
 * The composed HTTP server for end-to-end tests: the real HttpApi, middleware and adapters,
 * listening on a random port (NodeHttpServer.layerTest), on a fresh database per test file
 * (PGlite, or PostgreSQL when TEST_DATABASE_URL is set), with its own outbox file from which
 * tests read one-time codes exactly as a developer would.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { adaptersLayer, AppConfigTest, type AppConfigShape } from "@app/adapters"
import { TestSqlLayer } from "@app/adapters/testing/TestDatabase"
import { Effect, Layer, LogLevel, Logger, Option } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { developmentBankOneSettings } from "@app/adapters/corebanking/bankone/BankOneConfig"
import { coreBankingLayer } from "@app/adapters/corebanking/Provider"
import { EmbeddedSandboxOnBank, SandboxBankInMemory } from "@app/sandbox"
import { HttpAppWithoutProvider } from "../../src/Server.js"

export const outboxFile = path.join(os.tmpdir(), `outbox-${randomUUID()}.jsonl`)

/**
 * TEST_CORE_BANKING_PROVIDER=bankone runs every real-stack suite with the service's adapter AND the
 * embedded sandbox in BankOne's dialect (docs/bankone.md), on the same bank and rules: `.ci/run`'s
 * second pass over the money suites. The TSQ interval is 0 here (the suites requery at once; the
 * interval itself is tested in the sandbox's BankOneDialect.test.ts).
 */
export const testProvider: AppConfigShape["coreBankingProvider"] = process.env.TEST_CORE_BANKING_PROVIDER === "bankone"
  ? "bankone"
  : "generic"

const providerConfig: Partial<AppConfigShape> = testProvider === "bankone"
  ? { coreBankingProvider: "bankone", bankone: developmentBankOneSettings({ tsqIntervalMs: 0 }) }
  : {}

/**
 * The test server with some configuration changed (e.g. the sandbox's behaviour). Exposes
 * CoreBanking and TestFunding (the sandbox, through the real HTTP adapter) to tests, and the
 * sandbox's bank itself (`SandboxBank`, in memory: `conservation`, its accounts).
 */
export const testServer = (config: Partial<AppConfigShape> = {}, logLevel: LogLevel.LogLevel = LogLevel.Warning) =>
  HttpAppWithoutProvider.pipe(
    Layer.provideMerge(coreBankingLayer(EmbeddedSandboxOnBank)),
    Layer.provideMerge(SandboxBankInMemory),
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provideMerge(adaptersLayer(TestSqlLayer)),
    Layer.provideMerge(
      AppConfigTest({ notifyOutboxFile: Option.some(outboxFile), maxBodyBytes: 16 * 1024, ...providerConfig, ...config })
    ),
    // request logs drown test output: warnings and errors only (e.g. 500 causes), which reach the
    // loggers a test adds; vitest.config.ts keeps them out of the output unless TEST_LOGS is set
    Layer.provide(Logger.minimumLogLevel(logLevel))
  )

export const TestServer = testServer()

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** the parsed JSON body (undefined when the body is not JSON) */
  readonly body: any
  readonly text: string
}

/** Sends a request to the test server; a reply whose body is not JSON has `body` undefined. */
export const send = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(request)
    const text = yield* response.text
    let body: unknown = undefined
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
    return { status: response.status, headers: response.headers, body, text } as Reply
  }).pipe(Effect.scoped, Effect.orDie)

const withToken = (token?: string) => (r: HttpClientRequest.HttpClientRequest) =>
  token === undefined ? r : HttpClientRequest.bearerToken(r, token)

/** A JSON request; `body` is serialised as is. */
export const call = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, body?: unknown, token?: string) =>
  send(
    HttpClientRequest.make(method)(url).pipe(
      withToken(token),
      body === undefined ? (r) => r : HttpClientRequest.bodyUnsafeJson(body)
    )
  )

/** A request with a raw body and content type, for malformed and oversized bodies. */
export const callRaw = (url: string, raw: string, contentType = "application/json", token?: string) =>
  send(HttpClientRequest.post(url).pipe(withToken(token), HttpClientRequest.bodyText(raw, contentType)))

export interface OutboxLine {
  readonly channel: "email" | "sms"
  readonly to: string
  readonly subject: string | null
  readonly text: string
  readonly kind: string
  readonly code: string | null
  readonly at: string
}

export const outbox = (): ReadonlyArray<OutboxLine> =>
  fs.existsSync(outboxFile)
    ? fs.readFileSync(outboxFile, "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l))
    : []

/** The newest code sent to `to` (an email or +234 phone) of the given kind. */
export const lastCode = (to: string, kind: string): string => {
  const line = outbox().filter((m) => m.to === to && m.kind === kind).at(-1)
  if (line?.code == null) throw new Error(`no ${kind} code sent to ${to}`)
  return line.code
}
