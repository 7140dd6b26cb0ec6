/**
 * SIGKILL of `npm start` on the embedded default (PGlite and the sandbox bank under DATA_DIR), in
 * the middle of a burst of transfers and a payout run (issue 41). Then a restart, and the clients
 * retry with the same idempotency keys:
 * - one movement per key, the same answer for a key the API had acknowledged;
 * - the sandbox's books balance (GET /sandbox/ledger);
 * - nothing left pending once recovered, every instalment paid once;
 * - each customer transacts again within seconds of the restart (the dead process's leases are
 *   taken back at start-up, not after their 2 minutes);
 * - while the service runs, the operator CLI on the same data directory is refused at once,
 *   naming the holder (issue 36).
 */
import { PGlite } from "@electric-sql/pglite"
import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { client, createDailyPlan, type Customer, onboard, transferTo0001 } from "./support/Customers.js"
import { api, nodeArgs, root, type Service, startService, tempDir } from "./support/Service.js"

const dataDir = tempDir()
const onPostgres = (process.env.TEST_DATABASE_URL ?? "") !== ""
const BANK_TOKEN = "development-core-banking-token-not-for-production"
const CUSTOMERS = 3
const TRANSFERS = 3
const running: Array<Service> = []

afterAll(async () => {
  for (const r of running) await r.stop("SIGKILL")
})

/** The embedded sandbox's address, as the service logs it. */
const sandboxUrl = (service: Service) => {
  const found = /sandbox bank listening on (http:\/\/[0-9.:]+)/.exec(service.output())
  if (found === null) throw new Error(`no sandbox address in:\n${service.output()}`)
  return found[1]!
}

const ledger = async (bankUrl: string) => {
  const response = await fetch(`${bankUrl}/sandbox/ledger`, { headers: { authorization: `Bearer ${BANK_TOKEN}` } })
  const json = (await response.json()) as any
  return json.data ?? json
}

/** The database while the service is stopped (the data directory is one process's). */
const withDatabase = async <A>(f: (db: PGlite) => Promise<A>): Promise<A> => {
  const db = new PGlite({ dataDir: path.join(dataDir, "pglite") })
  try {
    return await f(db)
  } finally {
    await db.close()
  }
}

const start = async (extra: Record<string, string> = {}) => {
  // the due-payout job every 5 s (not every minute): a plan whose customer was busy is paid by
  // the next run, which the test can wait for
  const service = await startService({ DATA_DIR: dataDir, SANDBOX_LATENCY_MS: "40", PAYOUT_SCHEDULE: "*/5 * * * * *", ...extra })
  running.push(service)
  return service
}

const phase = (began: number, what: string) => console.log(`crash e2e +${Date.now() - began} ms: ${what}`)

const transfer = (base: string, token: string, body: unknown) =>
  api(base, "POST", "/api/v1/transactions/transfer", body, token).catch(() => ({ status: 0, body: undefined as any }))

describe.skipIf(onPostgres)("SIGKILL of npm start mid-burst and mid-payout-run (embedded default)", () => {
  it("after a restart and retries: one movement per key, books balanced, nothing pending, customers transact within seconds", async () => {
    const began = Date.now()
    // customers with a funded 3-day plan
    const first = await start()
    phase(began, "first start")
    const customers: Array<Customer> = []
    for (let i = 0; i < CUSTOMERS; i++) {
      const c = await onboard(first.baseUrl, dataDir, `crash${i}`)
      await client(first.baseUrl, c.token).deposits.testDeposit({ payload: { amountKobo: 1_000_000n } })
      await createDailyPlan(first.baseUrl, c.token)
      customers.push(c)
    }
    phase(began, "customers ready")
    expect(await first.stop("SIGTERM")).toBe(0)
    // three cycles of every plan due, as after three days down: the next start's payout run pays them
    await withDatabase((db) => db.exec(`
      UPDATE disbursement_plans
      SET anchor_date = to_char(current_date - 3, 'YYYY-MM-DD'), next_due_at = now() - interval '3 days'`))

    // the payout run starts with the service; a burst of transfers meets it; SIGKILL mid-way
    const second = await start()
    phase(began, "second start")
    const bodies = customers.map(() => Array.from({ length: TRANSFERS }, () => transferTo0001(10_000)))
    const acknowledged = new Map<string, string>() // idempotency key → transaction id the API answered
    // each client sends its transfers one after the other, retrying one while the slot is taken
    // (the payout run's movements), until the process dies under it
    const burst = customers.map(async (c, i) => {
      for (const body of bodies[i]!) {
        for (;;) {
          const r = await transfer(second.baseUrl, c.token, body)
          if (r.status === 0) return // killed
          if (r.status === 200) acknowledged.set(body.idempotencyKey, r.body.result.id)
          if (r.body?.error?.code !== "MOVEMENT_IN_FLIGHT") break
          await new Promise((resolve) => setTimeout(resolve, 30))
        }
      }
    })
    // SIGKILL once the burst is under way: a first transfer acknowledged (or 8 s), then 100 ms more
    const killAt = Date.now() + 8_000
    while (acknowledged.size === 0 && Date.now() < killAt) await new Promise((resolve) => setTimeout(resolve, 20))
    await new Promise((resolve) => setTimeout(resolve, 100))
    await second.stop("SIGKILL")
    await Promise.all(burst)
    phase(began, `killed; ${acknowledged.size} transfers acknowledged`)

    // restart; the operator CLI on the same data directory is refused while it runs
    const third = await start()
    const restartedAt = Date.now()
    phase(began, "third start")
    const cli = spawnSync(process.execPath, [...nodeArgs("packages/cli/src/main.ts"), "settings", "get", "--operator", "ops@example.com"], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: "utf8",
      timeout: 30_000
    })
    expect(cli.status).not.toBe(0)
    expect(cli.stderr).toContain(
      `the embedded database ${path.join(dataDir, "pglite")} is in use by process ${third.process.pid} ` +
        "(one process per data directory: stop it first, or share a PostgreSQL database with DATABASE_URL)"
    )

    // every customer transacts again within seconds (a new key)
    await Promise.all(customers.map(async (c) => {
      for (;;) {
        const r = await transfer(third.baseUrl, c.token, transferTo0001(5_000))
        if (r.status === 200) return
        expect(r.body?.error?.code, JSON.stringify(r.body)).toBe("MOVEMENT_IN_FLIGHT")
        expect(Date.now() - restartedAt, "locked out after the restart").toBeLessThan(15_000)
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }))
    const unlockedAfter = Date.now() - restartedAt
    phase(began, `customers transact again, ${unlockedAfter} ms after the restart`)

    // the clients retry every request of the burst with its key: an acknowledged one answers the same movement
    for (const [i, c] of customers.entries()) {
      for (const body of bodies[i]!) {
        for (;;) {
          const r = await transfer(third.baseUrl, c.token, body)
          if (r.status === 200) {
            const before = acknowledged.get(body.idempotencyKey)
            if (before !== undefined) expect(r.body.result.id).toBe(before)
            break
          }
          expect(r.body?.error?.code, JSON.stringify(r.body)).toBe("MOVEMENT_IN_FLIGHT")
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
      }
    }

    phase(began, "retries answered")
    // recovered: every plan paid its three cycles
    for (const c of customers) {
      for (;;) {
        const plan = await client(third.baseUrl, c.token).plans.get()
        if (plan.cyclesPaid === 3) break
        expect(Date.now() - restartedAt, JSON.stringify(plan, (_, v) => (typeof v === "bigint" ? String(v) : v))).toBeLessThan(30_000)
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    }
    // the bank's books balance
    phase(began, "plans paid")
    const books = await ledger(sandboxUrl(third))
    expect(books.customerBalances + books.settlement + books.paidOut).toBe(books.deposits)
    expect(await third.stop("SIGTERM")).toBe(0)

    await withDatabase(async (db) => {
      const pending = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM transactions WHERE status = 'pending'`)
      expect(pending.rows[0]!.n).toBe(0)
      const keys = bodies.flat().map((b) => b.idempotencyKey)
      const perKey = await db.query<{ key: string; n: number }>(
        `SELECT idempotency_key AS key, count(*)::int AS n FROM transactions WHERE idempotency_key = ANY($1) GROUP BY 1`,
        [keys]
      )
      expect(perKey.rows).toHaveLength(keys.length)
      expect(perKey.rows.every((r) => r.n === 1)).toBe(true)
      const paid = await db.query<{ planId: string; paid: number; instalments: number }>(`
        SELECT p.id AS "planId",
               (SELECT count(*)::int FROM transactions t WHERE t.plan_id = p.id AND t.purpose = 'disbursement' AND t.status = 'confirmed') AS paid,
               (SELECT count(*)::int FROM plan_instalments i WHERE i.plan_id = p.id AND i.status = 'paid') AS instalments
        FROM disbursement_plans p`)
      expect(paid.rows).toHaveLength(CUSTOMERS)
      for (const row of paid.rows) expect(row).toMatchObject({ paid: 3, instalments: 3 })
    })
    phase(began, "done")
  }, 240_000)
})
