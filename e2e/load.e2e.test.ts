/**
 * Several processes on one PostgreSQL, under load (production's shape): the sandbox bank, TWO API
 * processes and TWO scheduler processes. A load generator drives sign-ups, deposits (the test
 * endpoint and real inbound transfers announced by webhook), transfers and plans across both APIs
 * for a bounded time, while one scheduler is killed (SIGKILL) and replaced half way; then every
 * plan falls three cycles behind and a scheduler is killed mid-run and restarted. Afterwards: every
 * instalment paid exactly once, nothing left pending, the bank's books balance, our ledger agrees
 * with the bank's totals and, row by row, with the bank's status of each movement's references, and
 * no request got a 5xx. PostgreSQL only (TEST_DATABASE_URL): PGlite is one process's embedded database.
 */
import { createRequire } from "node:module"
import { afterAll, describe, expect, it } from "vitest"
import { referencesOf } from "@app/domain/transfers/Saga"
import { BEHIND, createDailyPlan, onboard, transferTo0001 } from "./support/Customers.js"
import { api, freePort, freshDatabaseEnv, type Running, spawnEntry, startSandbox, tempDir, waitFor } from "./support/Service.js"

const dataDir = tempDir()
const database = await freshDatabaseEnv()
const onPostgres = database.env.DATABASE_URL !== undefined
const running: Array<Running> = []

/** How long the load runs, and how many virtual users drive it at once. */
const LOAD_MS = 15_000
const USERS = 6
const BANK_TOKEN = "development-core-banking-token-not-for-production"

afterAll(async () => {
  for (const r of running) await r.stop("SIGKILL")
  await database.drop()
})

interface PgClient {
  connect(): Promise<void>
  query(sql: string, params?: ReadonlyArray<unknown>): Promise<{ rows: Array<any>; rowCount: number }>
  end(): Promise<void>
}

const sqlClient = async (): Promise<PgClient> => {
  const { Client } = createRequire(import.meta.url)("pg") as { Client: new(url: string) => PgClient }
  const client = new Client(database.env.DATABASE_URL!)
  await client.connect()
  return client
}

/** Counts every answer by status; a 5xx is remembered with its request. */
const tally = { requests: 0, byStatus: new Map<number, number>(), serverErrors: [] as Array<string> }
const call = async (base: string, method: string, url: string, body?: unknown, token?: string) => {
  const reply = await api(base, method, url, body, token)
  tally.requests++
  tally.byStatus.set(reply.status, (tally.byStatus.get(reply.status) ?? 0) + 1)
  if (reply.status >= 500) tally.serverErrors.push(`${method} ${url} → ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`)
  return reply
}

const bank = async (bankUrl: string, method: string, url: string, body?: unknown) => {
  const response = await fetch(`${bankUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${BANK_TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const json = (await response.json()) as any
  return json.data ?? json
}

/** One virtual user's journey: a new customer, funded twice, a transfer, a plan. */
const journey = async (base: string, bankUrl: string, n: number) => {
  const customer = await onboard(base, dataDir, `load${n}`)
  expect((await call(base, "POST", "/api/v1/transactions/deposit/test", { amountKobo: 1_000_000 }, customer.token)).status).toBe(200)
  // a real inbound transfer at the bank, announced to the first API by webhook
  await bank(bankUrl, "POST", "/sandbox/deposits", { accountNumber: customer.accountNumber, amountKobo: 50_000 })
  const transfer = await call(base, "POST", "/api/v1/transactions/transfer", transferTo0001(20_000), customer.token)
  expect(transfer.status).toBe(200)
  await createDailyPlan(base, customer.token)
  await call(base, "GET", "/api/v1/transactions", undefined, customer.token)
  await call(base, "GET", "/api/v1/customers/me", undefined, customer.token)
}

describe.runIf(onPostgres)("several processes on one PostgreSQL under load", () => {
  it("2 APIs and 2 schedulers, one killed and restarted: every instalment paid once, the books agree, no 5xx", async () => {
    const bankPort = await freePort()
    const apiPorts = [await freePort(), await freePort()]
    const bankUrl = `http://127.0.0.1:${bankPort}`
    const sandbox = await startSandbox(dataDir, bankPort, apiPorts[0]!)
    running.push(sandbox)
    const env = { DATA_DIR: dataDir, ...database.env, CORE_BANKING_URL: bankUrl }
    const metricsPorts = [await freePort(), await freePort()]
    const apis = apiPorts.map((port, i) =>
      spawnEntry("packages/runtime/src/http.ts", { ...env, PORT: String(port), METRICS_PORT: String(metricsPorts[i]) })
    )
    running.push(...apis)
    const bases = apiPorts.map((port) => `http://127.0.0.1:${port}`)
    for (const [i, process] of apis.entries()) {
      await waitFor(process, async () => (await fetch(`${bases[i]}/api/v1/openapi.json`).catch(() => undefined))?.ok === true)
    }
    const scheduler = () => spawnEntry("packages/runtime/src/scheduler.ts", env)
    const schedulers = [scheduler(), scheduler()]
    running.push(...schedulers)

    // the load: virtual users alternate between the two APIs until the time is up; half way through,
    // one scheduler is killed (SIGKILL, no clean-up) and a new one started in its place
    const deadline = Date.now() + LOAD_MS
    let journeys = 0
    const killMidLoad = new Promise<void>((resolve, reject) =>
      setTimeout(() => {
        schedulers[1]!.stop("SIGKILL").then(() => {
          const replacement = scheduler()
          running.push(replacement)
          schedulers[1] = replacement
          resolve()
        }, reject)
      }, LOAD_MS / 2)
    )
    const loadRun = Promise.all([
      killMidLoad,
      ...Array.from({ length: USERS }, async (_, user) => {
        for (let k = 0; Date.now() < deadline; k++) {
          const n = ++journeys
          await journey(bases[(user + k) % 2]!, bankUrl, n)
        }
      })
    ])
    await loadRun.catch((e) => {
      // an API that went away: say why
      const tails = apis.map((a, i) => `API ${i} (exit ${a.process.exitCode}):\n${a.output().slice(-3000)}`).join("\n")
      throw new Error(`${String(e)}\n${tails}`)
    })
    expect(tally.serverErrors).toEqual([])

    const db = await sqlClient()
    try {
      const plans = Number((await db.query("SELECT count(*) AS n FROM disbursement_plans")).rows[0].n)
      expect(plans).toBe(journeys)
      // three days down: every plan has three cycles due; one scheduler dies mid-run and comes back
      expect((await db.query(BEHIND)).rowCount).toBe(plans)
      await new Promise((r) => setTimeout(r, 1_500))
      await schedulers[0]!.stop("SIGKILL")
      await new Promise((r) => setTimeout(r, 1_000))
      const restarted = scheduler()
      running.push(restarted)

      let last = ""
      const settled = async () => {
        const open = await db.query(`
          SELECT (SELECT json_object_agg(state, n) FROM (SELECT state, count(*) AS n FROM disbursement_plans GROUP BY state) s) AS plans,
                 (SELECT json_object_agg(k, n) FROM (SELECT purpose || ':' || status AS k, count(*) AS n FROM transactions GROUP BY 1) t) AS rows`)
        last = JSON.stringify(open.rows[0])
        const { plans: states, rows } = open.rows[0]
        return Object.keys(states).every((k) => k === "completed") && !Object.keys(rows).some((k) => k.endsWith(":pending"))
      }
      // plans (and movements) the killed process had claimed wait for its lease (2 minutes) to pass,
      // then the next due-payout run (every minute) takes them: up to about three minutes
      await waitFor(restarted, settled, 200_000).catch((e) => {
        throw new Error(`not settled: ${last}\n${String(e).slice(0, 3000)}`)
      })

      // every instalment paid exactly once: three confirmed payouts per plan, one per instalment
      const payouts = await db.query(`
        SELECT p.id,
               count(t.id) FILTER (WHERE t.status = 'confirmed') AS confirmed,
               (SELECT count(*) FROM plan_instalments i WHERE i.plan_id = p.id AND i.status = 'paid') AS paid,
               (SELECT count(DISTINCT i.transaction_id) FROM plan_instalments i WHERE i.plan_id = p.id AND i.status = 'paid') AS distinct_tx
        FROM disbursement_plans p
        LEFT JOIN transactions t ON t.plan_id = p.id AND t.purpose = 'disbursement'
        GROUP BY p.id`)
      expect(payouts.rows.length).toBe(plans)
      for (const row of payouts.rows) expect([Number(row.confirmed), Number(row.paid), Number(row.distinct_tx)]).toEqual([3, 3, 3])

      // the bank's books balance, and our ledger agrees with its totals (deposits in, money paid out)
      const ledger = await bank(bankUrl, "GET", "/sandbox/ledger")
      expect(ledger.customerBalances + ledger.settlement + ledger.paidOut).toBe(ledger.deposits)
      await waitFor(restarted, async () => {
        const ours = await db.query(`
          SELECT coalesce(sum(amount_kobo) FILTER (WHERE purpose = 'deposit'), 0) AS deposits
          FROM transactions WHERE status = 'confirmed'`)
        return Number(ours.rows[0].deposits) === ledger.deposits
      }, 30_000)
      const out = await db.query(`
        SELECT coalesce(sum(amount_kobo), 0) AS paid_out FROM transactions
        WHERE status = 'confirmed' AND type = 'transfer'`)
      expect(Number(out.rows[0].paid_out)).toBe(ledger.paidOut)
      expect(ledger.deposits).toBe(journeys * 1_050_000)

      // row by row: every confirmed movement's debit and transfer are Successful at the bank, under
      // the references derived from its id; every failed one has no transfer there
      const movements = await db.query(`SELECT id, status FROM transactions WHERE type = 'transfer' AND status <> 'pending'`)
      expect(movements.rows.filter((r) => r.status === "confirmed").length).toBe(journeys * 4)
      for (const row of movements.rows) {
        const refs = referencesOf(row.id)
        const transfer = await bank(bankUrl, "GET", `/transactions/${refs.transfer}/status`)
        if (row.status === "confirmed") {
          expect([row.id, (await bank(bankUrl, "GET", `/transactions/${refs.debit}/status`)).status]).toEqual([row.id, "Successful"])
          expect([row.id, transfer.status]).toEqual([row.id, "Successful"])
        } else {
          expect([row.id, transfer.status]).not.toEqual([row.id, "Successful"])
        }
      }
    } finally {
      await db.end()
    }
    expect(tally.serverErrors).toEqual([])
    // what the APIs' own metrics say agrees: every request counted, none answered 5xx
    let counted = 0
    for (const port of metricsPorts) {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
      for (const line of text.split("\n").filter((l) => l.startsWith("http_requests_total{"))) {
        expect(line).not.toMatch(/status="5\d\d"/)
        counted += Number(line.split(" ").at(-1))
      }
    }
    expect(counted).toBeGreaterThanOrEqual(tally.requests)
    console.log(`load: ${journeys} journeys, ${tally.requests} requests, statuses ${JSON.stringify([...tally.byStatus])}`)
    const survivors: Array<[string, Running]> = [
      ["the second scheduler", schedulers[1]!],
      ["the restarted process", running.at(-1)!],
      ...apis.map((api, i): [string, Running] => [`API ${i + 1}`, api]),
      ["the sandbox bank", sandbox]
    ]
    // a scheduler is stopped once it has started: SIGTERM before its runtime installs the handler kills
    // it outright (exit null), which is not what this checks
    for (const [, s] of survivors.slice(0, 2)) await waitFor(s, () => s.output().includes("scheduler started in"))
    // each exits 0 on SIGTERM (null: it died of the signal, its handler not installed)
    for (const [name, s] of survivors) expect([name, await s.stop("SIGTERM")]).toEqual([name, 0])
  }, 330_000)
})
