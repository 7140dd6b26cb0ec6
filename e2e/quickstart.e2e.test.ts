/**
 * The README quick start, exactly as a new developer follows it, against the real process:
 * register, read the code from the outbox file, verify, sign in, refresh, read the profile.
 * Then a restart keeps the data (embedded PGlite under DATA_DIR), SIGTERM stops the process
 * cleanly, and production refuses to start with development secrets.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { api, freePort, freshDatabaseEnv, type Service, spawnEntry, startService, tempDir, waitFor } from "./support/Service.js"

const dataDir = tempDir()
const database = await freshDatabaseEnv()
const databaseEnv = database.env
const env = { DATA_DIR: dataDir, ...databaseEnv }
/** the sandbox's development token, as the README documents it */
const SANDBOX_TOKEN = "development-core-banking-token-not-for-production"
const email = `ada.${Date.now()}@example.com`
const phone = `0803${String(Date.now()).slice(-7)}`
let service: Service | undefined

afterAll(async () => {
  await service?.stop("SIGKILL")
  await database.drop()
})

const outboxCode = (to: string, kind: string): string => {
  const lines = fs.readFileSync(path.join(dataDir, "outbox.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l))
  const line = lines.filter((l) => l.to === to && l.kind === kind).at(-1)
  expect(line).toMatchObject({ channel: "email", to, kind, code: expect.stringMatching(/^\d{6}$/) })
  expect(typeof line.at).toBe("string")
  return line.code
}

describe("quick start against the real process", () => {
  it("register → outbox code → verify → login → refresh → /customers/me", async () => {
    service = await startService(env)
    const base = service.baseUrl

    const reg = await api(base, "POST", "/api/v1/auth/register", {
      email,
      password: "correct horse",
      phone,
      firstName: "Ada",
      lastName: "Obi"
    })
    expect(reg.status).toBe(201)
    const accountId = reg.body.result.id

    expect((await api(base, "POST", "/api/v1/auth/otp/email/send", { accountId })).status).toBe(200)
    const code = outboxCode(email, "email_verification")
    const verified = await api(base, "POST", "/api/v1/auth/otp/email/verify", { accountId, pin: code })
    expect(verified.status).toBe(200)

    const login = await api(base, "POST", "/api/v1/auth/login", { email, password: "correct horse" })
    expect(login.status).toBe(200)
    const refreshed = await api(base, "POST", "/api/v1/auth/refresh-token", { refreshToken: login.body.result.refreshToken })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.result.refreshToken).not.toBe(login.body.result.refreshToken)

    const me = await api(base, "GET", "/api/v1/customers/me", undefined, refreshed.body.result.accessToken)
    expect(me.body).toMatchObject({
      apiObject: "Customer",
      code: 200,
      status: "success",
      result: { id: accountId, email, emailVerified: true, customerStatus: "verified", kycStatus: "pending" }
    })
    // nothing secret is logged: neither the code nor the password
    expect(service.output()).not.toContain(code)
    expect(service.output()).not.toContain("correct horse")
  })

  it("BVN → bank account → a deposit at the sandbox bank arrives by webhook alone", async () => {
    const base = service!.baseUrl
    const login = await api(base, "POST", "/api/v1/auth/login", { email, password: "correct horse" })
    const token = login.body.result.accessToken
    const bvn = await api(base, "POST", "/api/v1/auth/verify-bvn", {
      bvn: "22222222222",
      firstName: "Ada",
      lastName: "Obi",
      phone: "08030000000",
      address: "1 Marina, Lagos",
      gender: "female",
      dateOfBirth: "1990-01-01"
    }, token)
    expect(bvn.status).toBe(200)
    const opened = await api(base, "POST", "/api/v1/customers/create-account", undefined, token)
    expect(opened.status).toBe(201)
    const accountNumber: string = opened.body.result.accountNumber

    // the sandbox announces where it listens; fund the account there, as an inbound transfer would
    const sandboxUrl = /sandbox bank listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(service!.output())?.[1]
    expect(sandboxUrl).toBeDefined()
    const deposit = await fetch(`${sandboxUrl}/sandbox/deposits`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${SANDBOX_TOKEN}` },
      body: JSON.stringify({ accountNumber, amountKobo: 1_234_500 })
    })
    expect(((await deposit.json()) as { responseCode: string }).responseCode).toBe("00")

    // no sync call: the webhook alone records it
    let rows: Array<any> = []
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100))
      const me = await api(base, "GET", "/api/v1/customers/me", undefined, token)
      if (me.body.result.pndActive === false) rows = [me.body.result]
    }
    expect(rows[0]).toMatchObject({ coreAccountNumber: accountNumber, pndActive: false, balanceKobo: 1_234_500 })
    const history = await api(base, "GET", "/api/v1/customers/transactions", undefined, token)
    expect(history.body.result).toEqual([expect.objectContaining({ type: "credit", amountKobo: "1234500", channel: "nip_inbound" })])
    expect(service!.output()).not.toContain("22222222222") // the BVN is never logged
  })

  it("stops cleanly on SIGTERM, and a restart keeps the data", async () => {
    expect(await service!.stop("SIGTERM")).toBe(0)
    service = await startService(env)
    const login = await api(service.baseUrl, "POST", "/api/v1/auth/login", { email, password: "correct horse" })
    expect(login.status).toBe(200)
    // the sandbox's money survived the restart too (its tables live in the same database)
    const balance = await api(service.baseUrl, "GET", "/api/v1/customers/balance", undefined, login.body.result.accessToken)
    expect(balance.body.result).toEqual({ balanceKobo: 1_234_500 })
    expect(await service.stop("SIGINT")).toBe(0)
    service = undefined
  })

  it("production refuses to start with development or missing secrets, naming them", async () => {
    const run = spawnEntry("packages/runtime/src/http.ts", {
      APP_ENV: "production",
      DATA_DIR: tempDir(),
      ACCESS_TOKEN_SECRET: "development-access-token-secret-do-not-use-in-production"
    })
    expect(await run.exited).toBe(1)
    expect(run.output()).toContain("ACCESS_TOKEN_SECRET: must be a real secret")
    expect(run.output()).toContain("SECRET_HASH_KEY: is required but not set")
    expect(run.output()).toContain("SMTP_URL, MAIL_FROM: an email transport is required in production")
    // nor on the sandbox bank or the embedded PGlite database (issue 37)
    expect(run.output()).toContain("CORE_BANKING_URL: a real core banking provider is required in production")
    expect(run.output()).toContain("DATABASE_URL: PostgreSQL is required in production")
  })

  // production refuses PGlite (DATABASE_URL required): this one needs TEST_DATABASE_URL
  it.skipIf(databaseEnv.DATABASE_URL === undefined)("in production every log line is JSON, and a request's lines carry its correlation id", async () => {
    const secret = (name: string) => `${name.toLowerCase()}-a-real-secret-of-at-least-32-characters`
    const port = await freePort()
    const run = spawnEntry("packages/runtime/src/http.ts", {
      APP_ENV: "production",
      PORT: String(port),
      DATA_DIR: tempDir(),
      ...databaseEnv,
      ...Object.fromEntries(
        ["ACCESS_TOKEN_SECRET", "SECRET_HASH_KEY", "BVN_PEPPER", "RETENTION_KEY", "WEBHOOK_SECRET", "CORE_BANKING_TOKEN"]
          .map((name) => [name, secret(name)])
      ),
      // nothing listens there: this test needs no provider and sends no mail
      CORE_BANKING_URL: "http://127.0.0.1:9",
      SMTP_URL: "smtp://127.0.0.1:9",
      MAIL_FROM: "kobo-plans <no-reply@example.com>"
    })
    try {
      const base = `http://127.0.0.1:${port}`
      await waitFor(run, async () => (await fetch(`${base}/health`).catch(() => undefined))?.ok === true)
      const health = await fetch(`${base}/health`, { headers: { "x-request-id": "prod-log-check-0001" } })
      expect(health.headers.get("x-request-id")).toBe("prod-log-check-0001")
      await waitFor(run, () => run.output().includes("prod-log-check-0001"), 10_000)
      const lines = run.output().trim().split("\n").filter((l) => l.trim() !== "")
      // every line parses as JSON (no pretty multi-line output, no stray text)
      const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
      const ours = parsed.filter((l) => JSON.stringify(l).includes("prod-log-check-0001"))
      expect(ours.length).toBeGreaterThan(0)
      for (const line of ours) {
        expect(line).toMatchObject({ logLevel: expect.any(String), message: expect.anything(), timestamp: expect.any(String) })
        expect(JSON.stringify(line.annotations)).toContain("prod-log-check-0001")
      }
    } finally {
      expect(await run.stop("SIGTERM")).toBe(0)
    }
  })

  it("the scheduler runs as its own process and stops on SIGTERM", async () => {
    const scheduler = spawnEntry("packages/runtime/src/scheduler.ts", { DATA_DIR: dataDir, ...databaseEnv })
    // its jobs run at start-up; idle runs log at debug, so the start-up line is what shows
    await waitFor(scheduler, () => scheduler.output().includes("scheduler started in"))
    expect(await scheduler.stop("SIGTERM")).toBe(0)
  })
})
