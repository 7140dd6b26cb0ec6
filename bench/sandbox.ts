/**
 * The sandbox bank on its own, as a process, under the saga's call mix:
 *
 *   npm run bench:sandbox -- --accounts 10000 --movements 4000 --concurrency 32
 *
 * Options: --accounts (10000) accounts opened and funded; --movements (4000) money movements, each the
 * saga's ~8 provider calls (deactivate PND, account details, place lien, debit, name enquiry,
 * transfer, remove lien, activate PND); --concurrency (32) calls (setup) or movements in flight;
 * --runner auto|tsx|build: `node build/sandbox.mjs` when that compiled build exists and is newer than
 * every source of packages/sandbox/src (auto), else `node --import tsx packages/sandbox/src/main.ts`;
 * --max-cpu-ms (0.5) and --max-rss-mib (300), the bounds; --cpu-prof DIR: the bank (its first run)
 * writes a V8 CPU profile into DIR when it stops (for Chrome DevTools).
 *
 * The bank runs with a temporary SANDBOX_DATA_DIR (its journal), SANDBOX_LATENCY_MS=0 and no
 * webhook. CPU is the child's utime + stime from /proc/<pid>/stat (clock ticks of 10 ms) around each
 * phase, divided by the calls of that phase; peak RSS is the child's VmHWM (/proc/<pid>/status).
 * After the movements the books are read over HTTP (GET /sandbox/ledger: customers + settlement +
 * paidOut = deposits, and the expected deposits and paid-out totals; GET /sandbox/conservation, the
 * full check, when the bank has it). Then the bank is stopped (SIGTERM) and started again on the
 * same directory: the time until it answers is the replay of its journal (compared with the start-up
 * of the empty bank), and its books must be what they were.
 *
 * Exit 1 when CPU per call (movements) > --max-cpu-ms, peak RSS > --max-rss-mib, a call answered
 * something unexpected, or the books do not balance (before or after the restart).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import * as http from "node:http"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { argValue, freeLoopbackPort, processCpuMs } from "./support.js"

// ---------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------


const numArg = (name: string, fallback: number, min: number, integer = true): number => {
  const raw = argValue(name)
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min) {
    console.error(`--${name}: expected ${integer ? "an integer" : "a number"} ≥ ${min}, got ${JSON.stringify(raw)}`)
    process.exit(2)
  }
  return n
}

const ACCOUNTS = numArg("accounts", 10_000, 1)
const MOVEMENTS = numArg("movements", 4_000, 1)
const CONCURRENCY = numArg("concurrency", 32, 1)
const MAX_CPU_MS = numArg("max-cpu-ms", 0.5, 0, false)
const MAX_RSS_MIB = numArg("max-rss-mib", 300, 1)
const CPU_PROF = argValue("cpu-prof")
const RUNNER = argValue("runner") ?? "auto"
if (!["auto", "tsx", "build"].includes(RUNNER)) {
  console.error(`--runner: expected auto, tsx or build, got ${JSON.stringify(RUNNER)}`)
  process.exit(2)
}

const TOKEN = "bench-sandbox-token"
const DEPOSIT_KOBO = 1_000_000
const AMOUNT_KOBO = 10_000
const DESTINATION = { accountNumber: "0123450001", bankCode: "000013" } as const

const ROOT = fileURLToPath(new URL("..", import.meta.url))
const SOURCE_MAIN = path.join(ROOT, "packages/sandbox/src/main.ts")
const BUILD_MAIN = path.join(ROOT, "build/sandbox.mjs")

/** The build is used only when it was made after the last change of the sandbox's sources. */
const buildIsFresh = (): boolean => {
  if (!existsSync(BUILD_MAIN)) return false
  const built = statSync(BUILD_MAIN).mtimeMs
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
      const full = path.join(dir, entry.name)
      return Math.max(max, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs)
    }, 0)
  return built >= newest(path.join(ROOT, "packages/sandbox/src"))
}

const useBuild = RUNNER === "build" || (RUNNER === "auto" && buildIsFresh())
if (useBuild && !existsSync(BUILD_MAIN)) {
  console.error(`--runner build: ${BUILD_MAIN} does not exist`)
  process.exit(2)
}
const COMMAND = useBuild ? [BUILD_MAIN] : ["--import", "tsx", SOURCE_MAIN]

// ---------------------------------------------------------------------------------------------
// The bank process
// ---------------------------------------------------------------------------------------------

/** CPU time (user + system) of the bank process, ms (support.ts `processCpuMs`). */
const cpuMs = (pid: number): number => processCpuMs(pid) ?? NaN

const statusKiB = (pid: number, field: "VmHWM" | "VmRSS"): number => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return match === null ? NaN : Number(match[1])
}

interface Bank {
  readonly child: ChildProcess
  readonly pid: number
  readonly output: Array<string>
  /** from spawn until it answered GET /banks */
  readonly readyMs: number
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null
const children = new Set<ChildProcess>()
process.on("exit", () => {
  for (const child of children) if (running(child)) child.kill("SIGKILL")
})

let agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
let port = 0

const startBank = async (dataDir: string, profile = false): Promise<Bank> => {
  const started = performance.now()
  const flags = profile && CPU_PROF !== undefined ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(CPU_PROF)}`] : []
  const child = spawn(process.execPath, [...flags, ...COMMAND], {
    cwd: ROOT,
    env: {
      ...process.env,
      SANDBOX_PORT: String(port),
      SANDBOX_DATA_DIR: dataDir,
      SANDBOX_LATENCY_MS: "0",
      SANDBOX_WEBHOOK_URL: "none",
      CORE_BANKING_TOKEN: TOKEN
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.add(child)
  const output: Array<string> = []
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8")
    stream?.on("data", (chunk: string) => {
      for (const line of chunk.split("\n")) {
        if (line.trim() === "") continue
        output.push(line)
        if (output.length > 100) output.shift()
      }
    })
  }
  const deadline = Date.now() + 120_000
  for (;;) {
    if (!running(child)) throw new Error(`the bank exited during start-up:\n${output.join("\n")}`)
    if (Date.now() > deadline) throw new Error(`the bank did not answer within 120 s:\n${output.join("\n")}`)
    const answered = await call("GET", "/banks").then((r) => r.status === 200, () => false)
    if (answered) break
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return { child, pid: child.pid!, output, readyMs: performance.now() - started }
}

const stopBank = async (bank: Bank) => {
  agent.destroy()
  agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  if (!running(bank.child)) return
  const exited = once(bank.child, "exit")
  bank.child.kill("SIGTERM")
  const timer = setTimeout(() => bank.child.kill("SIGKILL"), 15_000)
  await exited
  clearTimeout(timer)
  children.delete(bank.child)
  if (bank.child.exitCode !== 0) throw new Error(`the bank exited with ${bank.child.exitCode ?? bank.child.signalCode}:\n${bank.output.join("\n")}`)
}

// ---------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------

interface Reply {
  readonly status: number
  readonly body: any
}

let calls = 0

const call = (method: "GET" | "POST", pathname: string, body?: unknown) =>
  new Promise<Reply>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const request = http.request({
      agent,
      host: "127.0.0.1",
      port,
      method,
      path: pathname,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(payload === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) })
      }
    }, (response) => {
      let text = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (text += chunk))
      response.on("end", () => {
        calls++
        try {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) })
        } catch {
          resolve({ status: response.statusCode ?? 0, body: text })
        }
      })
      response.on("error", reject)
    })
    request.on("error", reject)
    request.end(payload)
  })

const problems: Array<string> = []

/** The call must answer HTTP 200 with this response code; returns `data`. */
const expectCode = async (what: string, reply: Promise<Reply>, code = "00"): Promise<any> => {
  const r = await reply
  if (r.status !== 200 || r.body?.responseCode !== code) {
    if (problems.length < 20) problems.push(`${what}: HTTP ${r.status} ${JSON.stringify(r.body)} (expected ${code})`)
    else if (problems.length === 20) problems.push("… (more)")
  }
  return r.body?.data
}

/** Runs `work(i)` for i in [0, n) with at most `concurrency` in flight. */
const pool = async (n: number, concurrency: number, work: (i: number) => Promise<void>) => {
  let next = 0
  const worker = async () => {
    while (next < n) await work(next++)
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker))
}

const tag = Date.now().toString(36).slice(-5).toUpperCase()
/** 12 characters at most: a letter, the run tag (5), the index (6). */
const reference = (prefix: string, i: number) => `${prefix}${tag}${String(i).padStart(6, "0")}`

// ---------------------------------------------------------------------------------------------
// Phases
// ---------------------------------------------------------------------------------------------

interface Phase {
  readonly name: string
  readonly calls: number
  readonly wallMs: number
  readonly cpuMs: number
}

const phase = async (name: string, pid: number, run: () => Promise<void>): Promise<Phase> => {
  const calls0 = calls
  const cpu0 = cpuMs(pid)
  const t0 = performance.now()
  await run()
  const wallMs = performance.now() - t0
  return { name, calls: calls - calls0, wallMs, cpuMs: cpuMs(pid) - cpu0 }
}

const line = (p: Phase) =>
  `${p.name.padEnd(22)} ${String(p.calls).padStart(7)} calls in ${(p.wallMs / 1000).toFixed(2)} s = ${
    (p.calls / (p.wallMs / 1000)).toFixed(0)
  } calls/s; bank CPU ${(p.cpuMs / 1000).toFixed(2)} s = ${(p.cpuMs / p.calls).toFixed(3)} ms/call (${
    (p.cpuMs / p.wallMs * 100).toFixed(0)
  }% of a core)`

interface Totals {
  readonly customerBalances: number
  readonly settlement: number
  readonly paidOut: number
  readonly deposits: number
}

/** The books over HTTP: balanced and as expected; the full check when the bank has it. */
const books = async (when: string): Promise<Totals> => {
  const totals: Totals = await expectCode("GET /sandbox/ledger", call("GET", "/sandbox/ledger"))
  if (totals.customerBalances + totals.settlement + totals.paidOut !== totals.deposits) {
    problems.push(`${when}: the books do not balance: ${JSON.stringify(totals)}`)
  }
  if (totals.deposits !== ACCOUNTS * DEPOSIT_KOBO) problems.push(`${when}: deposits ${totals.deposits}, expected ${ACCOUNTS * DEPOSIT_KOBO}`)
  if (totals.paidOut !== MOVEMENTS * AMOUNT_KOBO) problems.push(`${when}: paid out ${totals.paidOut}, expected ${MOVEMENTS * AMOUNT_KOBO}`)
  const full = await call("GET", "/sandbox/conservation")
  if (full.status === 200) {
    const check = full.body?.data
    if (check?.ok !== true) problems.push(`${when}: conservation: ${JSON.stringify(check?.problems)}`)
    if (check?.transfersOut !== MOVEMENTS) problems.push(`${when}: ${check?.transfersOut} transfers out, expected ${MOVEMENTS}`)
  }
  return totals
}

const main = async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-sandbox-"))
  port = await freeLoopbackPort()
  const results: Array<Phase> = []
  try {
    console.log(
      `bench:sandbox  ${ACCOUNTS} accounts, ${MOVEMENTS} movements, concurrency ${CONCURRENCY}; bank: node ${
        COMMAND.map((c) => path.relative(ROOT, c) || c).join(" ")
      }`
    )
    const bank = await startBank(dataDir, true)
    const accounts: Array<string> = new Array(ACCOUNTS)

    results.push(
      await phase("open accounts", bank.pid, () =>
        pool(ACCOUNTS, CONCURRENCY, async (i) => {
          const data = await expectCode("open account", call("POST", "/accounts", {
            customerReference: reference("C", i),
            firstName: "Ada",
            lastName: `Obi${i}`,
            otherNames: null,
            phone: "08030000000",
            email: `ada${i}@example.com`,
            dateOfBirth: "1990-01-01",
            gender: "female"
          }))
          accounts[i] = data?.accountNumber
        }))
    )
    results.push(
      await phase("deposits", bank.pid, () =>
        pool(ACCOUNTS, CONCURRENCY, (i) =>
          expectCode("deposit", call("POST", "/sandbox/deposits", { accountNumber: accounts[i], amountKobo: DEPOSIT_KOBO }))))
    )
    const movements = await phase("movements (8 calls)", bank.pid, () =>
      pool(MOVEMENTS, CONCURRENCY, async (i) => {
        const accountNumber = accounts[i % ACCOUNTS]!
        const at = `/accounts/${accountNumber}`
        const lien = reference("L", i)
        await expectCode("deactivate PND", call("POST", `${at}/pnd/deactivate`))
        await expectCode("account details", call("GET", at))
        await expectCode("place lien", call("POST", `${at}/liens`, { reference: lien, amount: AMOUNT_KOBO, reason: "transfer" }))
        await expectCode("debit", call("POST", "/transactions/debit", {
          accountNumber,
          amount: AMOUNT_KOBO,
          retrievalReference: reference("D", i),
          narration: "transfer"
        }))
        const enquiry = await expectCode(
          "name enquiry",
          call("GET", `/nip/name-enquiry?accountNumber=${DESTINATION.accountNumber}&bankCode=${DESTINATION.bankCode}`)
        )
        await expectCode("transfer", call("POST", "/nip/transfers", {
          transactionReference: reference("T", i),
          amount: AMOUNT_KOBO,
          destinationAccountNumber: DESTINATION.accountNumber,
          destinationBankCode: DESTINATION.bankCode,
          destinationAccountName: enquiry?.accountName ?? "",
          nameEnquirySessionId: enquiry?.sessionId ?? "",
          narration: "transfer"
        }))
        await expectCode("remove lien", call("POST", `${at}/liens/${lien}/remove`))
        await expectCode("activate PND", call("POST", `${at}/pnd/activate`))
      }))
    results.push(movements)
    const before = await books("before the restart")
    const rssMiB = statusKiB(bank.pid, "VmHWM") / 1024
    const rssNowMiB = statusKiB(bank.pid, "VmRSS") / 1024
    const journal = path.join(dataDir, "sandbox-bank.jsonl")
    const journalMiB = existsSync(journal) ? statSync(journal).size / 1024 / 1024 : NaN
    await stopBank(bank)

    // restart on the same directory: the journal is replayed before the bank answers
    const restarted = await startBank(dataDir)
    const after = await books("after the restart")
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      problems.push(`the restart changed the books: ${JSON.stringify(before)} → ${JSON.stringify(after)}`)
    }
    const restartRssMiB = statusKiB(restarted.pid, "VmHWM") / 1024
    // the bank's own account of the replay, from its start-up log
    const replayed = restarted.output.map((l) => /(\d+ events replayed) from .* in (\d+ ms)/.exec(l)).find((m) => m !== null)
      ?.slice(1).join(" in ")
    await stopBank(restarted)


    const cpuPerCall = movements.cpuMs / movements.calls
    console.log(results.map(line).join("\n"))
    console.log(
      [
        `movements              ${(MOVEMENTS / (movements.wallMs / 1000)).toFixed(0)} movements/s, ${(movements.calls / MOVEMENTS).toFixed(1)} calls each`,
        `bank CPU per call      ${cpuPerCall.toFixed(3)} ms (movements; bound ${MAX_CPU_MS} ms)`,
        `bank peak RSS          ${rssMiB.toFixed(0)} MiB (VmHWM; now ${rssNowMiB.toFixed(0)} MiB; bound ${MAX_RSS_MIB} MiB)`,
        `journal                ${journalMiB.toFixed(1)} MiB`,
        `restart                answers ${restarted.readyMs.toFixed(0)} ms after spawn with the journal replayed (${
          bank.readyMs.toFixed(0)
        } ms when it started empty); the replay itself: ${replayed ?? "(not reported)"}; peak RSS after replay ${
          restartRssMiB.toFixed(0)
        } MiB`,
        `books                  ${JSON.stringify(before)}`
      ].join("\n")
    )
    if (cpuPerCall > MAX_CPU_MS) problems.push(`bank CPU per call ${cpuPerCall.toFixed(3)} ms > ${MAX_CPU_MS} ms`)
    if (rssMiB > MAX_RSS_MIB) problems.push(`bank peak RSS ${rssMiB.toFixed(0)} MiB > ${MAX_RSS_MIB} MiB`)
  } finally {
    agent.destroy()
    for (const child of children) if (running(child)) child.kill("SIGKILL")
    rmSync(dataDir, { recursive: true, force: true })
  }
  if (problems.length > 0) {
    console.log(`FAILED:\n  ${problems.join("\n  ")}`)
    process.exit(1)
  }
  console.log("ok")
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
