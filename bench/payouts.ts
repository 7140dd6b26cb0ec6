/**
 * Throughput benchmark of the due-payout job (`Plans.processDuePayouts`, what the scheduler's
 * "due-payouts" job runs), with the sandbox bank in its own process:
 *
 *   npm run bench:payouts -- --n 10000 --latency 20 --concurrency 32
 *   npm run bench:payouts -- --dialect bankone   (adapter and bank in BankOne's dialect)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:payouts -- --n 10000
 *
 * Options: --n plans (10000), --latency ms added by the bank to every call (default
 * SANDBOX_LATENCY_MS, else 20), --concurrency payouts in flight (32), --batch claim batch size (500),
 * --permits the HTTP adapter's maxConcurrency (default = --concurrency: a payout has at most one
 * provider call in flight, so fewer permits than payouts make the adapter the bottleneck),
 * --setup-concurrency (64; also bounded by the permits), --bank process|inprocess (process),
 * --keep-db (PostgreSQL: keep the benchmark's database), --shapes (PGlite statement shapes listed, 6),
 * --cpu-profile FILE (a V8 CPU profile of this process during the drain, for Chrome DevTools),
 * --analyze (ANALYZE after setup: fresh statistics, as autovacuum would give a production server; without
 * it the planner sees the tables as they were before the bulk insert, and PGlite never analyzes).
 *
 * The bank: `packages/sandbox/src/main.ts` (what `npm run sandbox` runs) started as a child process
 * (`node --import tsx`) on a free loopback port, with SANDBOX_LATENCY_MS, its journal in a
 * temporary SANDBOX_DATA_DIR (DURABLE_WRITES=false: not fdatasync'ed per line), no webhook, and
 * this service's CORE_BANKING_TOKEN; the service reaches
 * it through the real HTTP adapter as CORE_BANKING_URL would. So the 2 cores are split: this process
 * runs the service (job, saga, repositories, and the database when it is PGlite), the child runs the
 * bank. `--bank inprocess` runs the sandbox in this process instead, its bank in memory (as
 * bench:transfers does). There is no runtime latency setting in the sandbox, so setup runs at the
 * same latency, with --setup-concurrency.
 *
 * The service's database: an in-memory PGlite, or with DATABASE_URL a fresh database
 * `bench_payouts_<tag>_<pid>` created on that server (dropped at the end unless --keep-db), so the
 * job sees no plan but the benchmark's.
 *
 * Setup (timed separately): N customers as in bench:transfers (`makeFundedCustomer`: bank account
 * opened, 200 000 kobo deposited, first deposit marked); one name enquiry of the destination
 * (0123450001 at 000013), whose session id every plan carries; N plans inserted through PlanRepo:
 * active, daily, 2 cycles of 50 000 kobo, UTC, anchored so that cycle 0 fell due 23 h ago and
 * cycle 1 falls due in about 1 h (only cycle 0 is due).
 *
 * Run: `processDuePayouts({ batchSize, concurrency, maxBatches: 1e6 })` until a run claims nothing.
 * Provider calls are counted at the CoreBanking port (HTTP requests, which include the adapter's
 * retries, at the adapter's HTTP sender); RSS and heap are sampled every 100 ms (peak, and the RSS's median
 * and p90), after a full collection of the setup's garbage; the process runs with the service's
 * heap policy (HeapTuning.ts, as `npm start`); per-payout latency is each disbursement's
 * created_at → updated_at (movement stored → confirmed).
 *
 * Checks (exit 1 unless all pass): N instalments, all cycle 0 and paid, each linked to a confirmed
 * disbursement of its plan; N disbursements, all confirmed, none twice for a plan; every plan moved
 * to cycle 1 and released; at the bank, N transfers out of N × 50 000 kobo and the books balance
 * (`conservation`: asked of the running bank, GET /sandbox/conservation, before it is stopped).
 *
 * The bound: min(concurrency, permits) / (provider calls per payout × latency) payouts/s, what the
 * provider's latency allows if nothing else took time; the goal is measured / bound ≥ 0.5.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { AppConfig, adaptersLayer, loadAppConfig } from "@app/adapters"
import { CoreBanking, Ids, PasswordHasher, Plan, PlanId, PlanRepo, PlanSchedule, Plans } from "@app/domain"
import { conservation, type ConservationCheck, SandboxBank, SandboxBankInMemory, SandboxServer, sandboxServerLayer } from "@app/sandbox"
import { Cause, Effect, Exit, Fiber, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { mkdtemp, rm } from "node:fs/promises"
import { loadavg, tmpdir } from "node:os"
import * as path from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import {
  argValue,
  benchConfigLayer,
  dbProbe,
  dbShapes,
  dbStats,
  freeLoopbackPort,
  httpStats,
  installPgliteStatementStats,
  instrumentedProviderLayer,
  intArg,
  makeFundedCustomer,
  ms,
  percentile,
  portStats,
  resetDbStats,
  secs,
  snapshot,
  pgliteDescription,
  SqlLive,
  createFreshDatabase,
  dropDatabase,
  DIALECT,
  sandboxDialectOptions
} from "./support.js"
import { installPgStatementStats } from "./statements.js"
import { tuneHeap } from "@app/adapters/HeapTuning"
import { withUnreceivedSpansOff } from "@app/adapters/ops/UnreceivedSpans"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

// the service's heap policy, as runService sets it in `npm start` (packages/adapters/src/HeapTuning.ts)
tuneHeap()

/**
 * A full garbage collection (V8's `gc`, exposed without --expose-gc on the command line). Run
 * before the drain so that the setup's garbage (the inserts of N customers and plans, this
 * benchmark's and not the service's) is not counted in the drain's memory, and after it.
 */
setFlagsFromString("--expose-gc")
const fullGc = runInNewContext("gc") as () => void

// ---------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------

const N = intArg("n", 10_000, 1)
const LATENCY_MS = intArg("latency", Number(process.env["SANDBOX_LATENCY_MS"] ?? 20) || 0, 0)
const CONCURRENCY = intArg("concurrency", 32, 1)
const BATCH = intArg("batch", 500, 1)
const PERMITS = intArg("permits", CONCURRENCY, 1)
const SETUP_CONCURRENCY = intArg("setup-concurrency", 64, 1)
const BANK_MODE = argValue("bank") ?? "process"
if (BANK_MODE !== "process" && BANK_MODE !== "inprocess") {
  console.error(`--bank: expected process or inprocess, got ${JSON.stringify(BANK_MODE)}`)
  process.exit(2)
}
const KEEP_DB = process.argv.includes("--keep-db")
/** ANALYZE the service's tables after setup (what autovacuum would have done on a production server) */
const ANALYZE = process.argv.includes("--analyze")
/** how many statement shapes the PGlite diagnostics list */
const SHAPES = intArg("shapes", 6, 0)
/** write a CPU profile of this process (the service) during the drain to this file */
const CPU_PROFILE = argValue("cpu-profile")

const CYCLES = 2
const INSTALMENT_KOBO = 50_000n
const TOTAL_KOBO = INSTALMENT_KOBO * BigInt(CYCLES)
/** covers the pot (2 × 50 000) and its NIP fees */
const DEPOSIT_KOBO = 200_000n
const DESTINATION = { accountNumber: "0123450001", bankCode: "000013", bankName: "Guaranty Trust Bank (GTBank)" } as const

const ROOT = fileURLToPath(new URL("..", import.meta.url))
const SANDBOX_MAIN = path.join(ROOT, "packages/sandbox/src/main.ts")

// Diagnostic only: the statements of the service's PGlite (and of the bank's, with --bank inprocess).
installPgliteStatementStats()
installPgStatementStats()

// ---------------------------------------------------------------------------------------------
// Operating-system counters (Linux /proc), for the profile
// ---------------------------------------------------------------------------------------------

/** USER_HZ: /proc reports CPU time in clock ticks of 1/100 s on Linux */
const TICK_MS = 10

const readText = (file: string): string | undefined => {
  try {
    return readFileSync(file, "utf8")
  } catch {
    return undefined
  }
}

/** CPU time (user + system) of one process, ms. */
const processCpuMs = (pid: number): number | undefined => {
  const stat = readText(`/proc/${pid}/stat`)
  if (stat === undefined) return undefined
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS
}

/** CPU time of every process named `postgres` (the local server's backends), ms. */
const postgresCpuMs = (): number => {
  let total = 0
  for (const entry of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue
    const stat = readText(`/proc/${entry}/stat`)
    if (stat === undefined || !stat.includes("(postgres)")) continue
    total += processCpuMs(Number(entry)) ?? 0
  }
  return total
}

/** Busy and total CPU time of the whole machine (all cores), ms. */
const machineCpuMs = (): { busy: number; total: number } => {
  const line = (readText("/proc/stat") ?? "cpu 0 0 0 0").split("\n")[0]!
  const v = line.trim().split(/\s+/).slice(1, 9).map(Number)
  const total = v.reduce((a, b) => a + b, 0)
  const idle = (v[3] ?? 0) + (v[4] ?? 0)
  return { busy: (total - idle) * TICK_MS, total: total * TICK_MS }
}

/** Peak resident set of a process (VmHWM), MiB. */
const peakRssMiB = (pid: number): number | undefined => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readText(`/proc/${pid}/status`) ?? "")
  return m === null ? undefined : Number(m[1]) / 1024
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`

// ---------------------------------------------------------------------------------------------
// What this run started, and its clean-up (at the end, or on SIGINT/SIGTERM)
// ---------------------------------------------------------------------------------------------

const started: {
  bank?: BankProcess
  database?: { readonly name: string; readonly serverUrl: string }
} = {}

let cleaning: Promise<void> | undefined
/** Stops the bank and removes its data directory; drops the fresh database (unless --keep-db). Once. */
const cleanup = () =>
  cleaning ??= (async () => {
    const { bank, database } = started
    if (bank !== undefined) {
      await stopBank(bank)
      await rm(bank.dataDir, { recursive: true, force: true })
    }
    if (database !== undefined) {
      if (KEEP_DB) console.log(`kept the database ${database.name}`)
      else await dropDatabase(database.serverUrl, database.name).catch((e) => console.error("could not drop the database", e))
    }
  })()

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping the bank and dropping the benchmark's database`)
    void cleanup().finally(() => process.exit(signal === "SIGINT" ? 130 : 143))
  })
}

// ---------------------------------------------------------------------------------------------
// The bank in its own process
// ---------------------------------------------------------------------------------------------

interface BankProcess {
  readonly baseUrl: string
  readonly dataDir: string
  readonly child: ChildProcess
  readonly pid: number
  /** the child's output, for a failure report */
  readonly output: Array<string>
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null

const startBank = async (options: { readonly latencyMs: number; readonly token: string; readonly timeoutMs: number }) => {
  const port = await freeLoopbackPort()
  const dataDir = await mkdtemp(path.join(tmpdir(), "bench-payouts-bank-"))
  const child = spawn(process.execPath, ["--import", "tsx", SANDBOX_MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      SANDBOX_PORT: String(port),
      SANDBOX_DATA_DIR: dataDir,
      SANDBOX_LATENCY_MS: String(options.latencyMs),
      SANDBOX_WEBHOOK_URL: "none",
      CORE_BANKING_TOKEN: options.token,
      CORE_BANKING_TIMEOUT_MS: String(options.timeoutMs),
      // --dialect: the bank process speaks the service's dialect
      SANDBOX_DIALECT: DIALECT,
      // the bank's journal in the page cache, not fdatasync'ed per line (DURABLE_WRITES, on by default
      // in `npm run sandbox`): the benchmark measures the service against a bank of the given latency;
      // six syncs per payout on the disk PostgreSQL commits to doubled the bank's CPU per call and
      // slowed the service's statements
      DURABLE_WRITES: "false"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const output: Array<string> = []
  let ready = false
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8")
    stream?.on("data", (chunk: string) => {
      for (const line of chunk.split("\n")) {
        if (line.trim() === "") continue
        output.push(line)
        if (output.length > 200) output.shift()
        // after start-up, anything the bank says besides INFO is worth seeing
        if (ready && !/\bINFO\b/.test(line)) process.stderr.write(`[bank] ${line}\n`)
      }
    })
  }
  const bank: BankProcess = { baseUrl: `http://127.0.0.1:${port}`, dataDir, child, pid: child.pid ?? -1, output }
  started.bank = bank
  process.on("exit", () => {
    if (running(child)) child.kill("SIGKILL")
  })
  const deadline = Date.now() + 60_000
  for (;;) {
    if (!running(child)) throw new Error(`the bank process exited during start-up:\n${output.join("\n")}`)
    if (Date.now() > deadline) throw new Error(`the bank did not answer within 60 s:\n${output.join("\n")}`)
    try {
      const response = await fetch(`${bank.baseUrl}/banks`, { headers: { authorization: `Bearer ${options.token}` } })
      if (response.ok) break
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  ready = true
  return bank
}

/** SIGTERM (the bank closes its journal), SIGKILL after 15 s. */
const stopBank = async (bank: BankProcess) => {
  if (!running(bank.child)) return
  const exited = once(bank.child, "exit")
  bank.child.kill("SIGTERM")
  const timer = setTimeout(() => bank.child.kill("SIGKILL"), 15_000)
  await exited
  clearTimeout(timer)
}

// ---------------------------------------------------------------------------------------------
// The service's PostgreSQL database: a fresh one per run
// ---------------------------------------------------------------------------------------------

const freshDatabase = async (serverUrl: string) => {
  const database = await createFreshDatabase(serverUrl, "bench_payouts")
  started.database = { name: database.name, serverUrl }
  return database
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

const count = (v: unknown) => Number(v ?? NaN)

/** The service's side: every instalment 0 paid once, by one confirmed disbursement. */
const serviceChecks = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, string | number>>`
    SELECT
      (SELECT count(*) FROM plan_instalments) AS instalments,
      (SELECT count(*) FROM plan_instalments WHERE cycle = 0 AND status = 'paid') AS paid_cycle0,
      (SELECT count(*) FROM plan_instalments i JOIN transactions t ON t.id = i.transaction_id AND t.plan_id = i.plan_id
        WHERE i.cycle = 0 AND i.status = 'paid' AND t.status = 'confirmed' AND t.amount_kobo = ${INSTALMENT_KOBO.toString()}) AS linked,
      (SELECT count(*) FROM transactions WHERE purpose = 'disbursement') AS disbursements,
      (SELECT count(*) FROM transactions WHERE purpose = 'disbursement' AND status = 'confirmed') AS confirmed,
      (SELECT count(*) FROM (SELECT plan_id FROM transactions WHERE purpose = 'disbursement'
        GROUP BY plan_id HAVING count(*) > 1) twice) AS plans_paid_twice,
      (SELECT count(*) FROM disbursement_plans
        WHERE state = 'active' AND next_cycle = 1 AND lease_until IS NULL AND next_due_at > now()) AS plans_on_cycle1`
  const r = rows[0] ?? {}
  const v = {
    instalments: count(r["instalments"]),
    paidCycle0: count(r["paidCycle0"]),
    linked: count(r["linked"]),
    disbursements: count(r["disbursements"]),
    confirmed: count(r["confirmed"]),
    plansPaidTwice: count(r["plansPaidTwice"]),
    plansOnCycle1: count(r["plansOnCycle1"])
  }
  const problems: Array<string> = []
  if (v.instalments !== N) problems.push(`${v.instalments} instalment records, expected ${N}`)
  if (v.paidCycle0 !== N) problems.push(`${v.paidCycle0} instalments 0 paid, expected ${N}`)
  if (v.linked !== N) problems.push(`${v.linked} paid instalments linked to a confirmed disbursement of their plan, expected ${N}`)
  if (v.disbursements !== N) problems.push(`${v.disbursements} disbursements, expected ${N}`)
  if (v.confirmed !== N) problems.push(`${v.confirmed} disbursements confirmed, expected ${N}`)
  if (v.plansPaidTwice !== 0) problems.push(`${v.plansPaidTwice} plans with more than one disbursement`)
  if (v.plansOnCycle1 !== N) problems.push(`${v.plansOnCycle1} plans active on cycle 1, released and not due, expected ${N}`)
  return { ...v, problems }
})

/**
 * The bank's side: N transfers out of one instalment each, and its books balance (`conservation`
 * also checks that paidOut is the sum of the transfers whose money is out).
 */
const bankChecks = (books: ConservationCheck) => {
  const paidOut = BigInt(books.ledger.paidOut)
  const problems = [...books.problems]
  if (books.transfersOut !== N) problems.push(`${books.transfersOut} transfers out at the bank, expected ${N}`)
  if (paidOut !== INSTALMENT_KOBO * BigInt(N)) problems.push(`${paidOut} kobo paid out at the bank, expected ${INSTALMENT_KOBO * BigInt(N)}`)
  return { ok: books.ok && problems.length === 0, ledger: books.ledger, transfersOut: books.transfersOut, problems }
}

type BankCheck = ReturnType<typeof bankChecks>

/** The bank in its own process, asked over HTTP (GET /sandbox/conservation) while it runs. */
const bankChecksOverHttp = async (bank: BankProcess, token: string): Promise<BankCheck> => {
  const response = await fetch(`${bank.baseUrl}/sandbox/conservation`, { headers: { authorization: `Bearer ${token}` } })
  const body = (await response.json()) as { readonly responseCode?: string; readonly data?: ConservationCheck }
  if (!response.ok || body.responseCode !== "00" || body.data === undefined) {
    throw new Error(`GET /sandbox/conservation answered HTTP ${response.status}: ${JSON.stringify(body)}`)
  }
  return bankChecks(body.data)
}

// ---------------------------------------------------------------------------------------------
// Setup and run
// ---------------------------------------------------------------------------------------------

/** Cycle 0 fell due 23 h ago (whole minute), cycle 1 falls due in about an hour; daily, UTC. */
const scheduleTerms = (at: Date) => {
  const t0 = new Date(Math.floor((at.getTime() - 23 * 3_600_000) / 60_000) * 60_000)
  const terms: PlanSchedule.ScheduleTerms = {
    frequency: "daily",
    durationDays: CYCLES,
    weekDay: null,
    scheduledTime: t0.toISOString().slice(11, 16),
    timeZone: "UTC"
  }
  const anchorDate = t0.toISOString().slice(0, 10)
  const due0 = PlanSchedule.dueAt(terms, anchorDate, 0)
  const due1 = PlanSchedule.dueAt(terms, anchorDate, 1)
  if (PlanSchedule.cycleCount(terms.frequency, terms.durationDays) !== CYCLES) throw new Error("unexpected cycle count")
  if (PlanSchedule.amountOfCycle(TOTAL_KOBO, CYCLES, 0) !== INSTALMENT_KOBO) throw new Error("unexpected instalment")
  if (!(due0.getTime() <= at.getTime() && due1.getTime() > at.getTime() + 30 * 60_000)) {
    throw new Error(`schedule: cycle 0 ${due0.toISOString()}, cycle 1 ${due1.toISOString()}, now ${at.toISOString()}`)
  }
  return { terms, anchorDate, due0, due1 }
}

interface Claim {
  /** ms since the drain started */
  readonly at: number
  readonly size: number
  readonly ms: number
}

const program = (bootStart: number, bankPid: number | undefined) =>
  Effect.gen(function*() {
    const bootMs = performance.now() - bootStart
    const config = yield* AppConfig

    // ---- setup ---------------------------------------------------------------------------------
    const setupStart = performance.now()
    const passwordHash = yield* (yield* PasswordHasher).hash(Redacted.make("bench-password-not-secret"))
    const customers = yield* Effect.forEach(
      Array.from({ length: N }, (_, i) => i),
      (i) => makeFundedCustomer(i, passwordHash, DEPOSIT_KOBO),
      { concurrency: SETUP_CONCURRENCY }
    )
    const enquiry = yield* (yield* CoreBanking).nameEnquiry({ accountNumber: DESTINATION.accountNumber, bankCode: DESTINATION.bankCode })
    const repo = yield* PlanRepo
    const ids = yield* Ids
    const at = new Date()
    const schedule = scheduleTerms(at)
    yield* Effect.forEach(customers, (c) =>
      Effect.flatMap(ids.next, (id) =>
        repo.insert(
          new Plan({
            id: PlanId.make(id),
            customerId: c.customerId,
            totalAmountKobo: TOTAL_KOBO,
            durationDays: schedule.terms.durationDays,
            frequency: schedule.terms.frequency,
            weekDay: null,
            scheduledTime: schedule.terms.scheduledTime,
            timeZone: schedule.terms.timeZone,
            withdrawalAccountNumber: DESTINATION.accountNumber,
            withdrawalBankCode: DESTINATION.bankCode,
            withdrawalBankName: DESTINATION.bankName,
            withdrawalAccountName: enquiry.accountName,
            nameEnquirySessionId: enquiry.sessionId,
            state: "active",
            cycleCount: CYCLES,
            cycleBase: 0,
            nextCycle: 0,
            anchorDate: schedule.anchorDate,
            nextDueAt: schedule.due0,
            borrowCount: 0,
            leaseUntil: null,
            version: 0,
            activatedAt: at,
            completedAt: null,
            createdAt: at,
            updatedAt: at
          })
        )), { concurrency: SETUP_CONCURRENCY, discard: true })
    if (ANALYZE) yield* (yield* SqlClient.SqlClient)`ANALYZE`
    const setupMs = performance.now() - setupStart
    const setupCalls = [...portStats.values()].reduce((n, s) => n + s.calls, 0)

    // ---- drain -----------------------------------------------------------------------------------
    portStats.clear()
    httpStats.clear()
    resetDbStats()
    const claims: Array<Claim> = []
    let wallStart = 0
    const timedRepo = PlanRepo.of({
      ...repo,
      claimDue: (now, leaseUntil, limit) =>
        Effect.suspend(() => {
          const start = performance.now()
          return Effect.tap(repo.claimDue(now, leaseUntil, limit), (claimed) =>
            Effect.sync(() => claims.push({ at: start - wallStart, size: claimed.length, ms: performance.now() - start })))
        })
    })
    const memory = { rss: 0, heapUsed: 0, heapTotal: 0, samples: 0, rssSamples: [] as Array<number> }
    const sample = () => {
      const m = process.memoryUsage()
      memory.rssSamples.push(m.rss)
      memory.rss = Math.max(memory.rss, m.rss)
      memory.heapUsed = Math.max(memory.heapUsed, m.heapUsed)
      memory.heapTotal = Math.max(memory.heapTotal, m.heapTotal)
      memory.samples++
    }
    fullGc()
    const probeSamples: Array<number> = []
    const probe = yield* Effect.fork(dbProbe(probeSamples))
    const sampler = setInterval(sample, 100)
    sample()
    const elu0 = performance.eventLoopUtilization()
    const cpu0 = process.cpuUsage()
    const bankCpu0 = bankPid === undefined ? undefined : processCpuMs(bankPid)
    const pgCpu0 = postgresCpuMs()
    const machine0 = machineCpuMs()
    const load0 = loadavg()[0]!
    const profiler = CPU_PROFILE === undefined ? undefined : yield* Effect.promise(async () => {
      const session = new Session()
      session.connect()
      await session.post("Profiler.enable")
      await session.post("Profiler.start")
      return session
    })
    wallStart = performance.now()
    let rounds = 0
    const outcome = { plans: 0, paid: 0, failed: 0 }
    for (;;) {
      const r = yield* Plans.processDuePayouts({ batchSize: BATCH, concurrency: CONCURRENCY, maxBatches: 1_000_000 }).pipe(
        Effect.provideService(PlanRepo, timedRepo),
        // as the scheduler runs it: spans off when nothing receives them (ops/UnreceivedSpans.ts)
        withUnreceivedSpansOff
      )
      rounds++
      outcome.plans += r.plans
      outcome.paid += r.paid
      outcome.failed += r.failed
      if (r.plans === 0 || rounds >= 20) break
    }
    const wallMs = performance.now() - wallStart
    if (profiler !== undefined && CPU_PROFILE !== undefined) {
      const { profile } = yield* Effect.promise(() => profiler.post("Profiler.stop"))
      writeFileSync(CPU_PROFILE, JSON.stringify(profile))
      profiler.disconnect()
    }
    const elu = performance.eventLoopUtilization(elu0)
    const cpu = process.cpuUsage(cpu0)
    const bankCpu1 = bankPid === undefined ? undefined : processCpuMs(bankPid)
    const pgCpuMs = postgresCpuMs() - pgCpu0
    const machine1 = machineCpuMs()
    clearInterval(sampler)
    sample()
    // what the heap still holds after a full collection
    fullGc()
    const heapAfterGc = process.memoryUsage().heapUsed
    yield* Fiber.interrupt(probe)
    const drainPort = snapshot(portStats)
    const drainHttp = snapshot(httpStats)
    const drainDb = structuredClone(dbStats)
    const topShapes = [...dbShapes].sort((a, b) => b[1].totalMs - a[1].totalMs).slice(0, SHAPES)

    // ---- final state -----------------------------------------------------------------------------
    const sql = yield* SqlClient.SqlClient
    const timings = yield* sql<{ readonly latency: string | number; readonly doneAt: string | number }>`
      SELECT extract(epoch FROM (updated_at - created_at)) * 1000 AS latency,
             extract(epoch FROM updated_at) * 1000 AS done_at
      FROM transactions WHERE purpose = 'disbursement' AND status = 'confirmed'`
    const service = yield* serviceChecks
    const inProcessBank = bankPid === undefined ? yield* Effect.serviceOption(SandboxBank) : Option.none()
    const bankInProcess = Option.isSome(inProcessBank)
      ? Option.some(bankChecks(yield* Effect.provideService(conservation, SandboxBank, inProcessBank.value)))
      : Option.none<BankCheck>()

    return {
      database: Option.isSome(config.databaseUrl) ? "PostgreSQL (DATABASE_URL, fresh database)" : pgliteDescription,
      bootMs,
      setupMs,
      setupCalls,
      wallMs,
      rounds,
      outcome,
      claims,
      memory,
      heapAfterGc,
      elu: elu.utilization,
      serviceCpuMs: (cpu.user + cpu.system) / 1000,
      serviceSystemMs: cpu.system / 1000,
      bankCpuMs: bankCpu0 === undefined || bankCpu1 === undefined ? undefined : bankCpu1 - bankCpu0,
      pgCpuMs: Option.isSome(config.databaseUrl) ? pgCpuMs : undefined,
      machine: { busy: machine1.busy - machine0.busy, total: machine1.total - machine0.total },
      load: [load0, loadavg()[0]!] as const,
      probeSamples,
      drainPort,
      drainHttp,
      drainDb,
      topShapes,
      latencies: timings.map((t) => Number(t.latency)).sort((a, b) => a - b),
      doneAt: timings.map((t) => Number(t.doneAt)).sort((a, b) => a - b),
      service,
      bankInProcess
    }
  })

type Results = Effect.Effect.Success<ReturnType<typeof program>>

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

const report = (r: Results, bank: BankCheck, bankPeakMiB: number | undefined) => {
  const lines: Array<string> = []
  const paid = r.outcome.paid
  const throughput = paid / (r.wallMs / 1000)
  const portCalls = [...r.drainPort.values()].reduce((n, s) => n + s.calls, 0)
  const httpCalls = [...r.drainHttp.values()].reduce((n, s) => n + s.calls, 0)
  const callsPerPayout = portCalls / N
  const perPayoutProviderSeconds = callsPerPayout * (LATENCY_MS / 1000)
  const inFlight = Math.min(CONCURRENCY, PERMITS)
  const bound = perPayoutProviderSeconds > 0 ? inFlight / perPayoutProviderSeconds : Infinity
  const ratio = throughput / bound
  const probeSorted = [...r.probeSamples].sort((a, b) => a - b)
  // the steady part of the drain: from 10% to 90% of the payouts done
  const t0 = r.doneAt[Math.floor(r.doneAt.length * 0.1)]
  const t1 = r.doneAt[Math.floor(r.doneAt.length * 0.9)]
  const steady = t0 !== undefined && t1 !== undefined && t1 > t0 ? (Math.floor(r.doneAt.length * 0.9) - Math.floor(r.doneAt.length * 0.1)) / ((t1 - t0) / 1000) : NaN
  const batches = r.claims.filter((c) => c.size > 0)
  const db = r.drainDb
  const dbN = db.service.n + db.sandbox.n + db.control.n

  lines.push("== bench:payouts ==")
  lines.push(
    `database               ${r.database}; bank ${
      BANK_MODE === "process" ? "in its own process (sandbox main, journal in a temporary directory)" : "in-process (bank in memory)"
    } via ${DIALECT === "bankone" ? "the BankOne adapter (BankOne's dialect)" : "HttpCoreBanking"} (undici), ${PERMITS} permits`
  )
  lines.push(`N                      ${N} plans, cycle 0 of each due (${INSTALMENT_KOBO} kobo)`)
  lines.push(`latency                ${LATENCY_MS} ms per provider call`)
  lines.push(
    `concurrency            ${CONCURRENCY} payouts in flight, claim batches of ${BATCH} (setup: ${SETUP_CONCURRENCY})${ANALYZE ? "; ANALYZE after setup" : ""}`
  )
  lines.push(`boot (layers)          ${secs(r.bootMs)}`)
  lines.push(`setup                  ${secs(r.setupMs)} (${N} funded customers and plans, ${r.setupCalls} provider calls; not in the results)`)
  lines.push(
    `provider calls/payout  ${callsPerPayout.toFixed(2)} (port calls ${portCalls}, HTTP requests ${httpCalls}): ${
      [...r.drainPort].map(([op, s]) => `${op} ${(s.calls / N).toFixed(2)}`).join(", ")
    }`
  )
  lines.push(`job outcome            ${JSON.stringify(r.outcome)} in ${r.rounds} run(s), ${batches.length} claimed batches`)
  lines.push(`time to drain          ${secs(r.wallMs)}`)
  lines.push(`payouts/s              ${throughput.toFixed(1)} (steady part, 10%→90% done: ${steady.toFixed(1)})`)
  lines.push(
    `payout latency         p50 ${percentile(r.latencies, 50).toFixed(0)} / p90 ${percentile(r.latencies, 90).toFixed(0)} / p99 ${
      percentile(r.latencies, 99).toFixed(0)
    } ms, max ${(r.latencies.at(-1) ?? NaN).toFixed(0)} (movement stored → confirmed)`
  )
  lines.push(
    `peak memory (service)  RSS ${mib(r.memory.rss)}, heap used ${mib(r.memory.heapUsed)} (heap total ${mib(r.memory.heapTotal)}; ${r.memory.samples} samples every 100 ms during the drain; process max RSS ${
      mib(process.resourceUsage().maxRSS * 1024)
    })`
  )
  const rssSorted = [...r.memory.rssSamples].sort((a, b) => a - b)
  lines.push(`RSS during the drain   median ${mib(percentile(rssSorted, 50))}, p90 ${mib(percentile(rssSorted, 90))} (the setup's garbage collected before it starts)`)
  lines.push(`heap after full GC     ${mib(r.heapAfterGc)} (at the end of the drain)`)
  if (bankPeakMiB !== undefined) lines.push(`peak memory (bank)     RSS ${bankPeakMiB.toFixed(0)} MiB`)
  if (Number.isFinite(bound)) {
    lines.push(
      `bound                  min(${CONCURRENCY} in flight, ${PERMITS} permits) / (${callsPerPayout.toFixed(2)} calls × ${LATENCY_MS} ms) = ${bound.toFixed(1)} payouts/s`
    )
    lines.push(`measured / bound       ${ratio.toFixed(2)} (goal ≥ 0.50: ${ratio >= 0.5 ? "met" : "NOT met"})`)
  } else {
    lines.push("bound                  none at 0 ms latency (measured/bound n/a)")
  }
  const s = r.service
  lines.push(
    `checks (service)       instalments ${s.instalments}, cycle 0 paid ${s.paidCycle0}, linked to a confirmed payout ${s.linked}; disbursements ${s.disbursements}, confirmed ${s.confirmed}, plans paid twice ${s.plansPaidTwice}; plans on cycle 1 ${s.plansOnCycle1} ${
      s.problems.length === 0 ? "(ok)" : `FAILED: ${s.problems.join("; ")}`
    }`
  )
  lines.push(
    `checks (bank)          transfers out ${bank.transfersOut}; conservation ${JSON.stringify(bank.ledger)} ${
      bank.ok ? "(ok)" : `FAILED: ${bank.problems.join("; ")}`
    }`
  )

  lines.push(
    `per payout             service CPU ${ms(r.serviceCpuMs / N)} (goal ≤ 5 ms; ${ms(r.serviceSystemMs / N)} of it in the kernel)${
      dbN > 0 ? `; database statements ${(dbN / N).toFixed(1)} (goal ≤ 15, BEGIN/COMMIT included)` : ""
    }${r.bankCpuMs === undefined || portCalls === 0 ? "" : `; bank CPU ${ms(r.bankCpuMs / portCalls)} per provider call (goal ≤ 0.5 ms)`}`
  )
  lines.push("-- diagnostics (drain) --")
  const cores = r.machine.total > 0 ? (r.machine.total / r.wallMs) : NaN
  // CPU of everything else on the machine (another benchmark or test run skews the numbers)
  const others = Math.max(0, r.machine.busy - r.serviceCpuMs - (r.bankCpuMs ?? 0) - (r.pgCpuMs ?? 0))
  lines.push(
    `CPU                    service process ${(r.serviceCpuMs / r.wallMs * 100).toFixed(0)}% of a core (event loop busy ${(r.elu * 100).toFixed(0)}%)${
      r.bankCpuMs === undefined ? "" : `, bank process ${(r.bankCpuMs / r.wallMs * 100).toFixed(0)}%`
    }${r.pgCpuMs === undefined ? "" : `, postgres ${(r.pgCpuMs / r.wallMs * 100).toFixed(0)}%`}; machine ${
      (r.machine.busy / r.machine.total * 100).toFixed(0)
    }% busy of ${cores.toFixed(1)} cores, of which other processes ${(others / r.wallMs * 100).toFixed(0)}% of a core; load average ${
      r.load[0].toFixed(2)
    } → ${r.load[1].toFixed(2)}`
  )
  lines.push(
    `db probe (SELECT 1)    p50 ${ms(percentile(probeSorted, 50))}, p90 ${ms(percentile(probeSorted, 90))}, p99 ${ms(percentile(probeSorted, 99))} (${probeSorted.length} samples)`
  )
  if (batches.length > 0) {
    const claimMs = batches.map((c) => c.ms).sort((a, b) => a - b)
    const gaps = batches.slice(1).map((c, i) => c.at - batches[i]!.at).sort((a, b) => a - b)
    lines.push(
      `claims                 ${batches.length} batches of ≤ ${BATCH}: claim query p50 ${ms(percentile(claimMs, 50))}, max ${ms(claimMs.at(-1) ?? NaN)}; batch time p50 ${
        gaps.length > 0 ? secs(percentile(gaps, 50)) : "n/a"
      }`
    )
    lines.push(`  claim query, in order  ${batches.slice(0, 40).map((c) => c.ms.toFixed(0)).join(" ")} ms`)
  }
  if (dbN > 0) {
    const all = db.service.ms + db.sandbox.ms + db.control.ms
    lines.push(
      `statements             ${(dbN / N).toFixed(1)}/payout, ${ms(all / N)}/payout ${
        r.database.startsWith("PGlite") ? "on the main thread" : "round trip"
      } (service ${(db.service.n / N).toFixed(1)} = ${
        ms(db.service.ms / N)
      }, sandbox ${(db.sandbox.n / N).toFixed(1)} = ${ms(db.sandbox.ms / N)}, BEGIN/COMMIT ${(db.control.n / N).toFixed(1)} = ${
        ms(db.control.ms / N)
      }); ${(all / r.wallMs * 100).toFixed(0)}% of wall time`
    )
    for (const [shape, st] of r.topShapes) {
      lines.push(`  ${ms(st.totalMs / N).padStart(9)}/payout  ${(st.calls / N).toFixed(1)}× ${ms(st.totalMs / st.calls)} each  ${shape}`)
    }
  }
  lines.push("per operation          calls/payout  port call (permit wait + HTTP)  HTTP round trip (incl. latency)")
  for (const [op, st] of r.drainPort) {
    const h = r.drainHttp.get(op)
    lines.push(
      `  ${op.padEnd(20)} ${(st.calls / N).toFixed(2).padStart(6)}        ${ms(st.totalMs / st.calls).padStart(10)}                  ${
        h === undefined ? "n/a" : ms(h.totalMs / h.calls).padStart(10)
      }`
    )
  }
  const portMs = [...r.drainPort.values()].reduce((n, st) => n + st.totalMs, 0)
  const httpMs = [...r.drainHttp.values()].reduce((n, st) => n + st.totalMs, 0)
  // every payout slot is busy for wall × concurrency; what part of it is a provider call
  const slotMs = r.wallMs * CONCURRENCY / N
  lines.push(
    `per payout (mean)      ${ms(slotMs)} of a slot (wall × concurrency / N) = ${ms(portMs / N)} in provider calls (of which ${
      ms((portMs - httpMs) / N)
    } waiting for a permit, ${ms(httpMs / N)} HTTP; ${ms(callsPerPayout * LATENCY_MS)} of it the bank's latency) + ${
      ms(slotMs - portMs / N)
    } elsewhere (database, our code, claims, batch tails)`
  )
  console.log(lines.join("\n"))
  return s.problems.length === 0 && bank.ok && r.outcome.paid === N && r.outcome.failed === 0
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

const main = async (): Promise<number> => {
  const bootStart = performance.now()
  const config = await Effect.runPromise(loadAppConfig)
  const serverUrl = Option.map(config.databaseUrl, Redacted.value)
  let bank: BankProcess | undefined
  let database: { readonly name: string; readonly url: string } | undefined
  try {
    if (Option.isSome(serverUrl)) database = await freshDatabase(serverUrl.value)
    if (BANK_MODE === "process") {
      bank = await startBank({
        latencyMs: LATENCY_MS,
        token: Redacted.value(config.coreBankingToken),
        timeoutMs: config.coreBankingTimeoutMs
      })
    }
    const ConfigLive = benchConfigLayer({
      sandboxLatencyMs: LATENCY_MS,
      databaseUrl: database === undefined ? Option.none() : Option.some(Redacted.make(database.url)),
      coreBankingUrl: bank === undefined ? Option.none() : Option.some(bank.baseUrl)
    })
    const ProviderLive = bank !== undefined
      ? instrumentedProviderLayer(Effect.succeed(bank.baseUrl), PERMITS)
      : instrumentedProviderLayer(Effect.map(SandboxServer, (s) => s.baseUrl), PERMITS).pipe(
        Layer.provide(Layer.unwrapEffect(
          Effect.map(AppConfig, (c) =>
            sandboxServerLayer({
              port: 0,
              token: Redacted.value(c.coreBankingToken),
              latencyMs: c.sandboxLatencyMs,
              slowTransferDelayMs: c.coreBankingTimeoutMs + 1_000,
              webhook: Option.none(),
              ...sandboxDialectOptions(c)
            }))
        )),
        // the bank (in memory) stays in context: the checks read its books
        Layer.provideMerge(SandboxBankInMemory)
      )
    const MainLive = ProviderLive.pipe(
      Layer.provideMerge(adaptersLayer(SqlLive)),
      Layer.provideMerge(ConfigLive),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
    )
    const exit = await Effect.runPromiseExit(
      program(bootStart, bank?.pid).pipe(Effect.provide(MainLive), Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))
    )
    if (Exit.isFailure(exit)) {
      console.error(Cause.pretty(exit.cause))
      return 1
    }
    const results = exit.value
    let bankCheck: BankCheck
    let bankPeak: number | undefined
    if (bank !== undefined) {
      // the bank's books, asked of the running bank
      bankCheck = await bankChecksOverHttp(bank, Redacted.value(config.coreBankingToken))
      bankPeak = peakRssMiB(bank.pid)
      await stopBank(bank)
    } else {
      bankCheck = Option.getOrThrow(results.bankInProcess)
    }
    return report(results, bankCheck, bankPeak) ? 0 : 1
  } catch (error) {
    console.error(error)
    return 1
  } finally {
    await cleanup()
  }
}

main().then((code) => process.exit(code))
