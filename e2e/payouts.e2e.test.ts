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
import * as path from "node:path"
import { createRequire } from "node:module"
import { afterAll, describe, expect, it } from "vitest"
import { Redacted } from "effect"
import { BEHIND, client, type Customer, customerWithPlan } from "./support/Customers.js"
import {
  freePort,
  freshDatabaseEnv,
  type Running,
  type Service,
  spawnEntry,
  startApi,
  startSandbox,
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
  const histories: Array<ReadonlyArray<any>> = []
  await waitFor(owner, async () => {
    histories.length = 0
    for (const c of customers) {
      const { accessToken } = await client(base).auth.login({ payload: { email: c.email, password: Redacted.make(c.password) } })
      const customer = client(base, accessToken)
      if ((await customer.plans.get()).status !== "completed") return false
      histories.push(await customer.plans.history())
    }
    return true
  }, 90_000)
  return histories
}

const expectPaidOnceEach = (histories: ReadonlyArray<ReadonlyArray<any>>) => {
  expect(histories.length).toBe(CUSTOMERS)
  for (const rows of histories) {
    expect(rows.map((t) => [t.purpose, t.amountKobo, t.status])).toEqual([
      ["disbursement", 100_000n, "confirmed"],
      ["disbursement", 100_000n, "confirmed"],
      ["disbursement", 100_000n, "confirmed"]
    ])
  }
}

describe.runIf(!onPostgres)("embedded default: a restart catches up every missed payout", () => {
  it("plans created, the service down for three days, restarted: each cycle paid once, in order", async () => {
    const env = { DATA_DIR: dataDir }
    let service: Service = await startService(env)
    running.push(service)
    const customers: Array<Customer> = []
    for (let i = 0; i < CUSTOMERS; i++) customers.push(await customerWithPlan(service.baseUrl, dataDir, `payout${i}`))
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
    const sandbox = await startSandbox(dataDir, sandboxPort, apiPort)
    running.push(sandbox)
    const env = { DATA_DIR: dataDir, ...database.env, ...coreBanking }
    // the API on the port the sandbox announces deposits to
    const http = await startApi(env, apiPort)
    running.push(http)
    const baseUrl = `http://127.0.0.1:${apiPort}`
    const customers: Array<Customer> = []
    for (let i = 0; i < CUSTOMERS; i++) customers.push(await customerWithPlan(baseUrl, dataDir, `payout${i}`))

    await fallBehind()
    const schedulers = [spawnEntry("packages/runtime/src/scheduler.ts", env), spawnEntry("packages/runtime/src/scheduler.ts", env)]
    running.push(...schedulers)
    const histories = await allCompleted(baseUrl, schedulers[0]!, customers)
    expectPaidOnceEach(histories)
    // a job run that paid something logs its line; one that found nothing left logs at debug (quiet
    // by default), so only the schedulers together are sure to have said it
    expect(schedulers.map((s) => s.output()).join("\n")).toContain("due-payouts")
    for (const s of schedulers) expect(await s.stop("SIGTERM")).toBe(0)
    expect(await http.stop("SIGTERM")).toBe(0)
    expect(await sandbox.stop("SIGTERM")).toBe(0)
  }, 180_000)
})
