/**
 * Throughput benchmark of manual transfers (the saga of Transfers.ts), in one process:
 *
 *   npm run bench:transfers -- --n 2000 --latency 20 --concurrency 32
 *   npm run bench:transfers -- --dialect bankone   (adapter and sandbox in BankOne's dialect)
 *   (also --setup-concurrency, default 64, and --permits: the adapter's maxConcurrency, default 16)
 *
 * The real layers: the SQL repositories (`adaptersLayer`) on PGlite (or, with DATABASE_URL, a fresh
 * database created on that server and dropped at the end unless --keep-db),
 * the sandbox bank on a loopback port with its bank in memory (as `CoreBankingLive` starts it, with
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
 * by a wrapper around the CoreBanking port (and HTTP requests by a wrapper around the adapter's HTTP sender,
 * which also sees the adapter's retries). Exit 1 unless every transfer is confirmed and the
 * sandbox's books balance.
 */
import { AppConfig, adaptersLayer, loadAppConfig } from "@app/adapters"
import * as HttpCoreBanking from "@app/adapters/corebanking/HttpCoreBanking"
import { AccountId, CoreBanking, PasswordHasher, TransactionId, TransferRepo, Transfers } from "@app/domain"
import { conservation, SandboxBankInMemory, SandboxServer, sandboxServerLayer } from "@app/sandbox"
import { Cause, Duration, Effect, Exit, Fiber, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { performance } from "node:perf_hooks"
import {
  benchConfigLayer,
  countBy,
  dbProbe,
  dbShapes,
  dbStats,
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

// the service's heap policy, as runService sets it in `npm start` (packages/adapters/src/HeapTuning.ts)
tuneHeap()

// ---------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------

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

// Diagnostic only: every statement PGlite runs (ours and the sandbox's share the one instance).
installPgliteStatementStats()
installPgStatementStats()

// ---------------------------------------------------------------------------------------------
// Layers
// ---------------------------------------------------------------------------------------------

/**
 * With DATABASE_URL: a fresh database `bench_transfers_<tag>_<pid>` on that server, dropped at the
 * end (unless --keep-db): the setup inserts customers with fixed emails and phones, which a second
 * run in the same database would find taken.
 */
const KEEP_DB = process.argv.includes("--keep-db")
const serverUrl = Option.map((await Effect.runPromise(loadAppConfig)).databaseUrl, Redacted.value)
const freshDatabase = Option.isSome(serverUrl) ? await createFreshDatabase(serverUrl.value, "bench_transfers") : undefined
const dropFreshDatabase = async () => {
  if (freshDatabase === undefined || Option.isNone(serverUrl)) return
  if (KEEP_DB) console.log(`kept the database ${freshDatabase.name}`)
  else await dropDatabase(serverUrl.value, freshDatabase.name).catch((e) => console.error("could not drop the database", e))
}

// stopped by hand (Ctrl-C): the fresh database goes too
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void dropFreshDatabase().finally(() => process.exit(signal === "SIGINT" ? 130 : 143)))
}

const ConfigLive = benchConfigLayer({
  sandboxLatencyMs: LATENCY_MS,
  ...(freshDatabase === undefined ? {} : { databaseUrl: Option.some(Redacted.make(freshDatabase.url)) })
})

/** The in-process sandbox bank (its bank in memory, exposed for `conservation`), no webhook. */
const SandboxLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    sandboxServerLayer({
      port: 0,
      token: Redacted.value(config.coreBankingToken),
      latencyMs: config.sandboxLatencyMs,
      slowTransferDelayMs: config.coreBankingTimeoutMs + 1_000,
      webhook: Option.none(),
      ...sandboxDialectOptions(config)
    }))
).pipe(Layer.provideMerge(SandboxBankInMemory))

/** The real HTTP adapter towards the sandbox, its port services instrumented, with the domain caches. */
const ProviderLive = instrumentedProviderLayer(Effect.map(SandboxServer, (sandbox) => sandbox.baseUrl), PERMITS)

const MainLive = ProviderLive.pipe(
  Layer.provideMerge(SandboxLive),
  Layer.provideMerge(adaptersLayer(SqlLive)),
  Layer.provideMerge(ConfigLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

// ---------------------------------------------------------------------------------------------
// Setup: N funded customers with a bank account
// ---------------------------------------------------------------------------------------------

interface BenchCustomer {
  readonly accountId: AccountId
  readonly destinationAccountName: string
  readonly nipSessionId: string
}

const makeCustomer = (i: number, passwordHash: string) =>
  Effect.gen(function*() {
    const { accountId } = yield* makeFundedCustomer(i, passwordHash, DEPOSIT_KOBO)
    const core = yield* CoreBanking
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
    // as the HTTP server runs it: spans off when nothing receives them (ops/UnreceivedSpans.ts)
    withUnreceivedSpansOff,
    Effect.exit,
    Effect.timed,
    Effect.map(([duration, exit]): TransferResult => {
      const elapsed = Duration.toMillis(duration)
      if (Exit.isSuccess(exit)) return { ms: elapsed, outcome: exit.value.status, transferId: exit.value.id }
      const failure = Cause.failureOption(exit.cause)
      if (Option.isSome(failure)) {
        const e = failure.value as { _tag?: string; transactionId?: TransactionId }
        return { ms: elapsed, outcome: e._tag ?? "failure", transferId: e.transactionId }
      }
      return { ms: elapsed, outcome: `defect: ${Cause.pretty(exit.cause).split("\n")[0]}`, transferId: undefined }
    })
  )

const program = (bootStart: number) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const bootMs = performance.now() - bootStart
    const database = freshDatabase !== undefined ? `PostgreSQL (DATABASE_URL's server, fresh database ${freshDatabase.name})` : pgliteDescription

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
    lines.push(`database               ${database}; sandbox in-process via ${DIALECT === "bankone" ? "the BankOne adapter (BankOne's dialect)" : "HttpCoreBanking"} (undici), ${PERMITS} permits`)
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
    {
      const all = transferDb.service.ms + transferDb.sandbox.ms + transferDb.control.ms
      const n = transferDb.service.n + transferDb.sandbox.n + transferDb.control.n
      lines.push(
        `statements             ${(n / N).toFixed(1)}/transfer, ${ms(all / N)}/transfer ${
          Option.isNone(config.databaseUrl) ? "on the main thread" : "round trip"
        } (service ${
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
  return dropFreshDatabase().then(() => {
    if (Exit.isFailure(exit)) {
      console.error(Cause.pretty(exit.cause))
      process.exit(1)
    }
    process.exit(exit.value ? 0 : 1)
  })
})
