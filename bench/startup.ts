/**
 * `npm run bench:startup [-- --runs 3]`: how soon `npm start`'s process answers on an empty data
 * directory. Builds first when the build is missing or stale (scripts/ensure-build.mjs), then per
 * run: a new temporary DATA_DIR, a free PORT, METRICS_PORT=0, `node --enable-source-maps
 * build/start.mjs` (the embedded defaults: PGlite and the in-process sandbox), GET /health every
 * 20 ms until it answers 200. Prints, per run, the first answer in ms after the spawn, the
 * service's own start-up time (its "started in N ms" line: process start to listening) and when
 * its start-up lines arrived; then the median. Exits 1 when the median is 3000 ms or more.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = fileURLToPath(new URL("..", import.meta.url))
const BOUND_MS = 3_000
const POLL_MS = 20

const runsArg = process.argv.indexOf("--runs")
const RUNS = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 3
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error("--runs: expected a positive integer")
  process.exit(2)
}

/** Start-up lines worth a timestamp (when they reached us, ms after the spawn). */
const MILESTONES: ReadonlyArray<readonly [string, RegExp]> = [
  ["database from the template", /from the build's template/],
  ["migrations applied", /migrations applied/],
  ["sandbox listening", /sandbox bank listening/],
  ["API listening", /API listening on/]
]

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
    server.on("error", reject)
  })

/** CPU time (user + system) of a process so far, ms: Linux's /proc (clock ticks of 10 ms); undefined elsewhere. */
const cpuMs = (pid: number | undefined): number | undefined => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return undefined
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const answers = async (url: string) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).status === 200
  } catch {
    return false
  }
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill("SIGTERM")
  })

interface Run {
  readonly firstAnswerMs: number
  /** the service's CPU time until then: on a busy machine, wall time says more about the others */
  readonly cpuMs: number | undefined
  readonly serviceMs: number | undefined
  readonly milestones: ReadonlyArray<readonly [string, number]>
}

const runOnce = async (): Promise<Run> => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kobo-startup-"))
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, ["--enable-source-maps", "build/start.mjs"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), METRICS_PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const milestones: Array<readonly [string, number]> = []
  const onData = (chunk: Buffer) => {
    const at = performance.now() - started
    output += chunk.toString()
    for (const [name, pattern] of MILESTONES) {
      if (!milestones.some(([seen]) => seen === name) && pattern.test(output)) milestones.push([name, at])
    }
  }
  child.stdout!.on("data", onData)
  child.stderr!.on("data", onData)
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output}`)
      if (await answers(`http://127.0.0.1:${port}/health`)) break
      if (performance.now() - started > 120_000) throw new Error(`no answer after 120 s:\n${output}`)
      await sleep(POLL_MS)
    }
    const firstAnswerMs = performance.now() - started
    const cpu = cpuMs(child.pid)
    // the line may follow the answer by a moment
    for (let i = 0; i < 50 && !/started in \d+ ms/.test(output); i++) await sleep(20)
    const serviceMs = /started in (\d+) ms/.exec(output)?.[1]
    return { firstAnswerMs, cpuMs: cpu, serviceMs: serviceMs === undefined ? undefined : Number(serviceMs), milestones }
  } finally {
    await stop(child)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

const built = spawnSync(process.execPath, [path.join(ROOT, "scripts/ensure-build.mjs")], { cwd: ROOT, stdio: "inherit" })
if (built.status !== 0) process.exit(built.status ?? 1)

console.log(`start-up of build/start.mjs on an empty DATA_DIR (PGlite, in-process sandbox), ${RUNS} run(s), ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}`)
const results: Array<number> = []
for (let i = 1; i <= RUNS; i++) {
  const run = await runOnce()
  results.push(run.firstAnswerMs)
  const own = run.serviceMs === undefined ? "" : `; the service says it started in ${run.serviceMs} ms`
  const cpu = run.cpuMs === undefined ? "" : `, ${run.cpuMs} ms of CPU`
  const marks = run.milestones.map(([name, at]) => `${name} ${at.toFixed(0)}`).join(", ")
  console.log(`run ${i}: first answer after ${run.firstAnswerMs.toFixed(0)} ms${own}${cpu} (log lines at: ${marks}; load ${os.loadavg()[0]!.toFixed(1)})`)
}
const sorted = [...results].sort((a, b) => a - b)
const median = sorted.length % 2 === 1
  ? sorted[(sorted.length - 1) / 2]!
  : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2
console.log(`median: first answer after ${median.toFixed(0)} ms (bound ${BOUND_MS} ms): ${median < BOUND_MS ? "ok" : "TOO SLOW"}`)
process.exitCode = median < BOUND_MS ? 0 : 1
