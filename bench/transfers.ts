/**
 * Throughput benchmark of manual transfers (the saga of Transfers.ts), in one process:
 *
 *   npm run bench:transfers -- --n 2000 --latency 20 --concurrency 32
 *   (also --setup-concurrency, default 64, and --permits: the adapter's maxConcurrency, default 16)
 *
 * The real layers: the SQL repositories (`adaptersLayer`) on an in-memory PGlite (or DATABASE_URL),
 * the sandbox bank on a loopback port over the same database (as `CoreBankingLive` starts it, with
 * its latency, but without the deposit webhook: there is no API server here to receive it), reached
 * through the real HTTP adapter (`HttpCoreBanking`, default `maxConcurrency` permits) over undici,
 * and the domain's balance/bank-list caches. The use cases are called directly (no HTTP API).
 *
 * Setup (timed separately): N customers inserted through AccountRepo (one precomputed password
 * hash, no registration/argon2 per customer), BVN marked verified, an account opened at the
 * sandbox (reference `referenceFor("A", customerId)`), linked and made active, funded by
 * TestFunding.deposit, first deposit marked, and one name enquiry of the destination per customer
 * whose session id is passed to the transfer as `nipSessionId` (so the transfer itself makes no
 * name-enquiry call).
 *
 * Then N manual transfers (one per customer) with bounded concurrency. Provider calls are counted
 * by a wrapper around the CoreBanking port (and HTTP requests by a wrapper around the HttpClient,
 * which also sees the adapter's retries). Exit 1 unless every transfer is confirmed and the
 * sandbox's books balance.
 */
import { HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import * as SqlClient from "@effect/sql/SqlClient"
import { AppConfig, adaptersLayer, loadAppConfig } from "@app/adapters"
import * as HttpCoreBanking from "@app/adapters/corebanking/HttpCoreBanking"
import { pgLayer, pgliteLayer } from "@app/adapters/sql/Database"
import {
  Account,
  AccountRepo,
  Banking,
  CoreBanking,
  Customer,
  Ids,
  PasswordHasher,
  referenceFor,
  SecretHasher,
  SecureRandom,
  TestFunding,
  TransferRepo,
  Transfers
} from "@app/domain"
import { conservation, SandboxServer, sandboxServerLayer } from "@app/sandbox"
import {
  Cause,
  Context,
  Duration,
  Effect,
  Exit,
  Fiber,
  FiberRef,
  Layer,
  Logger,
  LogLevel,
  Option,
  Redacted
} from "effect"
import { randomInt, randomUUID } from "node:crypto"
import { performance } from "node:perf_hooks"
import { PGlite } from "@electric-sql/pglite"

// ---------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------

const argValue = (name: string): string | undefined => {
  const argv = process.argv.slice(2)
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === `--${name}`) return argv[i + 1]
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3)
  }
  return undefined
}

const intArg = (name: string, fallback: number, min: number): number => {
  const raw = argValue(name)
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name}: expected an integer ≥ ${min}, got ${JSON.stringify(raw)}`)
    process.exit(2)
  }
  return n
}

const N = intArg("n", 2000, 1)
const LATENCY_MS = intArg("latency", Number(process.env["SANDBOX_LATENCY_MS"] ?? 20) || 0, 0)
const CONCURRENCY = intArg("concurrency", 32, 1)
const SETUP_CONCURRENCY = intArg("setup-concurrency", 64, 1)

const AMOUNT_KOBO = 100_000n
/** covers one transfer: amount + ₦10 fee + 75 kobo VAT, with room to spare */
const DEPOSIT_KOBO = 200_000n
const DESTINATION = { accountNumber: "0123450001", bankCode: "000013", bankName: "GTBank" } as const
/** the adapter's concurrency limit; default: the adapter's own default, as the service runs it */
const PERMITS = intArg("permits", HttpCoreBanking.CoreBankingHttpDefaults.maxConcurrency, 1)

// ---------------------------------------------------------------------------------------------
// Instrumentation: provider calls at the port, HTTP requests at the client
// ---------------------------------------------------------------------------------------------

interface OpStats {
  calls: number
  totalMs: number
}

const portStats = new Map<string, OpStats>()
const httpStats = new Map<string, OpStats>()
const currentOperation = FiberRef.unsafeMake<string>("(other)")

const record = (stats: Map<string, OpStats>, key: string, ms: number) => {
  const s = stats.get(key) ?? { calls: 0, totalMs: 0 }
  s.calls++
  s.totalMs += ms
  stats.set(key, s)
}

const timedInto = <A, E, R>(stats: Map<string, OpStats>, key: string, effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const start = performance.now()
    return Effect.ensuring(effect, Effect.sync(() => record(stats, key, performance.now() - start)))
  })

/** Every operation of a port service, counted and timed, and named for the HTTP client below. */
const instrument = <S extends object>(service: S, prefix: string): S => {
  const wrapped: Record<string, unknown> = {}
  for (const [name, member] of Object.entries(service)) {
    const key = `${prefix}${name}`
    const around = (effect: Effect.Effect<unknown, unknown, unknown>) =>
      Effect.locally(timedInto(portStats, key, effect), currentOperation, key)
    wrapped[name] = typeof member === "function"
      ? (...args: Array<unknown>) => around(member(...args))
      : Effect.isEffect(member)
      ? around(member as Effect.Effect<unknown, unknown, unknown>)
      : member
  }
  return wrapped as S
}

/** undici, with every request timed under the port operation that sent it. */
const InstrumentedHttpClient = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(HttpClient.HttpClient, (client) =>
    HttpClient.transform(client, (effect) =>
      Effect.flatMap(FiberRef.get(currentOperation), (operation) => timedInto(httpStats, operation, effect))))
).pipe(Layer.provide(NodeHttpClient.layerUndici))

/**
 * Diagnostic only: every statement PGlite runs (ours and the sandbox's share the one instance),
 * counted and timed. PGlite executes in WASM on the main thread, so this time is event-loop time.
 */
const dbStats = { service: { n: 0, ms: 0 }, sandbox: { n: 0, ms: 0 }, control: { n: 0, ms: 0 } }
/** per statement shape (its first 70 characters, whitespace collapsed) */
const dbShapes = new Map<string, OpStats>()
const resetDbStats = () => {
  dbShapes.clear()
  for (const s of Object.values(dbStats)) {
    s.n = 0
    s.ms = 0
  }
}
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

// ---------------------------------------------------------------------------------------------
// Layers
// ---------------------------------------------------------------------------------------------

const ConfigLive = Layer.effect(
  AppConfig,
  Effect.map(loadAppConfig, (config) => ({
    ...config,
    sandboxLatencyMs: LATENCY_MS,
    notifyOutboxFile: Option.none(),
    port: 0
  }))
)

const SqlLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.databaseUrl, {
      onNone: () => pgliteLayer(undefined),
      onSome: pgLayer
    }))
)

/** The in-process sandbox bank (its migrations run on the service's database), no webhook. */
const SandboxLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    sandboxServerLayer({
      port: 0,
      token: Redacted.value(config.coreBankingToken),
      latencyMs: config.sandboxLatencyMs,
      slowTransferDelayMs: config.coreBankingTimeoutMs + 1_000,
      webhook: Option.none()
    }))
)

/** The real HTTP adapter towards the sandbox, its port services instrumented, with the domain caches. */
const ProviderLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const sandbox = yield* SandboxServer
    return HttpCoreBanking.layer({
      baseUrl: sandbox.baseUrl,
      token: config.coreBankingToken,
      timeoutMs: config.coreBankingTimeoutMs,
      maxConcurrency: PERMITS
    }).pipe(Layer.provide(InstrumentedHttpClient))
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

const MainLive = ProviderLive.pipe(
  Layer.provideMerge(SandboxLive),
  Layer.provideMerge(adaptersLayer(SqlLive)),
  Layer.provideMerge(ConfigLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!

const ms = (n: number) => `${n.toFixed(1)} ms`
const secs = (n: number) => `${(n / 1000).toFixed(2)} s`

const countBy = (values: ReadonlyArray<string>) => {
  const counts: Record<string, number> = {}
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1
  return counts
}

const snapshot = (stats: Map<string, OpStats>) => new Map([...stats].map(([k, v]) => [k, { ...v }]))

// ---------------------------------------------------------------------------------------------
// Setup: N funded customers with a bank account
// ---------------------------------------------------------------------------------------------

interface BenchCustomer {
  readonly accountId: string
  readonly destinationAccountName: string
  readonly nipSessionId: string
}

const REFERRAL_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
const runTag = randomInt(1000, 10_000).toString()

const makeCustomer = (i: number, passwordHash: string) =>
  Effect.gen(function*() {
    const repo = yield* AccountRepo
    const ids = yield* Ids
    const random = yield* SecureRandom
    const core = yield* CoreBanking
    const at = new Date()
    const accountId = yield* ids.next
    const customerId = yield* ids.next
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

    yield* (yield* TestFunding).deposit({ accountNumber: opened.accountNumber, amountKobo: DEPOSIT_KOBO })
    yield* repo.markFirstDeposit(accountId, new Date(), new Date())

    const enquiry = yield* core.nameEnquiry({ accountNumber: DESTINATION.accountNumber, bankCode: DESTINATION.bankCode })
    return {
      accountId,
      destinationAccountName: enquiry.accountName,
      nipSessionId: enquiry.sessionId
    } satisfies BenchCustomer
  })

// ---------------------------------------------------------------------------------------------
// The benchmark
// ---------------------------------------------------------------------------------------------

interface TransferResult {
  readonly ms: number
  /** confirmed / pending from the use case, or the error's tag */
  readonly outcome: string
  readonly transferId: string | undefined
}

const transferOnce = (c: BenchCustomer) =>
  Transfers.startManualTransfer(c.accountId, {
    destinationAccountNumber: DESTINATION.accountNumber,
    destinationBankCode: DESTINATION.bankCode,
    destinationBankName: DESTINATION.bankName,
    destinationAccountName: c.destinationAccountName,
    amountKobo: AMOUNT_KOBO,
    idempotencyKey: randomUUID(),
    narration: "bench",
    nipSessionId: c.nipSessionId
  }).pipe(
    Effect.exit,
    Effect.timed,
    Effect.map(([duration, exit]): TransferResult => {
      const elapsed = Duration.toMillis(duration)
      if (Exit.isSuccess(exit)) return { ms: elapsed, outcome: exit.value.status, transferId: exit.value.id }
      const failure = Cause.failureOption(exit.cause)
      if (Option.isSome(failure)) {
        const e = failure.value as { _tag?: string; transactionId?: string }
        return { ms: elapsed, outcome: e._tag ?? "failure", transferId: e.transactionId }
      }
      return { ms: elapsed, outcome: `defect: ${Cause.pretty(exit.cause).split("\n")[0]}`, transferId: undefined }
    })
  )

/** How long a trivial statement waits for the database (PGlite: its one-permit semaphore). */
const dbProbe = (samples: Array<number>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (;;) {
      const start = performance.now()
      yield* sql`SELECT 1`.pipe(Effect.orDie)
      samples.push(performance.now() - start)
      yield* Effect.sleep(Duration.millis(25))
    }
  })

const program = (bootStart: number) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const bootMs = performance.now() - bootStart
    const database = Option.isSome(config.databaseUrl) ? "PostgreSQL (DATABASE_URL)" : "PGlite in memory"

    // ---- setup ---------------------------------------------------------------------------------
    const setupStart = performance.now()
    const passwordHash = yield* (yield* PasswordHasher).hash(Redacted.make("bench-password-not-secret"))
    const customers = yield* Effect.forEach(
      Array.from({ length: N }, (_, i) => i),
      (i) => makeCustomer(i, passwordHash),
      { concurrency: SETUP_CONCURRENCY }
    )
    const setupMs = performance.now() - setupStart
    const setupPort = snapshot(portStats)

    // ---- transfers -----------------------------------------------------------------------------
    portStats.clear()
    httpStats.clear()
    resetDbStats()
    const probeSamples: Array<number> = []
    const probe = yield* Effect.fork(dbProbe(probeSamples))
    const elu0 = performance.eventLoopUtilization()
    const wallStart = performance.now()
    const results = yield* Effect.forEach(customers, transferOnce, { concurrency: CONCURRENCY })
    const wallMs = performance.now() - wallStart
    const elu = performance.eventLoopUtilization(elu0)
    yield* Fiber.interrupt(probe)
    const transferPort = snapshot(portStats)
    const transferHttp = snapshot(httpStats)
    const transferDb = structuredClone(dbStats)
    const topShapes = [...dbShapes].sort((a, b) => b[1].totalMs - a[1].totalMs).slice(0, 4)

    // ---- final state -----------------------------------------------------------------------------
    const repo = yield* TransferRepo
    const finalStatuses = yield* Effect.forEach(results, (r) =>
      r.transferId === undefined
        ? Effect.succeed("(no transfer row)")
        : Effect.map(repo.findById(r.transferId), Option.match({ onNone: () => "(missing)", onSome: (t) => t.status })), {
      concurrency: 8
    })
    const books = yield* conservation

    // ---- report ----------------------------------------------------------------------------------
    const latencies = results.map((r) => r.ms).sort((a, b) => a - b)
    const portCalls = [...transferPort.values()].reduce((n, s) => n + s.calls, 0)
    const httpCalls = [...transferHttp.values()].reduce((n, s) => n + s.calls, 0)
    const callsPerTransfer = portCalls / N
    const throughput = N / (wallMs / 1000)
    const perTransferProviderSeconds = callsPerTransfer * (LATENCY_MS / 1000)
    const permitBound = perTransferProviderSeconds > 0 ? PERMITS / perTransferProviderSeconds : Infinity
    const concurrencyBound = perTransferProviderSeconds > 0 ? CONCURRENCY / perTransferProviderSeconds : Infinity
    const bound = Math.min(permitBound, concurrencyBound)
    const statusCounts = countBy(finalStatuses)
    const outcomeCounts = countBy(results.map((r) => r.outcome))
    const allConfirmed = (statusCounts["confirmed"] ?? 0) === N
    const probeSorted = [...probeSamples].sort((a, b) => a - b)
    const setupCalls = [...setupPort.values()].reduce((n, s) => n + s.calls, 0)

    const lines: Array<string> = []
    lines.push("== bench:transfers ==")
    lines.push(`database               ${database}; sandbox in-process via HttpCoreBanking (undici), ${PERMITS} permits`)
    lines.push(`N                      ${N}`)
    lines.push(`latency                ${LATENCY_MS} ms per provider call`)
    lines.push(`concurrency            ${CONCURRENCY} transfers in flight (setup: ${SETUP_CONCURRENCY})`)
    lines.push(`boot (layers)          ${secs(bootMs)}`)
    lines.push(`setup                  ${secs(setupMs)} (${N} customers, ${setupCalls} provider calls; not in the results)`)
    lines.push(`provider calls/transfer ${callsPerTransfer.toFixed(2)} (port calls ${portCalls}, HTTP requests ${httpCalls}; nipSessionId from setup, so no name enquiry per transfer)`)
    lines.push(
      `  by operation         ${
        [...transferPort].map(([op, s]) => `${op} ${(s.calls / N).toFixed(2)}`).join(", ")
      }`
    )
    lines.push(`wall time              ${secs(wallMs)}`)
    lines.push(`throughput             ${throughput.toFixed(1)} transfers/s`)
    lines.push(
      `latency p50/p90/p99    ${latencies.length === 0 ? "n/a" : [50, 90, 99].map((p) => percentile(latencies, p).toFixed(0)).join(" / ")} ms (max ${
        (latencies.at(-1) ?? 0).toFixed(0)
      })`
    )
    lines.push(`call outcomes          ${JSON.stringify(outcomeCounts)}`)
    lines.push(`final statuses         ${JSON.stringify(statusCounts)} ${allConfirmed ? "(all confirmed)" : "(NOT all confirmed)"}`)
    lines.push(`conservation           ${books.ok ? "ok" : "FAILED"} ${JSON.stringify(books.ledger)}${books.problems.length > 0 ? ` problems: ${books.problems.join("; ")}` : ""}`)
    if (Number.isFinite(bound)) {
      lines.push(
        `bound                  min(${PERMITS} permits, ${CONCURRENCY} in flight) / (${callsPerTransfer.toFixed(2)} calls × ${LATENCY_MS} ms) = min(${
          permitBound.toFixed(1)
        }, ${concurrencyBound.toFixed(1)}) = ${bound.toFixed(1)} transfers/s`
      )
      lines.push(`measured / bound       ${(throughput / bound).toFixed(2)}`)
    } else {
      lines.push("bound                  none at 0 ms latency (measured/bound n/a)")
    }
    lines.push("-- diagnostics (transfer phase) --")
    lines.push(`event loop utilisation ${(elu.utilization * 100).toFixed(0)}%`)
    lines.push(
      `db probe (SELECT 1)    p50 ${ms(percentile(probeSorted, 50))}, p90 ${ms(percentile(probeSorted, 90))}, p99 ${ms(percentile(probeSorted, 99))} (${probeSorted.length} samples)`
    )
    if (Option.isNone(config.databaseUrl)) {
      const all = transferDb.service.ms + transferDb.sandbox.ms + transferDb.control.ms
      const n = transferDb.service.n + transferDb.sandbox.n + transferDb.control.n
      lines.push(
        `PGlite statements      ${(n / N).toFixed(1)}/transfer, ${ms(all / N)}/transfer on the main thread (service ${
          (transferDb.service.n / N).toFixed(1)
        } = ${ms(transferDb.service.ms / N)}, sandbox ${(transferDb.sandbox.n / N).toFixed(1)} = ${ms(transferDb.sandbox.ms / N)}, BEGIN/COMMIT ${
          (transferDb.control.n / N).toFixed(1)
        } = ${ms(transferDb.control.ms / N)}); ${(all / wallMs * 100).toFixed(0)}% of wall time`
      )
      for (const [shape, s] of topShapes) {
        lines.push(`  ${ms(s.totalMs / N).padStart(9)}/transfer  ${(s.calls / N).toFixed(1)}× ${ms(s.totalMs / s.calls)} each  ${shape}`)
      }
    }
    lines.push("per operation          calls/transfer  port call (permit wait + HTTP)  HTTP round trip (incl. latency)")
    for (const [op, s] of transferPort) {
      const h = transferHttp.get(op)
      lines.push(
        `  ${op.padEnd(20)} ${(s.calls / N).toFixed(2).padStart(6)}          ${ms(s.totalMs / s.calls).padStart(10)}                  ${
          h === undefined ? "n/a" : ms(h.totalMs / h.calls).padStart(10)
        }`
      )
    }
    const portMs = [...transferPort.values()].reduce((n, s) => n + s.totalMs, 0)
    const httpMs = [...transferHttp.values()].reduce((n, s) => n + s.totalMs, 0)
    const meanLatency = latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length)
    lines.push(
      `per transfer (mean)    ${ms(meanLatency)} in all = ${ms(portMs / N)} in provider calls (of which ${ms((portMs - httpMs) / N)} waiting for a permit, ${
        ms(httpMs / N)
      } HTTP) + ${ms(meanLatency - portMs / N)} in our code and database`
    )
    console.log(lines.join("\n"))
    return allConfirmed && books.ok
  })

const bootStart = performance.now()
Effect.runPromiseExit(
  Effect.suspend(() => program(bootStart)).pipe(
    Effect.provide(MainLive),
    Effect.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
).then((exit) => {
  if (Exit.isFailure(exit)) {
    console.error(Cause.pretty(exit.cause))
    process.exit(1)
  }
  process.exit(exit.value ? 0 : 1)
})
