/**
 * Graceful shutdown of the API with money moving: the sandbox bank answers slowly (so each transfer
 * takes a second or more), several customers' transfers are in flight, and SIGTERM arrives. The API
 * stops accepting, lets every saga it started reach its end (they run uninterruptibly once stored),
 * closes its pools and exits 0. Nothing is left pending or leased, no request got a 5xx, and the
 * bank's books balance with our ledger: no kobo lost or doubled. PostgreSQL only, like production.
 */
import { createRequire } from "node:module"
import { afterAll, describe, expect, it } from "vitest"
import { client, onboard, transferTo0001 } from "./support/Customers.js"
import { freePort, freshDatabaseEnv, type Running, startApi, startSandbox, tempDir, waitFor } from "./support/Service.js"

const dataDir = tempDir()
const database = await freshDatabaseEnv()
const onPostgres = database.env.DATABASE_URL !== undefined
const running: Array<Running> = []
const CUSTOMERS = 6
const BANK_TOKEN = "development-core-banking-token-not-for-production"

afterAll(async () => {
  for (const r of running) await r.stop("SIGKILL")
  await database.drop()
})

describe.runIf(onPostgres)("SIGTERM to the API with transfers in flight", () => {
  it("every transfer it started ends (confirmed, not left pending or leased), it exits 0, and the books agree", async () => {
    const bankPort = await freePort()
    const apiPort = await freePort()
    const bankUrl = `http://127.0.0.1:${bankPort}`
    const sandbox = await startSandbox(dataDir, bankPort, apiPort)
    running.push(sandbox)
    const env = { DATA_DIR: dataDir, ...database.env, CORE_BANKING_URL: bankUrl }
    const base = `http://127.0.0.1:${apiPort}`
    const http = await startApi(env, apiPort)
    running.push(http)

    const customers = await Promise.all(Array.from({ length: CUSTOMERS }, async (_, i) => {
      const c = await onboard(base, dataDir, `sigterm${i}`)
      await client(base, c.token).deposits.testDeposit({ payload: { amountKobo: 1_000_000n } })
      return c
    }))
    // the API restarts against a slow bank: each provider call now takes 250 ms
    expect(await http.stop("SIGTERM")).toBe(0)
    await sandbox.stop("SIGTERM")
    const slowBank = await startSandbox(dataDir, bankPort, apiPort, { SANDBOX_LATENCY_MS: "250" })
    running.push(slowBank)
    const api2 = await startApi(env, apiPort)
    running.push(api2)

    const answers = customers.map((c) =>
      fetch(`${base}/api/v1/transactions/transfer`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${c.token}` },
        body: JSON.stringify(transferTo0001(20_000))
      }).then((r) => r.status, () => "no answer" as const)
    )
    const { Client } = createRequire(import.meta.url)("pg") as {
      Client: new(url: string) => {
        connect(): Promise<void>
        query(sql: string): Promise<{ rows: Array<any> }>
        end(): Promise<void>
      }
    }
    const db = new Client(database.env.DATABASE_URL!)
    await db.connect()
    try {
      const count = async (where: string) =>
        Number((await db.query(`SELECT count(*) AS n FROM transactions WHERE purpose = 'manual_transfer' AND ${where}`)).rows[0].n)
      // SIGTERM once every transfer is stored and none has finished: all are mid-saga
      await waitFor(api2, async () => (await count("true")) === CUSTOMERS, 30_000)
      expect(await count("status <> 'pending'")).toBe(0)
      const signalled = Date.now()
      expect(await api2.stop("SIGTERM")).toBe(0)
      expect(Date.now() - signalled).toBeLessThan(30_000)

      const statuses = await Promise.all(answers)
      expect(statuses.filter((s) => typeof s === "number" && s >= 500)).toEqual([])
      // every saga the API started reached its end before the process exited
      expect(await count("status = 'pending'")).toBe(0)
      expect(await count("status = 'confirmed'")).toBe(CUSTOMERS)
      expect(Number((await db.query(`SELECT count(*) AS n FROM transactions WHERE in_flight`)).rows[0].n)).toBe(0)

      const ledger = await fetch(`${bankUrl}/sandbox/ledger`, { headers: { authorization: `Bearer ${BANK_TOKEN}` } })
        .then((r) => r.json() as Promise<any>).then((j) => j.data ?? j)
      expect(ledger.customerBalances + ledger.settlement + ledger.paidOut).toBe(ledger.deposits)
      expect(ledger.paidOut).toBe(CUSTOMERS * 20_000)
    } finally {
      await db.end()
    }
    expect(await slowBank.stop("SIGTERM")).toBe(0)
  }, 240_000)
})
