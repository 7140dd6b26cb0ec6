/**
 * Scheduled payouts against the real processes: plans are created through the API, the service is
 * stopped, and while it is down its plans fall three cycles behind (their anchor is moved three
 * days back in the database, as if the service had been down that long). On restart every missed
 * payout is made, once, in order, and each plan completes.
 *
 * - Embedded default (PGlite): the one `npm start` process catches up at start-up.
 * - PostgreSQL (TEST_DATABASE_URL): production's shape: the sandbox bank, `start:http` and TWO
 *   `start:scheduler` processes racing for the same due plans; still exactly one payout per cycle.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { createRequire } from "node:module"
import { afterAll, describe, expect, it } from "vitest"
import {
  api,
  freePort,
  freshDatabaseEnv,
  type Running,
  type Service,
  spawnEntry,
  startService,
  tempDir,
  waitFor
} from "./support/Service.js"

const dataDir = tempDir()
const database = await freshDatabaseEnv()
const onPostgres = database.env.DATABASE_URL !== undefined
const running: Array<Running> = []
const CUSTOMERS = 3

afterAll(async () => {
  for (const r of running) await r.stop("SIGKILL")
  await database.drop()
})

const outboxCode = (to: string, kind: string): string => {
  const lines = fs.readFileSync(path.join(dataDir, "outbox.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l))
  return lines.filter((l) => l.to === to && l.kind === kind).at(-1).code
}

interface Customer {
  readonly email: string
  readonly password: string
}

/** register → verify → BVN → bank account → ₦10,000 test deposit → a 3-day daily plan of ₦3,000. */
const customerWithPlan = async (base: string, i: number): Promise<Customer> => {
  const email = `payout.${i}.${Date.now()}@example.com`
  const password = "correct horse"
  const reg = await api(base, "POST", "/api/v1/auth/register", { email, password })
  expect(reg.status).toBe(201)
  const accountId = reg.body.result.id
  await api(base, "POST", "/api/v1/auth/otp/email/send", { accountId })
  const verified = await api(base, "POST", "/api/v1/auth/otp/email/verify", { accountId, pin: outboxCode(email, "email_verification") })
  const token = verified.body.result.accessToken
  const bvn = await api(base, "POST", "/api/v1/auth/verify-bvn", {
    bvn: `3${String(Date.now()).slice(-6)}${String(i).padStart(4, "0")}`,
    firstName: "Ada",
    lastName: "Obi",
    phone: `0805${String(Date.now()).slice(-4)}${String(i).padStart(3, "0")}`,
    address: "1 Marina, Lagos",
    gender: "female",
    dateOfBirth: "1990-01-01"
  }, token)
  expect(bvn.body).toMatchObject({ code: 200, message: "BVN verified." })
  expect((await api(base, "POST", "/api/v1/customers/create-account", undefined, token)).status).toBe(201)
  expect((await api(base, "POST", "/api/v1/transactions/deposit/test", { amountKobo: 1_000_000 }, token)).status).toBe(200)
  const plan = await api(base, "POST", "/api/v1/disbursements/plan", {
    totalAmountKobo: 300_000,
    durationDays: 3,
    frequency: "daily",
    withdrawalAccountNumber: "0123450001",
    withdrawalBankCode: "000013",
    scheduledTime: "09:00",
    scheduledTimezone: "Africa/Lagos"
  }, token)
  expect(plan.status).toBe(200)
  expect(plan.body.result).toMatchObject({ active: true, cyclesTotal: 3, cyclesPaid: 0 })
  return { email, password }
}

/** Three days of downtime: every plan's schedule starts three days ago, so all three cycles are due. */
const BEHIND = `
  UPDATE disbursement_plans
  SET anchor_date = to_char(current_date - 3, 'YYYY-MM-DD'), next_due_at = now() - interval '3 days'`

const fallBehind = async () => {
  if (onPostgres) {
    const { Client } = createRequire(import.meta.url)("pg") as {
      Client: new(url: string) => { connect(): Promise<void>; query(sql: string): Promise<{ rowCount: number }>; end(): Promise<void> }
    }
    const client = new Client(database.env.DATABASE_URL!)
    await client.connect()
    try {
      expect((await client.query(BEHIND)).rowCount).toBe(CUSTOMERS)
    } finally {
      await client.end()
    }
  } else {
    const { PGlite } = await import("@electric-sql/pglite")
    const db = new PGlite({ dataDir: path.join(dataDir, "pglite") })
    try {
      expect((await db.query(BEHIND)).affectedRows).toBe(CUSTOMERS)
    } finally {
      await db.close()
    }
  }
}

/** Polls until every customer's plan completed; returns each one's payout history. */
const allCompleted = async (base: string, owner: Running, customers: ReadonlyArray<Customer>) => {
  const histories: Array<Array<any>> = []
  await waitFor(owner, async () => {
    histories.length = 0
    for (const c of customers) {
      const login = await api(base, "POST", "/api/v1/auth/login", { email: c.email, password: c.password })
      const token = login.body.result.accessToken
      const plan = await api(base, "GET", "/api/v1/disbursements/plan", undefined, token)
      if (plan.body.result.status !== "completed") return false
      histories.push((await api(base, "GET", "/api/v1/disbursements/history", undefined, token)).body.result)
    }
    return true
  }, 90_000)
  return histories
}

const expectPaidOnceEach = (histories: ReadonlyArray<ReadonlyArray<any>>) => {
  expect(histories.length).toBe(CUSTOMERS)
  for (const rows of histories) {
    expect(rows.map((t) => [t.purpose, t.amountKobo, t.status])).toEqual([
      ["disbursement", "100000", "confirmed"],
      ["disbursement", "100000", "confirmed"],
      ["disbursement", "100000", "confirmed"]
    ])
  }
}

describe.runIf(!onPostgres)("embedded default: a restart catches up every missed payout", () => {
  it("plans created, the service down for three days, restarted: each cycle paid once, in order", async () => {
    const env = { DATA_DIR: dataDir }
    let service: Service = await startService(env)
    running.push(service)
    const customers: Array<Customer> = []
    for (let i = 0; i < CUSTOMERS; i++) customers.push(await customerWithPlan(service.baseUrl, i))
    expect(await service.stop("SIGTERM")).toBe(0)

    await fallBehind()
    service = await startService(env)
    running.push(service)
    const histories = await allCompleted(service.baseUrl, service, customers)
    expectPaidOnceEach(histories)
    expect(service.output()).toContain("due-payouts")
    expect(await service.stop("SIGTERM")).toBe(0)
  }, 180_000)
})

describe.runIf(onPostgres)("PostgreSQL: two scheduler processes pay each instalment once", () => {
  it("the sandbox, the API and two schedulers as separate processes, after three days down", async () => {
    const sandboxPort = await freePort()
    const apiPort = await freePort()
    const coreBanking = { CORE_BANKING_URL: `http://127.0.0.1:${sandboxPort}` }
    const sandbox = spawnEntry("packages/sandbox/src/main.ts", {
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_DATA_DIR: path.join(dataDir, "sandbox"),
      SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${apiPort}/api/v1/webhooks/core-banking`
    })
    running.push(sandbox)
    await waitFor(sandbox, () => sandbox.output().includes("sandbox bank listening"))
    const env = { DATA_DIR: dataDir, ...database.env, ...coreBanking }
    // the API on the port the sandbox announces deposits to
    const http = spawnEntry("packages/runtime/src/http.ts", { ...env, PORT: String(apiPort) })
    running.push(http)
    const baseUrl = `http://127.0.0.1:${apiPort}`
    await waitFor(http, async () => (await fetch(`${baseUrl}/api/v1/openapi.json`).catch(() => undefined))?.ok === true)
    const customers: Array<Customer> = []
    for (let i = 0; i < CUSTOMERS; i++) customers.push(await customerWithPlan(baseUrl, i))

    await fallBehind()
    const schedulers = [spawnEntry("packages/runtime/src/scheduler.ts", env), spawnEntry("packages/runtime/src/scheduler.ts", env)]
    running.push(...schedulers)
    const histories = await allCompleted(baseUrl, schedulers[0]!, customers)
    expectPaidOnceEach(histories)
    for (const s of schedulers) {
      expect(s.output()).toContain("due-payouts")
      expect(await s.stop("SIGTERM")).toBe(0)
    }
    expect(await http.stop("SIGTERM")).toBe(0)
    expect(await sandbox.stop("SIGTERM")).toBe(0)
  }, 180_000)
})
