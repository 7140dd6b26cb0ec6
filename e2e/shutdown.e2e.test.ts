/**
 * Graceful shutdown in the middle of a payout run, on PostgreSQL with the processes of production:
 * the sandbox bank (with latency, so the run takes seconds), the API, and a scheduler paying many
 * due instalments two at a time. SIGTERM arrives mid-run: the scheduler exits 0 within seconds,
 * having paid some but not all; the payouts it was making end at a journaled step and their plan
 * claims are released, so a new scheduler finishes everything at once (not after the 2-minute
 * lease a crash leaves behind), and every instalment is paid exactly once.
 */
import { createRequire } from "node:module"
import { afterAll, describe, expect, it } from "vitest"
import { BEHIND, customerWithPlan } from "./support/Customers.js"
import { freePort, freshDatabaseEnv, type Running, spawnEntry, startApi, startSandbox, tempDir, waitFor } from "./support/Service.js"

const dataDir = tempDir()
const database = await freshDatabaseEnv()
const onPostgres = database.env.DATABASE_URL !== undefined
const running: Array<Running> = []
const PLANS = 16

afterAll(async () => {
  for (const r of running) await r.stop("SIGKILL")
  await database.drop()
})

interface PgClient {
  connect(): Promise<void>
  query(sql: string): Promise<{ rows: Array<any>; rowCount: number }>
  end(): Promise<void>
}

const paidSoFar = async (db: PgClient) =>
  Number((await db.query(`SELECT count(*) AS n FROM transactions WHERE purpose = 'disbursement' AND status = 'confirmed'`)).rows[0].n)

describe.runIf(onPostgres)("SIGTERM in the middle of a payout run", () => {
  it("the scheduler stops cleanly mid-run, and the next one finishes every instalment once, without waiting out a lease", async () => {
    const bankPort = await freePort()
    const apiPort = await freePort()
    const sandbox = await startSandbox(dataDir, bankPort, apiPort, { SANDBOX_LATENCY_MS: "40" })
    running.push(sandbox)
    const env = { DATA_DIR: dataDir, ...database.env, CORE_BANKING_URL: `http://127.0.0.1:${bankPort}` }
    const http = await startApi(env, apiPort)
    running.push(http)
    const baseUrl = `http://127.0.0.1:${apiPort}`
    await Promise.all(Array.from({ length: PLANS }, (_, i) => customerWithPlan(baseUrl, dataDir, `shutdown${i}`)))

    const { Client } = createRequire(import.meta.url)("pg") as { Client: new(url: string) => PgClient }
    const db = new Client(database.env.DATABASE_URL!)
    await db.connect()
    try {
      expect((await db.query(BEHIND)).rowCount).toBe(PLANS)
      const schedulerEnv = { ...env, PAYOUT_CONCURRENCY: "2", PAYOUT_BATCH_SIZE: "4" }
      const first = spawnEntry("packages/runtime/src/scheduler.ts", schedulerEnv)
      running.push(first)
      await waitFor(first, async () => (await paidSoFar(db)) >= 3, 60_000)

      const signalled = Date.now()
      expect(await first.stop("SIGTERM")).toBe(0)
      expect(Date.now() - signalled).toBeLessThan(15_000)
      const paidBefore = await paidSoFar(db)
      expect(paidBefore).toBeLessThan(PLANS * 3) // it really was stopped mid-run
      // nothing half-done is left claimed: plan claims released, no movement held by the dead process
      const claimed = await db.query(`SELECT count(*) AS n FROM disbursement_plans WHERE lease_until > now()`)
      expect(Number(claimed.rows[0].n)).toBe(0)
      const held = await db.query(`SELECT count(*) AS n FROM transactions WHERE in_flight AND lease_until > now()`)
      expect(Number(held.rows[0].n)).toBe(0)

      const restartedAt = Date.now()
      const second = spawnEntry("packages/runtime/src/scheduler.ts", schedulerEnv)
      running.push(second)
      await waitFor(second, async () => {
        const open = await db.query(`
          SELECT (SELECT count(*) FROM disbursement_plans WHERE state <> 'completed') AS plans,
                 (SELECT count(*) FROM transactions WHERE status = 'pending') AS pending`)
        return Number(open.rows[0].plans) === 0 && Number(open.rows[0].pending) === 0
      }, 90_000)
      // well under the 2-minute lease a crashed scheduler leaves behind
      expect(Date.now() - restartedAt).toBeLessThan(60_000)

      const perPlan = await db.query(`
        SELECT p.id, count(t.id) FILTER (WHERE t.status = 'confirmed') AS confirmed
        FROM disbursement_plans p LEFT JOIN transactions t ON t.plan_id = p.id AND t.purpose = 'disbursement'
        GROUP BY p.id`)
      expect(perPlan.rows.map((r) => Number(r.confirmed))).toEqual(Array(PLANS).fill(3))
      expect(await second.stop("SIGTERM")).toBe(0)
    } finally {
      await db.end()
    }
    expect(await http.stop("SIGTERM")).toBe(0)
    expect(await sandbox.stop("SIGTERM")).toBe(0)
  }, 240_000)
})
