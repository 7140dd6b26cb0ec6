/**
 * HTTP API benchmark: the real service under autocannon, against a raw `node:http` + `pg` handler
 * doing the same work, in the same run, on PostgreSQL:
 *
 *   npm run bench:api
 *   npm run bench:api -- --customers 1000 --connections 32 --duration 10 --warmup 2 --logins 200
 *   npm run bench:api -- --profile /tmp/api-prof      (a CPU profile of our service, summarised)
 *
 * Options: --customers (1000), --transactions per customer (6), --connections (32), --duration s per
 * timed run (10), --warmup s before each (2), --logins (200), --login-concurrency (8),
 * --setup-concurrency (32), --keep-db (keep the database `bench_api` afterwards), --profile DIR
 * (`--cpu-prof` on the service process; its self time during the timed runs is listed), --entry
 * build|source (how ours is started, below; default build), --no-audit (skip the statement audit).
 *
 * Database: DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/test); the benchmark
 * drops and creates the database `bench_api` there and works only in it (dropped at the end unless
 * --keep-db).
 *
 * Setup (not timed), in this process: the service's migrations on `bench_api`, and the sandbox bank
 * journaled in a temporary file; N customers as bench:transfers makes them (`makeFundedCustomer`: inserted through
 * AccountRepo with one precomputed argon2 hash, BVN verified, a bank account opened at the sandbox,
 * funded, first deposit marked), each with --transactions confirmed deposit rows
 * (TransactionRepo.recordDeposit, one hour apart; their sum is what was deposited); ANALYZE.
 *
 * The two servers, each its own process on a free loopback port, both up during the whole run:
 * - ours: `node build/http.mjs` when that file exists (`npm run build`), else, or with --entry
 *   source, `node --import tsx packages/runtime/src/http.ts` (what `npm run start:http` runs,
 *   with its node flags read from package.json, without its console check; one process, so its
 *   pid is the server's), with
 *   DATABASE_URL=bench_api, PORT, METRICS_PORT=0, the development secrets (or those of this
 *   environment), no CORE_BANKING_URL (so its in-process sandbox bank, which replays the setup's
 *   journal copied to its DATA_DIR), DATA_DIR and the outbox in a temporary directory; its log (one
 *   entry per request) goes to a file there;
 * - raw: bench/rawApi.ts (see there): the same statements one by one on a `pg` Pool of the same
 *   size, the same token check (the service's crypto/Hs256Jwt.ts), the same balance cache (the
 *   domain's 5 s TTL) in front of its own in-process sandbox bank (another copy of the journal), the
 *   same envelope and headers.
 * Access tokens are issued by this process with the service's own adapter (Hs256AccessTokens, same
 * secret), once both are up; tokens from the service's login are checked on both at the end.
 *
 * Before timing: every customer's GET /customers/me on each side (fills both balance caches), and
 * one customer's /customers/me and /transactions from each side compared field by field. Then the
 * statement audit (skip it with --no-audit; about a minute, most of it waiting): 100 requests per
 * endpoint and side, each batch followed by 10.5 s of quiet so that PostgreSQL's counters settle
 * (pg_stat_database, pg_stat_user_tables of bench_api); statements (all autocommit: transactions),
 * scans per table and balance memo UPDATEs per request; ours and raw must agree within 0.1 per
 * request, else bench/rawApi.ts no longer does what the service does. (Checked once by hand with
 * log_statement = 'all' as well: the same texts and parameters, in the same order.)
 *
 * Timed: for GET /api/v1/customers/me, then GET /api/v1/transactions (page 1, 20 rows): ours,
 * then raw; each a --warmup run (discarded) and a --duration run with --connections connections,
 * every request with the next customer's token (round robin over all N). Reported: requests/s,
 * latency p50/p99, non-2xx, errors; CPU of each process and of PostgreSQL (/proc); the raw side's
 * bank calls (balance-cache misses: the 5 s TTL expires during a run, so both sides call their
 * bank, about N / 5 s once every customer is asked for more often than that).
 *
 * Login, on its own: POST /api/v1/auth/login for --logins customers, --login-concurrency at a time;
 * logins/s, p50/p99, with the argon2 parameters of the service's PasswordHasher. Then what sign-ins
 * do to everyone else (`during sign-in`): GET /customers/me of ours on 4 connections for 3 s alone,
 * then 3 s while --login-concurrency customers sign in; p50/p99 of each (skipped with --logins 0).
 *
 * Exit 1 on any non-2xx answer, connection error or timeout, a failed body check, a statement audit
 * that differs, a failed login, or a login token refused; the goal (ours ≥ 0.6 × raw requests/s) is
 * reported, not enforced.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { AppConfig, adaptersLayer, loadAppConfig } from "@app/adapters"
import { Argon2Options } from "@app/adapters/crypto/Argon2PasswordHasher"
import { AccessTokensLive } from "@app/adapters/crypto/Hs256AccessTokens"
import { AccessTokens, AccountId, AccountRepo, Banking, CustomerId, Ids, PasswordHasher, TransactionRepo, type Kobo } from "@app/domain"
import { JOURNAL_FILE, sandboxBankLayer, SandboxServer, sandboxServerLayer } from "@app/sandbox"
import autocannon from "autocannon"
import { Duration, Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { loadavg, tmpdir } from "node:os"
import * as path from "node:path"
import { performance } from "node:perf_hooks"
import { setTimeout as sleep } from "node:timers/promises"
import { fileURLToPath } from "node:url"
import { formatSummary, summarizeProfile, type Window } from "./apiProfile.js"
import {
  argValue,
  benchConfigLayer,
  freeLoopbackPort,
  instrumentedProviderLayer,
  intArg,
  machineCpuMs,
  makeFundedCustomer,
  percentile,
  postgresCpuSince,
  postgresCpuSnapshot,
  processCpuMs,
  secs,
  SqlLive,
  createDatabase,
  dropDatabase
} from "./support.js"

// ---------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------

const N = intArg("customers", 1000, 1)
const TX = intArg("transactions", 6, 0)
const CONNECTIONS = intArg("connections", 32, 1)
const DURATION_S = intArg("duration", 10, 1)
const WARMUP_S = intArg("warmup", 2, 0)
const LOGINS = Math.min(intArg("logins", 200, 0), N)
const LOGIN_CONCURRENCY = intArg("login-concurrency", 8, 1)
const SETUP_CONCURRENCY = intArg("setup-concurrency", 32, 1)
const KEEP_DB = process.argv.includes("--keep-db")
const PROFILE_DIR = argValue("profile")
/** how ours is started: build (build/http.mjs, when it exists) or source (tsx) */
const ENTRY = argValue("entry") ?? "build"
if (ENTRY !== "build" && ENTRY !== "source") {
  console.error(`--entry: expected build or source, got ${JSON.stringify(ENTRY)}`)
  process.exit(2)
}
const GOAL = 0.6

const DB_NAME = "bench_api"
const SERVER_URL = process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"
const ROOT = fileURLToPath(new URL("..", import.meta.url))
const BUILT_HTTP = path.join(ROOT, "build/http.mjs")
/**
 * The node flags production's `npm run start:http` gives build/http.mjs (package.json), so that ours
 * runs as deployed (the young generation's size among them: packages/runtime/src/http.ts).
 */
const START_HTTP_FLAGS: ReadonlyArray<string> = (() => {
  const script: string = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts["start:http"]
  const command = script.split("&&").map((part) => part.trim()).find((part) => part.endsWith("build/http.mjs"))
  if (command === undefined) throw new Error(`package.json start:http no longer runs build/http.mjs: ${script}`)
  return command.split(/\s+/).slice(1, -1)
})()
const PASSWORD = "bench-password-not-secret"
/** deposit k of a customer: (k + 1) × ₦1,000 */
const depositOf = (k: number): Kobo => BigInt(k + 1) * 100_000n
const DEPOSIT_TOTAL: Kobo = TX === 0 ? 100_000n : Array.from({ length: TX }, (_, k) => depositOf(k)).reduce((a, b) => a + b, 0n)

const BALANCE_TTL_S = Duration.toSeconds(Banking.BalanceCacheTtl)
const ME = "/api/v1/customers/me"
const TRANSACTIONS = "/api/v1/transactions"
const ENDPOINTS = [["GET /customers/me", ME], ["GET /transactions", TRANSACTIONS]] as const
const AUDIT = !process.argv.includes("--no-audit")

// ---------------------------------------------------------------------------------------------
// pg (untyped: @types/pg is not installed), for the benchmark's own database work and statistics
// ---------------------------------------------------------------------------------------------

interface PgClient {
  connect(): Promise<void>
  query<R = Record<string, unknown>>(text: string, values?: ReadonlyArray<unknown>): Promise<{ rows: Array<R> }>
  end(): Promise<void>
  on(event: "error", listener: (error: Error) => void): void
}
const { Client } = createRequire(import.meta.url)("pg") as { Client: new(url: string) => PgClient }

const databaseUrl = (name: string) => {
  const url = new URL(SERVER_URL)
  url.pathname = `/${name}`
  return url.toString()
}
const BENCH_URL = databaseUrl(DB_NAME)

// ---------------------------------------------------------------------------------------------
// What this run started, and its clean-up (at the end, or on SIGINT/SIGTERM)
// ---------------------------------------------------------------------------------------------

interface Server {
  readonly name: string
  readonly baseUrl: string
  readonly child: ChildProcess
  readonly pid: number
  readonly logFile: string
}

const started: { servers: Array<Server>; database: boolean; stats?: PgClient; tmp?: string } = { servers: [], database: false }

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null

/** SIGTERM (the service closes its pool and server), SIGKILL after 15 s. */
const stopServer = async (server: Server) => {
  if (!running(server.child)) return
  const exited = once(server.child, "exit")
  server.child.kill("SIGTERM")
  const timer = setTimeout(() => server.child.kill("SIGKILL"), 15_000)
  await exited
  clearTimeout(timer)
}

let cleaning: Promise<void> | undefined
const cleanup = () =>
  cleaning ??= (async () => {
    await Promise.all(started.servers.map(stopServer))
    await started.stats?.end().catch(() => {})
    if (started.database) {
      if (KEEP_DB) console.log(`kept the database ${DB_NAME}`)
      else await dropDatabase(SERVER_URL, DB_NAME).catch((e) => console.error("could not drop the database", e))
    }
    if (started.tmp !== undefined) rmSync(started.tmp, { recursive: true, force: true })
  })()

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping the servers and dropping ${DB_NAME}`)
    void cleanup().finally(() => process.exit(signal === "SIGINT" ? 130 : 143))
  })
}
process.on("exit", () => {
  for (const s of started.servers) if (running(s.child)) s.child.kill("SIGKILL")
})

const tail = (file: string, lines = 30) => {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n")
  } catch {
    return "(no output)"
  }
}

/** Spawns `node args…` in the repository root, its output to `logFile`; resolves once `readyPath` answers 200. */
const startServer = async (
  name: string,
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  port: number,
  readyPath: string,
  logFile: string
): Promise<Server> => {
  const fd = openSync(logFile, "a")
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", fd, fd] })
  closeSync(fd)
  const server: Server = { name, baseUrl: `http://127.0.0.1:${port}`, child, pid: child.pid ?? -1, logFile }
  started.servers.push(server)
  const deadline = Date.now() + 120_000
  for (;;) {
    if (!running(child)) throw new Error(`${name} exited during start-up:\n${tail(logFile)}`)
    if (Date.now() > deadline) throw new Error(`${name} did not answer within 120 s:\n${tail(logFile)}`)
    try {
      const response = await fetch(`${server.baseUrl}${readyPath}`, { signal: AbortSignal.timeout(2_000) })
      if (response.ok) return server
    } catch {
      // not listening yet
    }
    await sleep(200)
  }
}

// ---------------------------------------------------------------------------------------------
// Setup: customers with a bank account, funded, with a few deposit rows each
// ---------------------------------------------------------------------------------------------

interface BenchCustomer {
  readonly accountId: AccountId
  readonly customerId: CustomerId
  readonly accountNumber: string
  readonly email: string
}

/** The setup's sandbox bank: in this process, journaled in `journal` (which the servers' banks then replay). */
const setupLayer = (journal: string) => {
  const ConfigLive = benchConfigLayer({ databaseUrl: Option.some(Redacted.make(BENCH_URL)), sandboxLatencyMs: 0 })
  const SandboxLive = Layer.unwrapEffect(
    Effect.map(AppConfig, (config) =>
      sandboxServerLayer({
        port: 0,
        token: Redacted.value(config.coreBankingToken),
        latencyMs: 0,
        slowTransferDelayMs: config.coreBankingTimeoutMs + 1_000,
        webhook: Option.none()
      }))
  ).pipe(Layer.provide(sandboxBankLayer({ journal })))
  return instrumentedProviderLayer(Effect.map(SandboxServer, (s) => s.baseUrl), SETUP_CONCURRENCY).pipe(
    Layer.provideMerge(SandboxLive),
    Layer.provideMerge(adaptersLayer(SqlLive)),
    Layer.provideMerge(ConfigLive),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
}

const setup = Effect.gen(function*() {
  const passwordHash = yield* (yield* PasswordHasher).hash(Redacted.make(PASSWORD))
  const funded = yield* Effect.forEach(
    Array.from({ length: N }, (_, i) => i),
    (i) => makeFundedCustomer(i, passwordHash, DEPOSIT_TOTAL),
    { concurrency: SETUP_CONCURRENCY }
  )
  const transactions = yield* TransactionRepo
  const accounts = yield* AccountRepo
  const ids = yield* Ids
  const first = Date.now() - (TX + 1) * 3_600_000
  const customers = yield* Effect.forEach(funded, (c, i) =>
    Effect.gen(function*() {
      for (let k = 0; k < TX; k++) {
        const recorded = yield* transactions.recordDeposit({
          id: yield* ids.next,
          customerId: c.customerId,
          amountKobo: depositOf(k),
          providerReference: `BENCH-${i}-${k}`,
          postedAt: new Date(first + k * 3_600_000 + i),
          now: new Date()
        })
        if (!recorded) return yield* Effect.dieMessage(`customer ${i}: deposit ${k} not recorded`)
      }
      const found = yield* accounts.findById(c.accountId)
      if (Option.isNone(found)) return yield* Effect.dieMessage(`customer ${i}: not found after setup`)
      return { ...c, email: found.value.account.email } satisfies BenchCustomer
    }), { concurrency: SETUP_CONCURRENCY })
  // fresh planner statistics, as autovacuum would give a server that has been up a while
  yield* (yield* SqlClient.SqlClient)`ANALYZE`
  return customers
})

/** Access tokens from the service's own adapter (Hs256AccessTokens), with this environment's secret. */
const issueTokens = (customers: ReadonlyArray<BenchCustomer>) =>
  Effect.runPromise(
    Effect.flatMap(AccessTokens, (tokens) => Effect.forEach(customers, (c) => tokens.issue({ accountId: c.accountId, sessionVersion: 0 }))).pipe(
      Effect.provide(AccessTokensLive),
      Effect.provide(benchConfigLayer({}))
    )
  )

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

const getJson = async (baseUrl: string, url: string, token: string) => {
  const response = await fetch(`${baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } })
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = text
  }
  return { status: response.status, body }
}

/** The paths where `a` and `b` differ (at most 20). */
const differences = (a: unknown, b: unknown, at = "", out: Array<string> = []): Array<string> => {
  if (out.length >= 20) return out
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) {
    out.push(`${at || "(root)"}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`)
  } else if (typeof a === "object" && a !== null) {
    const ao = a as Record<string, unknown>
    const bo = b as Record<string, unknown>
    for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
      if (!(k in ao)) out.push(`${at}.${k}: missing on ours`)
      else if (!(k in bo)) out.push(`${at}.${k}: missing on raw`)
      else differences(ao[k], bo[k], `${at}.${k}`, out)
    }
  } else if (a !== b) {
    out.push(`${at || "(root)"}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`)
  }
  return out
}

interface Envelope {
  readonly apiObject?: string
  readonly code?: number
  readonly status?: string
  readonly result?: Record<string, unknown>
}

/** One customer's answers from both sides: equal, and right about what matters. */
const bodyChecks = async (ours: Server, raw: Server, c: BenchCustomer, token: string): Promise<Array<string>> => {
  const problems: Array<string> = []
  for (const url of [ME, TRANSACTIONS]) {
    const [o, r] = await Promise.all([getJson(ours.baseUrl, url, token), getJson(raw.baseUrl, url, token)])
    if (o.status !== 200) problems.push(`ours ${url}: HTTP ${o.status} ${JSON.stringify(o.body).slice(0, 300)}`)
    if (r.status !== 200) problems.push(`raw ${url}: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`)
    if (o.status !== 200 || r.status !== 200) continue
    for (const d of differences(o.body, r.body)) problems.push(`${url} ours vs raw: ${d}`)
    const e = o.body as Envelope
    const result = e.result ?? {}
    if (e.status !== "success" || e.code !== 200) problems.push(`${url}: not a success envelope`)
    if (url === ME) {
      if (e.apiObject !== "Customer") problems.push(`${url}: apiObject ${e.apiObject}`)
      if (result["id"] !== c.accountId) problems.push(`${url}: id ${String(result["id"])}, expected ${c.accountId}`)
      if (result["customerId"] !== c.customerId) problems.push(`${url}: customerId ${String(result["customerId"])}`)
      if (result["email"] !== c.email) problems.push(`${url}: email ${String(result["email"])}`)
      if (result["coreAccountNumber"] !== c.accountNumber) problems.push(`${url}: coreAccountNumber ${String(result["coreAccountNumber"])}`)
      if (result["balanceKobo"] !== Number(DEPOSIT_TOTAL) || result["balance"] !== Number(DEPOSIT_TOTAL)) {
        problems.push(`${url}: balance ${String(result["balance"])}/${String(result["balanceKobo"])}, expected ${DEPOSIT_TOTAL}`)
      }
      if (result["pndActive"] !== false) problems.push(`${url}: pndActive ${String(result["pndActive"])}`)
      if (result["disbursementPlan"] !== null) problems.push(`${url}: disbursementPlan not null`)
    } else {
      const items = (result["items"] ?? []) as ReadonlyArray<Record<string, unknown>>
      if (e.apiObject !== "Transaction") problems.push(`${url}: apiObject ${e.apiObject}`)
      if (result["total"] !== TX || items.length !== Math.min(TX, 20)) {
        problems.push(`${url}: ${items.length} items of ${String(result["total"])}, expected ${Math.min(TX, 20)} of ${TX}`)
      }
      if (items.some((t) => t["customerId"] !== c.customerId)) problems.push(`${url}: an item of another customer`)
      const amounts = items.map((t) => t["amountKobo"])
      const expected = Array.from({ length: Math.min(TX, 20) }, (_, j) => depositOf(TX - 1 - j).toString())
      if (JSON.stringify(amounts) !== JSON.stringify(expected)) {
        problems.push(`${url}: amounts ${JSON.stringify(amounts)}, expected newest first ${JSON.stringify(expected)}`)
      }
    }
  }
  return problems
}

/** GET /customers/me of every customer on one side (fills its balance cache); the statuses other than 200. */
const prefill = async (server: Server, tokens: ReadonlyArray<string>) => {
  const bad: Record<string, number> = {}
  let next = 0
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (next < tokens.length) {
      const { status } = await getJson(server.baseUrl, ME, tokens[next++]!)
      if (status !== 200) bad[status] = (bad[status] ?? 0) + 1
    }
  }))
  return bad
}

// ---------------------------------------------------------------------------------------------
// Load and counters
// ---------------------------------------------------------------------------------------------

const hrMicros = () => Number(process.hrtime.bigint() / 1000n)

interface DbCounters {
  readonly xacts: number
  readonly tables: ReadonlyMap<string, { readonly scans: number; readonly updates: number }>
}

/**
 * PostgreSQL's counters of bench_api, in one statement (itself counted in the next reading). A
 * backend reports its counters at the end of a transaction at most once a second, and an idle one
 * within 10 s (PG 15: PGSTAT_MIN_INTERVAL, PGSTAT_IDLE_INTERVAL): read them after STATS_SETTLE_MS
 * of quiet.
 */
const dbCounters = async (stats: PgClient): Promise<DbCounters> => {
  const { rows } = await stats.query<{ xacts: string; tables: Array<{ relname: string; scans: number; updates: number }> | null }>(`
    SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()) AS xacts,
           (SELECT json_agg(json_build_object('relname', relname, 'scans', coalesce(seq_scan, 0) + coalesce(idx_scan, 0),
                                              'updates', n_tup_upd))
            FROM pg_stat_user_tables) AS tables`)
  return {
    xacts: Number(rows[0]?.xacts ?? 0),
    tables: new Map((rows[0]?.tables ?? []).map((t) => [t.relname, { scans: Number(t.scans), updates: Number(t.updates) }]))
  }
}
const STATS_SETTLE_MS = 10_500
const AUDIT_REQUESTS = 100

interface Audit {
  readonly endpoint: string
  readonly side: "ours" | "raw"
  /** PostgreSQL transactions (= statements: all are autocommit) per request */
  readonly statements: number
  /** index or sequential scans per table per request */
  readonly scans: ReadonlyMap<string, number>
  /** balance memo UPDATEs (rows of customers updated) per request */
  readonly memo: number
}

/**
 * The statements per request of each side, from PostgreSQL's counters: AUDIT_REQUESTS requests of
 * one customer (4 at a time), then quiet until the counters settle. One customer, so at most one
 * balance-cache miss (3 statements) falls in a batch.
 */
const auditStatements = async (stats: PgClient, ours: Server, raw: Server, token: string): Promise<Array<Audit>> => {
  const out: Array<Audit> = []
  await sleep(STATS_SETTLE_MS)
  let previous = await dbCounters(stats)
  for (const [endpoint, url] of ENDPOINTS) {
    for (const server of [ours, raw]) {
      let sent = 0
      await Promise.all(Array.from({ length: 4 }, async () => {
        while (sent < AUDIT_REQUESTS) {
          sent++
          const response = await fetch(`${server.baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } })
          await response.arrayBuffer()
        }
      }))
      await sleep(STATS_SETTLE_MS)
      const now = await dbCounters(stats)
      const scans = new Map<string, number>()
      for (const [table, t] of now.tables) {
        const d = t.scans - (previous.tables.get(table)?.scans ?? 0)
        if (d > 0) scans.set(table, d / AUDIT_REQUESTS)
      }
      out.push({
        endpoint,
        side: server === ours ? "ours" : "raw",
        // minus the previous reading's own statement
        statements: (now.xacts - previous.xacts - 1) / AUDIT_REQUESTS,
        scans,
        memo: ((now.tables.get("customers")?.updates ?? 0) - (previous.tables.get("customers")?.updates ?? 0)) / AUDIT_REQUESTS
      })
      previous = now
    }
  }
  return out
}

/** Where ours and raw differ by more than `tolerance` per request. */
const auditDifferences = (audit: ReadonlyArray<Audit>, tolerance = 0.1): Array<string> => {
  const problems: Array<string> = []
  for (const [endpoint] of ENDPOINTS) {
    const o = audit.find((a) => a.endpoint === endpoint && a.side === "ours")
    const r = audit.find((a) => a.endpoint === endpoint && a.side === "raw")
    if (o === undefined || r === undefined) continue
    if (Math.abs(o.statements - r.statements) > tolerance) {
      problems.push(`${endpoint}: ours runs ${o.statements.toFixed(2)} statements per request, raw ${r.statements.toFixed(2)}`)
    }
    for (const table of new Set([...o.scans.keys(), ...r.scans.keys()])) {
      const a = o.scans.get(table) ?? 0
      const b = r.scans.get(table) ?? 0
      if (Math.abs(a - b) > tolerance) problems.push(`${endpoint}: scans of ${table} per request: ours ${a.toFixed(2)}, raw ${b.toFixed(2)}`)
    }
  }
  return problems
}

interface Measured {
  readonly rps: number
  readonly requests: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
  readonly errors: number
  readonly timeouts: number
  readonly warmupBad: number
  readonly seconds: number
  /** % of one core */
  readonly serverCpu: number
  /** bench_api's backends */
  readonly postgresCpu: number
  readonly benchCpu: number
  /** CPU time per answered request, ms */
  readonly serverMsPerRequest: number
  readonly postgresMsPerRequest: number
  /** % of the whole machine */
  readonly machineBusy: number
  readonly load: number
  /** balance-cache misses (bank calls) in the timed run: raw counts its own; for ours, see `refreshed` */
  readonly bankCalls: number | undefined
  /**
   * customers whose balance memo was written during the timed run (`balance_seen_at`): every miss
   * writes it, so this is ours' misses when no customer was asked twice (requests ≤ customers), and
   * a lower bound otherwise
   */
  readonly refreshed: number
}

const load = (server: Server, url: string, tokens: ReadonlyArray<string>, seconds: number) => {
  let next = Math.floor(Math.random() * tokens.length)
  return autocannon({
    url: `${server.baseUrl}${url}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{
      method: "GET",
      path: url,
      setupRequest: (request) => ({
        ...request,
        headers: { ...request.headers, authorization: `Bearer ${tokens[next++ % tokens.length]}` }
      })
    }]
  })
}

const rawStats = async (raw: Server) =>
  (await (await fetch(`${raw.baseUrl}/__raw/stats`)).json()) as { requests: number; bankCalls: number; bankFailures: number }

const measure = async (
  server: Server,
  url: string,
  tokens: ReadonlyArray<string>,
  stats: PgClient,
  windows: Array<Window>
): Promise<Measured> => {
  let warmupBad = 0
  if (WARMUP_S > 0) {
    const w = await load(server, url, tokens, WARMUP_S)
    warmupBad = w.non2xx + w.errors + w.timeouts
  }
  const bank0 = server.name === "raw" ? (await rawStats(server)).bankCalls : undefined
  const cpu0 = processCpuMs(server.pid) ?? 0
  const pg0 = postgresCpuSnapshot(DB_NAME)
  const machine0 = machineCpuMs()
  const self0 = process.cpuUsage()
  const from = hrMicros()
  const fromDate = new Date()
  const wall0 = performance.now()
  const r = await load(server, url, tokens, DURATION_S)
  const wallMs = performance.now() - wall0
  const to = hrMicros()
  const toDate = new Date()
  const self = process.cpuUsage(self0)
  const machine1 = machineCpuMs()
  const pgMs = postgresCpuSince(pg0, DB_NAME)
  const cpuMs = (processCpuMs(server.pid) ?? cpu0) - cpu0
  const bank1 = server.name === "raw" ? (await rawStats(server)).bankCalls : undefined
  if (server.name === "ours") windows.push({ from, to })
  const requests = r.requests.total
  const refreshed = await stats.query<{ n: string }>(
    "SELECT count(*) AS n FROM customers WHERE balance_seen_at >= $1 AND balance_seen_at <= $2",
    [fromDate, toDate]
  )
  return {
    rps: r.requests.average,
    requests,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    warmupBad,
    seconds: r.duration,
    serverCpu: (cpuMs / wallMs) * 100,
    postgresCpu: (pgMs / wallMs) * 100,
    benchCpu: ((self.user + self.system) / 1000 / wallMs) * 100,
    serverMsPerRequest: cpuMs / Math.max(1, requests),
    postgresMsPerRequest: pgMs / Math.max(1, requests),
    machineBusy: machine1.total > machine0.total ? ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * 100 : NaN,
    load: loadavg()[0]!,
    bankCalls: bank0 === undefined || bank1 === undefined ? undefined : bank1 - bank0,
    refreshed: Number(refreshed.rows[0]?.n ?? 0)
  }
}

// ---------------------------------------------------------------------------------------------
// Login
// ---------------------------------------------------------------------------------------------

/** POST /api/v1/auth/login of a bench customer, with the setup's password. */
const signIn = (ours: Server, c: BenchCustomer) =>
  fetch(`${ours.baseUrl}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: c.email, password: PASSWORD })
  })

const logins = async (ours: Server, customers: ReadonlyArray<BenchCustomer>) => {
  const latencies: Array<number> = []
  const failures: Record<string, number> = {}
  /** the access token of a login, by the customer's index */
  const tokens = new Map<number, string>()
  let next = 0
  const cpu0 = processCpuMs(ours.pid) ?? 0
  const start = performance.now()
  await Promise.all(Array.from({ length: LOGIN_CONCURRENCY }, async () => {
    while (next < LOGINS) {
      const index = next++
      const c = customers[index]!
      const t0 = performance.now()
      const response = await signIn(ours, c)
      const body = (await response.json().catch(() => ({}))) as { result?: { accessToken?: string } }
      latencies.push(performance.now() - t0)
      const token = body.result?.accessToken
      if (response.status !== 200 || typeof token !== "string") failures[response.status] = (failures[response.status] ?? 0) + 1
      else tokens.set(index, token)
    }
  }))
  const wallMs = performance.now() - start
  const cpuMs = (processCpuMs(ours.pid) ?? cpu0) - cpu0
  latencies.sort((a, b) => a - b)
  return { wallMs, latencies, failures, tokens, serverCpu: (cpuMs / wallMs) * 100 }
}

/**
 * GET /customers/me of ours on PROBE_CONNECTIONS connections, one request at a time on each, until
 * `stop()`: the latencies (ms, sorted) of the 200s, and how many answers were not 200.
 */
const PROBE_CONNECTIONS = 4
const meProbe = async (ours: Server, tokens: ReadonlyArray<string>, stop: () => boolean) => {
  const latencies: Array<number> = []
  let bad = 0
  let next = 0
  await Promise.all(Array.from({ length: PROBE_CONNECTIONS }, async () => {
    while (!stop()) {
      const t0 = performance.now()
      const response = await fetch(`${ours.baseUrl}${ME}`, { headers: { authorization: `Bearer ${tokens[next++ % tokens.length]}` } })
      await response.arrayBuffer()
      if (response.status === 200) latencies.push(performance.now() - t0)
      else bad++
    }
  }))
  return { latencies: latencies.sort((a, b) => a - b), bad }
}

/**
 * What sign-ins do to everyone else's requests: the probe above for 3 s alone, then while
 * LOGIN_CONCURRENCY customers sign in one after another (argon2 on libuv's pool) for 3 s. Token
 * checks on that pool (jose's WebCrypto, before round 11) queued behind the hashes.
 */
const signInContention = async (ours: Server, customers: ReadonlyArray<BenchCustomer>, tokens: ReadonlyArray<string>) => {
  const for3s = () => {
    const end = performance.now() + 3_000
    return () => performance.now() >= end
  }
  const alone = await meProbe(ours, tokens, for3s())
  let signingIn = true
  let signedIn = 0
  let next = 0
  const loginLoops = Promise.all(Array.from({ length: LOGIN_CONCURRENCY }, async () => {
    while (signingIn) {
      const c = customers[next++ % customers.length]!
      const response = await signIn(ours, c)
      await response.arrayBuffer()
      if (response.status === 200) signedIn++
    }
  }))
  const during = await meProbe(ours, tokens, for3s())
  signingIn = false
  await loginLoops
  return { alone, during, signedIn }
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a")

const main = async (): Promise<number> => {
  const config = await Effect.runPromise(loadAppConfig)
  const problems: Array<string> = []
  const lines: Array<string> = []
  const t0 = performance.now()

  // ---- database ------------------------------------------------------------------------------
  await dropDatabase(SERVER_URL, DB_NAME)
  await createDatabase(SERVER_URL, DB_NAME)
  started.database = true
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-api-"))
  started.tmp = tmp

  // ---- setup ---------------------------------------------------------------------------------
  console.log(`setup: ${N} customers with ${TX} transactions each in ${DB_NAME} …`)
  const setupStart = performance.now()
  const journal = path.join(tmp, JOURNAL_FILE)
  const customers = await Effect.runPromise(
    setup.pipe(Effect.provide(setupLayer(journal)), Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))
  )
  const setupMs = performance.now() - setupStart
  // one process per journal: each server's bank replays its own copy of the setup's
  const dataDir = path.join(tmp, "data")
  const rawBankDir = path.join(tmp, "raw-bank")
  for (const dir of [dataDir, rawBankDir]) {
    mkdirSync(dir)
    copyFileSync(journal, path.join(dir, JOURNAL_FILE))
  }

  // ---- the two servers -----------------------------------------------------------------------
  const { CORE_BANKING_URL: _bank, OTEL_EXPORTER_OTLP_ENDPOINT: _otel, ...inherited } = process.env
  const oursPort = await freeLoopbackPort()
  if (PROFILE_DIR !== undefined) mkdirSync(PROFILE_DIR, { recursive: true })
  const profileFlags = PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${path.resolve(PROFILE_DIR)}`]
  const oursEntry = ENTRY === "build" && existsSync(BUILT_HTTP)
    ? [...START_HTTP_FLAGS, BUILT_HTTP]
    : [...START_HTTP_FLAGS, "--import", "tsx", "packages/runtime/src/http.ts"]
  const profilesBefore = PROFILE_DIR === undefined ? new Set<string>() : new Set(readdirSync(PROFILE_DIR))
  console.log(`starting ours: node ${[...profileFlags, ...oursEntry].join(" ")} …`)
  const bootStart = performance.now()
  const ours = await startServer("ours", [...profileFlags, ...oursEntry], {
    ...inherited,
    APP_ENV: process.env["APP_ENV"] === "test" ? "test" : "development",
    DATABASE_URL: BENCH_URL,
    PORT: String(oursPort),
    METRICS_PORT: "0",
    DATA_DIR: dataDir,
    NOTIFY_OUTBOX_FILE: path.join(dataDir, "outbox.jsonl"),
    SANDBOX_LATENCY_MS: "0",
    ACCESS_TOKEN_SECRET: Redacted.value(config.accessTokenSecret),
    CORE_BANKING_TOKEN: Redacted.value(config.coreBankingToken)
  }, oursPort, "/health", path.join(tmp, "ours.log"))
  const oursBootMs = performance.now() - bootStart
  const rawPort = await freeLoopbackPort()
  console.log("starting raw: node --import tsx bench/rawApi.ts …")
  const raw = await startServer("raw", ["--import", "tsx", "bench/rawApi.ts"], {
    PATH: process.env["PATH"] ?? "",
    DATABASE_URL: BENCH_URL,
    RAW_PORT: String(rawPort),
    ACCESS_TOKEN_SECRET: Redacted.value(config.accessTokenSecret),
    CORE_BANKING_TOKEN: Redacted.value(config.coreBankingToken),
    BALANCE_CACHE_TTL_MS: String(Duration.toMillis(Banking.BalanceCacheTtl)),
    SANDBOX_JOURNAL: path.join(rawBankDir, JOURNAL_FILE)
  }, rawPort, "/__raw/stats", path.join(tmp, "raw.log"))

  const stats = new Client(BENCH_URL)
  stats.on("error", () => {})
  await stats.connect()
  started.stats = stats

  // ---- tokens, caches, bodies ------------------------------------------------------------------
  const tokens = await issueTokens(customers)
  console.log("prefill: GET /customers/me of every customer on each side; body checks …")
  for (const server of [ours, raw]) {
    const bad = await prefill(server, tokens)
    if (Object.keys(bad).length > 0) problems.push(`prefill on ${server.name}: statuses ${JSON.stringify(bad)}`)
  }
  const probe = Math.floor(N / 2)
  const bodyProblems = await bodyChecks(ours, raw, customers[probe]!, tokens[probe]!)
  problems.push(...bodyProblems)
  let audit: Array<Audit> = []
  if (AUDIT) {
    console.log(`statement audit: ${AUDIT_REQUESTS} requests per endpoint and side, PostgreSQL's counters (about a minute) …`)
    audit = await auditStatements(stats, ours, raw, tokens[probe]!)
    problems.push(...auditDifferences(audit).map((p) => `statement audit: ${p} (bench/rawApi.ts no longer does what the service does)`))
  }

  // ---- timed runs ----------------------------------------------------------------------------
  const windows: Array<Window> = []
  const results: Array<{ endpoint: string; ours: Measured; raw: Measured }> = []
  for (const [endpoint, url] of ENDPOINTS) {
    console.log(`${endpoint}: ours …`)
    const o = await measure(ours, url, tokens, stats, windows)
    console.log(`${endpoint}: raw …`)
    const r = await measure(raw, url, tokens, stats, windows)
    results.push({ endpoint, ours: o, raw: r })
    for (const [side, m] of [["ours", o], ["raw", r]] as const) {
      if (m.non2xx + m.errors + m.timeouts + m.warmupBad > 0) {
        problems.push(
          `${endpoint} ${side}: ${m.non2xx} non-2xx, ${m.errors} errors, ${m.timeouts} timeouts (warm-up: ${m.warmupBad} bad)`
        )
      }
    }
  }

  // ---- login ---------------------------------------------------------------------------------
  console.log(`login: ${LOGINS} customers, ${LOGIN_CONCURRENCY} at a time …`)
  const login = LOGINS > 0 ? await logins(ours, customers) : undefined
  if (login !== undefined) {
    if (Object.keys(login.failures).length > 0) problems.push(`login failures: statuses ${JSON.stringify(login.failures)}`)
    const [index, token] = [...login.tokens][0] ?? []
    if (index !== undefined && token !== undefined) {
      for (const server of [ours, raw]) {
        const { status, body } = await getJson(server.baseUrl, ME, token)
        const id = (body as Envelope).result?.["id"]
        if (status !== 200 || id !== customers[index]!.accountId) {
          problems.push(`customer ${index}'s login token on ${server.name}: HTTP ${status}, id ${String(id)}, expected ${customers[index]!.accountId}`)
        }
      }
    }
  }

  console.log(`sign-in contention: GET /customers/me alone, then while ${LOGIN_CONCURRENCY} customers sign in (6 s) …`)
  const contention = LOGINS > 0 ? await signInContention(ours, customers, tokens) : undefined
  if (contention !== undefined && contention.alone.bad + contention.during.bad > 0) {
    problems.push(`sign-in contention: ${contention.alone.bad + contention.during.bad} answers of GET /customers/me were not 200`)
  }

  const finalRaw = await rawStats(raw)
  if (finalRaw.bankFailures > 0) problems.push(`raw: ${finalRaw.bankFailures} failed bank calls`)
  await stopServer(ours)
  await stopServer(raw)
  const oursErrors = readFileSync(ours.logFile, "utf8").split("\n").filter((l) => /\b(ERROR|FATAL|WARN)\b/.test(l))

  // ---- report ----------------------------------------------------------------------------------
  const cell = (s: string, w: number) => s.padEnd(w)
  const row = (cols: ReadonlyArray<string>) => `| ${cols.map((c, i) => cell(c, [18, 10, 10, 8, 15, 15, 10][i]!)).join(" | ")} |`
  lines.push("== bench:api ==")
  lines.push(
    `database        PostgreSQL ${SERVER_URL.replace(/\/\/[^@/]*@/, "//…@").replace(/\/[^/]*$/, "")}/${DB_NAME} (fresh); ${N} signed-in customers, ${TX} transactions each`
  )
  lines.push(
    `ours            node ${oursEntry.join(" ")} (pid ${ours.pid}; in-process sandbox bank; logs to a file; started in ${secs(oursBootMs)})`
  )
  lines.push(`raw             node --import tsx bench/rawApi.ts (pid ${raw.pid}; node:http + pg Pool(10) + the service's token check; its own in-process sandbox bank, from the same journal)`)
  lines.push(
    `load            autocannon ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per run, tokens round robin over ${N} customers (in this process)`
  )
  lines.push(`setup           ${secs(setupMs)} (not timed)`)
  lines.push("")
  lines.push(row(["endpoint", "ours req/s", "raw req/s", "ours/raw", "ours p50/p99", "raw p50/p99", "non-2xx"]))
  lines.push(row(["-".repeat(18), "-".repeat(10), "-".repeat(10), "-".repeat(8), "-".repeat(15), "-".repeat(15), "-".repeat(10)]))
  for (const { endpoint, ours: o, raw: r } of results) {
    lines.push(row([
      endpoint,
      fmt(o.rps),
      fmt(r.rps),
      fmt(o.rps / r.rps, 2),
      `${fmt(o.p50)} / ${fmt(o.p99)} ms`,
      `${fmt(r.p50)} / ${fmt(r.p99)} ms`,
      `${o.non2xx + o.errors + o.timeouts} / ${r.non2xx + r.errors + r.timeouts}`
    ]))
  }
  lines.push("")
  for (const { endpoint, ours: o, raw: r } of results) {
    const ratio = o.rps / r.rps
    lines.push(
      `goal ${endpoint.padEnd(18)} ours/raw ${fmt(ratio, 2)} ≥ ${GOAL}: ${ratio >= GOAL ? "met" : "NOT met"} (server CPU per request: ours ${
        fmt(o.serverMsPerRequest, 2)
      } ms, raw ${fmt(r.serverMsPerRequest, 2)} ms, raw/ours ${fmt(r.serverMsPerRequest / o.serverMsPerRequest, 2)})`
    )
  }
  if (login !== undefined) {
    lines.push(
      `login           POST /api/v1/auth/login × ${LOGINS}, ${LOGIN_CONCURRENCY} at a time: ${fmt(LOGINS / (login.wallMs / 1000), 1)} logins/s, p50 ${
        fmt(percentile(login.latencies, 50))
      } / p99 ${fmt(percentile(login.latencies, 99))} ms; ours at ${fmt(login.serverCpu)}% of a core; failures ${JSON.stringify(login.failures)}`
    )
  }
  if (contention !== undefined) {
    const { alone, during, signedIn } = contention
    lines.push(
      `during sign-in  GET /customers/me, ${PROBE_CONNECTIONS} at a time: alone p50 ${fmt(percentile(alone.latencies, 50), 1)} / p99 ${
        fmt(percentile(alone.latencies, 99), 1)
      } ms (${alone.latencies.length} in 3 s); while ${LOGIN_CONCURRENCY} customers sign in p50 ${fmt(percentile(during.latencies, 50), 1)} / p99 ${
        fmt(percentile(during.latencies, 99), 1)
      } ms (${during.latencies.length} in 3 s, ${signedIn} sign-ins)`
    )
  }
  lines.push(
    `argon2          argon2id, memoryCost ${Argon2Options.memoryCost} KiB (${(Argon2Options.memoryCost / 1024).toFixed(0)} MiB), timeCost ${Argon2Options.timeCost}, parallelism ${Argon2Options.parallelism} (Argon2PasswordHasher.ts), on libuv's pool (UV_THREADPOOL_SIZE ${
      process.env["UV_THREADPOOL_SIZE"] ?? "4, the default"
    })`
  )
  lines.push(`body check      ${bodyProblems.length === 0 ? "ok" : "FAILED"} (customer ${probe}: /customers/me and /transactions, ours and raw equal field by field, and as set up)`)
  lines.push("-- diagnostics (timed runs) --")
  for (const { endpoint, ours: o, raw: r } of results) {
    for (const [side, m] of [["ours", o], ["raw", r]] as const) {
      lines.push(
        `${endpoint.padEnd(18)} ${side.padEnd(4)}  ${m.requests} requests in ${fmt(m.seconds, 1)} s; CPU: server ${fmt(m.serverCpu)}%, postgres (${DB_NAME}) ${
          fmt(m.postgresCpu)
        }%, autocannon ${fmt(m.benchCpu)}% of a core; machine ${fmt(m.machineBusy)}% busy (2 cores = 100%), load ${fmt(m.load, 2)}`
      )
      lines.push(
        `${"".padEnd(24)}CPU per request: server ${fmt(m.serverMsPerRequest, 2)} ms, postgres ${fmt(m.postgresMsPerRequest, 2)} ms${
          endpoint === "GET /customers/me"
            ? `; each customer asked every ${fmt(N / m.rps, 1)} s (balance TTL ${fmt(BALANCE_TTL_S, 0)} s); balance-cache misses: ${
              m.bankCalls !== undefined
                ? `${m.bankCalls} (its counter) = ${fmt(m.bankCalls / Math.max(1, m.requests), 2)} per request`
                : N / m.rps > BALANCE_TTL_S
                ? "every request (asked less often than the TTL)"
                : `${m.refreshed}${m.requests > N ? " or more" : ""} (customers whose balance memo was written) = ${
                  m.requests > N ? "≥ " : ""
                }${fmt(m.refreshed / Math.max(1, m.requests), 2)} per request`
            }`
            : ""
        }`
      )
    }
  }
  for (const a of audit) {
    lines.push(
      `${a.endpoint.padEnd(18)} ${a.side.padEnd(4)}  per request (audit): ${fmt(a.statements, 2)} statements; scans ${
        [...a.scans].sort((x, y) => y[1] - x[1]).map(([t, n]) => `${t} ${n.toFixed(2)}`).join(", ")
      }; balance memo UPDATEs ${fmt(a.memo, 2)}`
    )
  }
  if (oursErrors.length > 0) {
    lines.push(`ours logged ${oursErrors.length} warnings/errors, e.g.:`)
    for (const l of oursErrors.slice(0, 5)) lines.push(`  ${l.slice(0, 300)}`)
  }
  if (PROFILE_DIR !== undefined) {
    const profiles = readdirSync(PROFILE_DIR).filter((f) => f.endsWith(".cpuprofile") && !profilesBefore.has(f))
    if (profiles.length === 0) {
      lines.push(`profile         none written to ${PROFILE_DIR}`)
    } else {
      const file = path.join(PROFILE_DIR, profiles.sort().at(-1)!)
      writeFileSync(file.replace(/\.cpuprofile$/, ".windows.json"), JSON.stringify(windows))
      lines.push(`-- profile of ours: ${file} (timed windows in ${path.basename(file, ".cpuprofile")}.windows.json) --`)
      lines.push(formatSummary(summarizeProfile(file, windows, 30)))
    }
  }
  lines.push(`total           ${secs(performance.now() - t0)}`)
  if (problems.length > 0) {
    lines.push("PROBLEMS:")
    for (const p of problems) lines.push(`  ${p}`)
  }
  console.log(lines.join("\n"))
  return problems.length === 0 ? 0 : 1
}

main()
  .catch((error: unknown) => {
    console.error(error)
    return 1
  })
  .then(async (code) => {
    await cleanup()
    process.exit(code)
  })
