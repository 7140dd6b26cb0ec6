/**
 * What the benchmarks share (bench/transfers.ts, bench/payouts.ts): argument parsing, the counting
 * and timing of provider calls (at the CoreBanking port and at the adapter's HTTP sender), optional counting of
 * PGlite statements, the layers of configuration, database and provider, and the setup of funded
 * customers with a bank account at the sandbox.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { AppConfig, type AppConfigShape, loadAppConfig } from "@app/adapters"
import { bankOneLayer } from "@app/adapters/corebanking/bankone/BankOneCoreBanking"
import * as HttpCoreBanking from "@app/adapters/corebanking/HttpCoreBanking"
import type { Send } from "@app/adapters/corebanking/Sender"
import { pgLayer, pgliteLayer } from "@app/adapters/sql/Database"
import { Account, AccountId, AccountRepo, Banking, CoreBanking, Customer, CustomerId, Ids, SecretHasher, SecureRandom, TestFunding, referenceFor, type Kobo } from "@app/domain"
import { Context, Duration, Effect, FiberRef, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { randomInt } from "node:crypto"
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { seedFromTemplate, templateDatabase } from "@app/runtime/TemplateCopy"
import { createServer as createNetServer } from "node:net"
import { performance } from "node:perf_hooks"
import { PGlite } from "@electric-sql/pglite"

// ---------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------

export const argValue = (name: string): string | undefined => {
  const argv = process.argv.slice(2)
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === `--${name}`) return argv[i + 1]
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3)
  }
  return undefined
}

export const intArg = (name: string, fallback: number, min: number): number => {
  const raw = argValue(name)
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name}: expected an integer ≥ ${min}, got ${JSON.stringify(raw)}`)
    process.exit(2)
  }
  return n
}

// ---------------------------------------------------------------------------------------------
// Instrumentation: provider calls at the port, HTTP requests at the client
// ---------------------------------------------------------------------------------------------

export interface OpStats {
  calls: number
  totalMs: number
}

export const portStats = new Map<string, OpStats>()
export const httpStats = new Map<string, OpStats>()
const currentOperation = FiberRef.unsafeMake<string>("(other)")

export const record = (stats: Map<string, OpStats>, key: string, ms: number) => {
  const s = stats.get(key) ?? { calls: 0, totalMs: 0 }
  s.calls++
  s.totalMs += ms
  stats.set(key, s)
}

/**
 * `effect` timed into `stats` under `key`, however it ends. This instrumentation runs around every
 * provider call of the service under test, twice (the port call, its HTTP exchange), and its CPU
 * counts as the service's: so it is a `matchCauseEffect` (2 of Effect's runtime steps), not an
 * `Effect.ensuring` (its mask and finalizer, ~7 steps) inside an `Effect.locally` (~8 more).
 */
const timedInto = <A, E, R>(stats: Map<string, OpStats>, key: string, effect: Effect.Effect<A, E, R>, start: number) =>
  Effect.matchCauseEffect(effect, {
    onSuccess: (a) => {
      record(stats, key, performance.now() - start)
      return Effect.succeed(a)
    },
    onFailure: (cause) => {
      record(stats, key, performance.now() - start)
      return Effect.failCause(cause)
    }
  })

/**
 * Every operation of a port service, counted and timed, and named for the HTTP client below: the
 * name is set on the calling fiber and left there (the fiber's next port call replaces it), which
 * is all the HTTP exchanges it sends meanwhile need.
 */
export const instrument = <S extends object>(service: S, prefix: string): S => {
  const wrapped: Record<string, unknown> = {}
  for (const [name, member] of Object.entries(service)) {
    const key = `${prefix}${name}`
    const around = (effect: Effect.Effect<unknown, unknown, unknown>) =>
      Effect.flatMap(FiberRef.set(currentOperation, key), () => timedInto(portStats, key, effect, performance.now()))
    wrapped[name] = typeof member === "function"
      ? (...args: Array<unknown>) => around(member(...args))
      : Effect.isEffect(member)
      ? around(member as Effect.Effect<unknown, unknown, unknown>)
      : member
  }
  return wrapped as S
}

/** Every HTTP exchange of the adapter timed under the port operation that sent it. */
const timedSend = (send: Send): Send => (request, timeoutMs) =>
  Effect.withFiberRuntime((fiber) =>
    timedInto(httpStats, fiber.getFiberRef(currentOperation), send(request, timeoutMs), performance.now())
  )

/**
 * Diagnostic only: every statement PGlite runs in this process, counted and timed, once
 * `installPgliteStatementStats` ran. PGlite executes in WASM on the main thread, so this time is
 * event-loop time.
 */
export const dbStats = { service: { n: 0, ms: 0 }, sandbox: { n: 0, ms: 0 }, control: { n: 0, ms: 0 } }
/** per statement shape (its first 70 characters, whitespace collapsed) */
export const dbShapes = new Map<string, OpStats>()
export const resetDbStats = () => {
  dbShapes.clear()
  for (const s of Object.values(dbStats)) {
    s.n = 0
    s.ms = 0
  }
}
let pgliteStatsInstalled = false
export const installPgliteStatementStats = () => {
  if (pgliteStatsInstalled) return
  pgliteStatsInstalled = true
  for (const method of ["query", "exec"] as const) {
    const proto = PGlite.prototype as unknown as Record<string, (...args: Array<unknown>) => Promise<unknown>>
    const original = proto[method]!
    proto[method] = async function(this: unknown, ...args: Array<unknown>) {
      const start = performance.now()
      try {
        return await original.apply(this, args)
      } finally {
        const text = String(args[0]).trimStart().toUpperCase()
        const bucket = /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET TRANSACTION)/.test(text)
          ? dbStats.control
          : text.includes("SANDBOX_")
          ? dbStats.sandbox
          : dbStats.service
        const elapsed = performance.now() - start
        bucket.n++
        bucket.ms += elapsed
        record(dbShapes, String(args[0]).replace(/\s+/g, " ").trim().slice(0, 70), elapsed)
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Layers
// ---------------------------------------------------------------------------------------------

/** The service's configuration from the environment, no outbox file, port 0, with `overrides`. */
/**
 * `--dialect generic|bankone` (default generic): which protocol the service's adapter and the
 * sandbox bank speak (docs/bankone.md). In bankone mode the TSQ interval is 0 (benchmarks measure
 * throughput, not BankOne's 60 s between status queries).
 */
export const DIALECT: "generic" | "bankone" = (() => {
  const value = argValue("dialect") ?? "generic"
  if (value !== "generic" && value !== "bankone") {
    console.error(`--dialect: expected generic or bankone, got ${JSON.stringify(value)}`)
    process.exit(2)
  }
  return value
})()

/** The sandbox server options of `--dialect` for a service configured as `config`. */
export const sandboxDialectOptions = (config: AppConfigShape) => ({
  dialect: config.coreBankingProvider,
  bankoneToken: Redacted.value(config.bankone.token),
  bankoneInstitutionCode: config.bankone.institutionCode
})

export const benchConfigLayer = (overrides: Partial<AppConfigShape>) =>
  Layer.effect(
    AppConfig,
    Effect.map(loadAppConfig, (config): AppConfigShape => ({
      ...config,
      notifyOutboxFile: Option.none(),
      port: 0,
      coreBankingProvider: DIALECT,
      bankone: { ...config.bankone, tsqIntervalMs: 0 },
      ...overrides
    }))
  )

/** PostgreSQL when the configuration has a database URL, else an in-memory PGlite. */
/**
 * The service's database as the embedded default has it: PGlite in a (temporary) data directory
 * seeded from the build's template database (`npm run build` makes it; packages/runtime
 * TemplateCopy.ts), as `npm start` on an empty DATA_DIR does. Without a template: PGlite in
 * memory, started by initdb (whose memory the WebAssembly heap keeps: some 600 MiB more RSS).
 */
export let pgliteDescription = "PGlite in memory (initdb)"

const benchPgliteDir = async (): Promise<string | undefined> => {
  if (templateDatabase() === undefined) return undefined
  const dir = path.join(await mkdtemp(path.join(tmpdir(), "bench-pglite-")), "pglite")
  // the copy's worker is unref'd (it must not hold a stopping service up) and nothing else keeps
  // this process's event loop alive while the layer waits for it: without this timer the bench
  // exited 0 here, silently, before measuring anything
  const keepAlive = setInterval(() => {}, 1_000)
  try {
    if (!(await seedFromTemplate(dir))) return undefined
  } finally {
    clearInterval(keepAlive)
  }
  pgliteDescription = `PGlite in ${dir} (from the build's template)`
  process.on("exit", () => rmSync(path.dirname(dir), { recursive: true, force: true }))
  return dir
}

export const SqlLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.databaseUrl, {
      onNone: () => Layer.unwrapEffect(Effect.map(Effect.promise(benchPgliteDir), (dir) => pgliteLayer(dir, { durable: config.durableWrites }))),
      onSome: pgLayer
    }))
)

/**
 * The real HTTP adapter towards the bank at `baseUrl` (every HTTP exchange timed), with
 * `permits` as its maxConcurrency; its port services (CoreBanking, TestFunding) instrumented; with
 * the domain caches.
 */
export const instrumentedProviderLayer = <E, R>(baseUrl: Effect.Effect<string, E, R>, permits: number) =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const config = yield* AppConfig
      return config.coreBankingProvider === "bankone"
        ? bankOneLayer({
          baseUrl: yield* baseUrl,
          settings: config.bankone,
          testToken: config.coreBankingToken,
          timeoutMs: config.coreBankingTimeoutMs,
          maxConcurrency: permits,
          wrapSend: timedSend,
          production: false
        })
        : HttpCoreBanking.layer({
          baseUrl: yield* baseUrl,
          token: config.coreBankingToken,
          timeoutMs: config.coreBankingTimeoutMs,
          maxConcurrency: permits,
          wrapSend: timedSend
        })
    })
  ).pipe(
    (adapter) =>
      Layer.effectContext(Effect.gen(function*() {
        const core = yield* CoreBanking
        const funding = yield* TestFunding
        return Context.make(CoreBanking, instrument(core, "")).pipe(
          Context.add(TestFunding, instrument(funding, "TestFunding."))
        )
      })).pipe(Layer.provide(adapter)),
    (provider) => Banking.BankingCachesLive.pipe(Layer.provideMerge(provider))
  )

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

export const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!

export const ms = (n: number) => `${n.toFixed(1)} ms`
export const secs = (n: number) => `${(n / 1000).toFixed(2)} s`

export const countBy = (values: ReadonlyArray<string>) => {
  const counts: Record<string, number> = {}
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1
  return counts
}

export const snapshot = (stats: Map<string, OpStats>) => new Map([...stats].map(([k, v]) => [k, { ...v }]))

/** How long a trivial statement waits for the database (PGlite: its one-permit semaphore; pg: the pool). */
export const dbProbe = (samples: Array<number>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (;;) {
      const start = performance.now()
      yield* sql`SELECT 1`.pipe(Effect.orDie)
      samples.push(performance.now() - start)
      yield* Effect.sleep(Duration.millis(25))
    }
  })

// ---------------------------------------------------------------------------------------------
// Setup: a funded customer with a bank account
// ---------------------------------------------------------------------------------------------

const REFERRAL_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
/** distinguishes this run's emails, phones and BVNs from an earlier run's on the same database */
export const runTag = randomInt(1000, 10_000).toString()

export interface FundedCustomer {
  readonly accountId: AccountId
  readonly customerId: CustomerId
  readonly accountNumber: string
}

/**
 * Customer `i`: inserted through AccountRepo (the precomputed password hash: no registration or
 * argon2 per customer), BVN marked verified, an account opened at the bank (reference
 * `referenceFor("A", customerId)`), linked and made active, funded with `depositKobo` by
 * TestFunding.deposit, first deposit marked. Two provider calls.
 */
export const makeFundedCustomer = (i: number, passwordHash: string, depositKobo: Kobo) =>
  Effect.gen(function*() {
    const repo = yield* AccountRepo
    const ids = yield* Ids
    const random = yield* SecureRandom
    const core = yield* CoreBanking
    const at = new Date()
    const accountId = AccountId.make(yield* ids.next)
    const customerId = CustomerId.make(yield* ids.next)
    const email = `bench-${runTag}-${i}@example.com`
    const phone = `+2349${runTag}${String(i).padStart(5, "0")}`
    const identity = {
      firstName: "Bench",
      lastName: `Customer${i}`,
      otherNames: null,
      phone,
      email,
      dateOfBirth: "1990-01-01",
      gender: "female" as const
    }
    yield* Effect.gen(function*() {
      yield* repo.create({
        account: new Account({
          id: accountId,
          email,
          phone,
          passwordHash,
          firstName: identity.firstName,
          lastName: identity.lastName,
          otherNames: null,
          dateOfBirth: identity.dateOfBirth,
          gender: identity.gender,
          address: "1 Marina, Lagos",
          emailVerified: true,
          phoneVerified: false,
          createdAt: at,
          updatedAt: at
        }),
        customer: new Customer({
          id: customerId,
          accountId,
          customerStatus: "verified",
          kycStatus: "pending",
          referralCode: yield* random.fromAlphabet(8, REFERRAL_ALPHABET),
          referredBy: null,
          pinHash: null,
          smsEnabled: true,
          emailEnabled: true,
          createdAt: at,
          updatedAt: at
        })
      })
    }).pipe(Effect.retry({ times: 3, while: (e) => e.field === "referralCode" }))

    const bvn = `2${runTag}${String(i).padStart(6, "0")}`
    const verified = yield* repo.setBvnVerified(accountId, {
      bvnHash: yield* (yield* SecretHasher).digest("bvn", bvn),
      firstName: identity.firstName,
      lastName: identity.lastName,
      phone,
      address: "1 Marina, Lagos",
      gender: identity.gender,
      dateOfBirth: identity.dateOfBirth
    }, at)
    if (!verified) return yield* Effect.dieMessage(`customer ${i}: BVN not recorded`)

    const reference = referenceFor("A", customerId)
    const opened = yield* core.openAccount({ reference, ...identity })
    if (!(yield* repo.setCoreAccount(accountId, { accountNumber: opened.accountNumber, reference }, at))) {
      return yield* Effect.dieMessage(`customer ${i}: bank account not linked`)
    }
    yield* repo.transitionStatus(accountId, "verified", "active", at)

    yield* (yield* TestFunding).deposit({ accountNumber: opened.accountNumber, amountKobo: depositKobo })
    yield* repo.markFirstDeposit(accountId, new Date(), new Date())
    return { accountId, customerId, accountNumber: opened.accountNumber } satisfies FundedCustomer
  })

// ---------------------------------------------------------------------------------------------
// Processes: a free loopback port, and CPU counters from Linux /proc (bench/api.ts)
// ---------------------------------------------------------------------------------------------

/** A TCP port free on 127.0.0.1 right now. */
export const freeLoopbackPort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createNetServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/** USER_HZ: /proc reports CPU time in clock ticks of 1/100 s on Linux */
const PROC_TICK_MS = 10

const readProcText = (file: string): string | undefined => {
  try {
    return readFileSync(file, "utf8")
  } catch {
    return undefined
  }
}

/** CPU time (user + system) of one process, ms; undefined once it is gone. */
export const processCpuMs = (pid: number): number | undefined => {
  const stat = readProcText(`/proc/${pid}/stat`)
  if (stat === undefined) return undefined
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) * PROC_TICK_MS
}

/**
 * CPU time of the processes named `postgres` (a local server's backends), ms by pid; with
 * `database`, only the backends connected to it (a backend's title names its database:
 * `postgres: 15/main: user database host(port) state`).
 */
export const postgresCpuSnapshot = (database?: string): ReadonlyMap<number, number> => {
  const cpu = new Map<number, number>()
  for (const entry of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue
    const stat = readProcText(`/proc/${entry}/stat`)
    if (stat === undefined || !stat.includes("(postgres)")) continue
    if (database !== undefined && !(readProcText(`/proc/${entry}/cmdline`) ?? "").includes(` ${database} `)) continue
    const ms = processCpuMs(Number(entry))
    if (ms !== undefined) cpu.set(Number(entry), ms)
  }
  return cpu
}

/**
 * The CPU time those processes used since `before` (a process started since counts from zero; one
 * that exited since is left out: never negative, possibly short), ms.
 */
export const postgresCpuSince = (before: ReadonlyMap<number, number>, database?: string): number => {
  let total = 0
  for (const [pid, ms] of postgresCpuSnapshot(database)) total += Math.max(0, ms - (before.get(pid) ?? 0))
  return total
}

/** Busy and total CPU time of the whole machine (all cores), ms. */
export const machineCpuMs = (): { readonly busy: number; readonly total: number } => {
  const line = (readProcText("/proc/stat") ?? "cpu 0 0 0 0").split("\n")[0]!
  const v = line.trim().split(/\s+/).slice(1, 9).map(Number)
  const total = v.reduce((a, b) => a + b, 0)
  const idle = (v[3] ?? 0) + (v[4] ?? 0)
  return { busy: (total - idle) * PROC_TICK_MS, total: total * PROC_TICK_MS }
}

// ---------------------------------------------------------------------------------------------
// A database of the benchmark's own on PostgreSQL (bench:payouts, bench:transfers, bench:api)
// ---------------------------------------------------------------------------------------------

const onServer = <A>(url: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, SqlError>) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, f).pipe(
      Effect.provide(pgLayer(Redacted.make(url))),
      Effect.provide(Logger.minimumLogLevel(LogLevel.Warning))
    )
  )

/**
 * Creates `<prefix>_<runTag>_<pid>` on the server of `serverUrl` and returns its name and URL: a
 * benchmark's tables start empty whatever an earlier run left in DATABASE_URL's own database.
 */
export const createFreshDatabase = async (serverUrl: string, prefix: string) => {
  const name = `${prefix}_${runTag}_${process.pid}`
  await createDatabase(serverUrl, name)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { name, url: url.toString() }
}

export const createDatabase = (serverUrl: string, name: string) =>
  onServer(serverUrl, (sql) => sql.unsafe(`CREATE DATABASE ${name}`))

export const dropDatabase = (serverUrl: string, name: string) =>
  onServer(serverUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
