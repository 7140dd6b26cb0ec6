/**
 * `npm run bench:firststart [-- --runs 3] [--skip-prepare] [--keep] [--commit <rev>,…]`: what a
 * newcomer waits for on a fresh clone. Per run: `git clone` of this repository's current commit
 * (HEAD, uncommitted changes are not in it; `--commit a,b` runs each of these in turn, for a
 * before/after on a shared machine) into a temporary directory, `npm ci` (timed on its own; `--skip-prepare` sets KOBO_SKIP_PREPARE=1, so the root
 * `prepare` builds nothing and `npm start` takes the lazy path; not `npm ci --ignore-scripts`, which
 * also skips argon2's install and leaves a binding that crashes node on this machine), then
 * `npm start` with a free PORT, a temporary DATA_DIR and METRICS_PORT=0, timed from the spawn until
 * GET /health answers 200 (the first start); then until GET /admin/ answers 200 (the console
 * served); SIGTERM to the start's process group; then a second `npm start` on the same DATA_DIR,
 * timed the same way (the restart). Prints each run with the CPU time `npm start`'s processes had
 * used when it answered and the 1-minute load average at each step (other people's work on a shared
 * machine shows there), then the medians. Exits 1 when the median
 * first start is over 10 s or the median restart over 3 s (issue 40).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { argValue, freeLoopbackPort, intArg } from "./support.js"

const ROOT = fileURLToPath(new URL("..", import.meta.url))
const FIRST_START_BOUND_MS = 10_000
const RESTART_BOUND_MS = 3_000
const POLL_MS = 50

const RUNS = intArg("runs", 1, 1)
const SKIP_PREPARE = process.argv.includes("--skip-prepare")
const KEEP = process.argv.includes("--keep")

const load = () => os.loadavg()[0]!.toFixed(2)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

const answers = async (url: string) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).status === 200
  } catch {
    return false
  }
}

/** Runs a command to its end, its output appended to `log`; milliseconds it took. */
const timed = (command: string, args: ReadonlyArray<string>, cwd: string, log: string, env: NodeJS.ProcessEnv) =>
  new Promise<number>((resolve, reject) => {
    const started = performance.now()
    const out = fs.openSync(log, "a")
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", out, out] })
    child.on("error", reject).on("exit", (code) => {
      fs.closeSync(out)
      if (code === 0) resolve(performance.now() - started)
      else reject(new Error(`${command} ${args.join(" ")} exited ${code}; see ${log}`))
    })
  })

/** `npm start` in its own process group (npm, its shell and node), output appended to `log`. */
const npmStart = (repo: string, env: NodeJS.ProcessEnv, log: string) => {
  const out = fs.openSync(log, "a")
  const child = spawn("npm", ["start"], { cwd: repo, env, detached: true, stdio: ["ignore", out, out] })
  fs.closeSync(out)
  return child
}

/**
 * CPU time (user + system, with their waited-for children's) of the processes in a process group,
 * ms: Linux's /proc (clock ticks of 10 ms); a child that outlived its parent is counted while it runs.
 */
const groupCpuMs = (group: number): number => {
  let ticks = 0
  for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
      if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10
}

/** Polls `url` until it answers 200; milliseconds since `since`. */
const until200 = async (url: string, since: number, child: ChildProcess | undefined, limitMs: number, log: string) => {
  for (;;) {
    if (await answers(url)) return performance.now() - since
    if (child !== undefined && child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}; see ${log}`)
    if (performance.now() - since > limitMs) throw new Error(`${url}: no 200 after ${seconds(limitMs)}; see ${log}`)
    await sleep(POLL_MS)
  }
}

/** SIGTERM to the process group, SIGKILL after 10 s. */
const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const group = -child.pid!
    const timer = setTimeout(() => process.kill(group, "SIGKILL"), 10_000)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    process.kill(group, "SIGTERM")
  })

/** Background builds of the clone (the console's `dist.partial-<pid>`) still running: stopped, by their pid. */
const stopLeftovers = (repo: string) => {
  const consoleDir = path.join(repo, "packages/console")
  for (const name of fs.existsSync(consoleDir) ? fs.readdirSync(consoleDir) : []) {
    const pid = Number(/^dist\.partial-(\d+)$/.exec(name)?.[1])
    if (pid > 0) {
      try {
        process.kill(pid, "SIGTERM")
      } catch {
        // gone already
      }
    }
  }
}

interface Run {
  readonly commit: string
  readonly npmCiMs: number
  readonly firstStartMs: number
  readonly firstStartCpuMs: number
  readonly consoleMs: number
  readonly restartMs: number
  readonly restartCpuMs: number
  readonly loads: string
}

const runOnce = async (commit: string, i: number): Promise<Run> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kobo-firststart-"))
  const repo = path.join(dir, "repo")
  const log = path.join(dir, "log.txt")
  const loads: Array<string> = []
  try {
    execFileSync("git", ["clone", "--quiet", "--no-checkout", ROOT, repo])
    execFileSync("git", ["-C", repo, "checkout", "--quiet", "--detach", commit])
    loads.push(`clone ${load()}`)
    const npmCiMs = await timed(
      "npm",
      ["ci", "--no-audit", "--no-fund", "--prefer-offline"],
      repo,
      log,
      { ...process.env, ...(SKIP_PREPARE ? { KOBO_SKIP_PREPARE: "1" } : {}) }
    )
    const port = await freeLoopbackPort()
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: path.join(dir, "data"), METRICS_PORT: "0" }
    for (const name of Object.keys(env)) if (name.startsWith("npm_")) delete env[name]
    const base = `http://127.0.0.1:${port}`

    loads.push(`first start ${load()}`)
    let started = performance.now()
    let child = npmStart(repo, env, log)
    const firstStartMs = await until200(`${base}/health`, started, child, 300_000, log)
    const firstStartCpuMs = groupCpuMs(child.pid!)
    const consoleMs = await until200(`${base}/admin/`, started, child, 300_000, log)
    await stop(child)

    loads.push(`restart ${load()}`)
    started = performance.now()
    child = npmStart(repo, env, log)
    const restartMs = await until200(`${base}/health`, started, child, 120_000, log)
    const restartCpuMs = groupCpuMs(child.pid!)
    await stop(child)
    return { commit, npmCiMs, firstStartMs, firstStartCpuMs, consoleMs, restartMs, restartCpuMs, loads: loads.join(", ") }
  } catch (error) {
    console.error(`run ${i}: ${error instanceof Error ? error.message : String(error)}`)
    throw error
  } finally {
    stopLeftovers(repo)
    if (KEEP) console.log(`run ${i}: kept ${dir}`)
    else fs.rmSync(dir, { recursive: true, force: true })
  }
}

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length % 2 === 1
    ? sorted[(sorted.length - 1) / 2]!
    : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2
}

const rev = (name: string) => execFileSync("git", ["-C", ROOT, "rev-parse", "--short", name], { encoding: "utf8" }).trim()
const commits = (argValue("commit")?.split(",") ?? ["HEAD"]).map(rev)
console.log(
  `fresh clone of ${commits.join(", ")}: npm ci${SKIP_PREPARE ? " (KOBO_SKIP_PREPARE=1)" : ""}, first npm start, restart; ` +
    `${RUNS} run(s)${commits.length > 1 ? " of each, in turns" : ""}, ${os.cpus().length} CPUs, node ${process.version}`
)
const runs: Array<Run> = []
for (let i = 1; i <= RUNS; i++) {
  for (const commit of commits) {
    const run = await runOnce(commit, i)
    runs.push(run)
    console.log(
      `${commit} run ${i}: npm ci ${seconds(run.npmCiMs)}, first start ${seconds(run.firstStartMs)} (CPU ${seconds(run.firstStartCpuMs)}; ` +
        `/admin/ at ${seconds(run.consoleMs)}), restart ${seconds(run.restartMs)} (CPU ${seconds(run.restartCpuMs)}) (load at: ${run.loads})`
    )
  }
}
let ok = true
for (const commit of commits) {
  const mine = runs.filter((r) => r.commit === commit)
  const first = median(mine.map((r) => r.firstStartMs))
  const restart = median(mine.map((r) => r.restartMs))
  console.log(
    `${commit} median: npm ci ${seconds(median(mine.map((r) => r.npmCiMs)))}, first start ${seconds(first)} ` +
      `(CPU ${seconds(median(mine.map((r) => r.firstStartCpuMs)))}; bound ${seconds(FIRST_START_BOUND_MS)}), ` +
      `/admin/ at ${seconds(median(mine.map((r) => r.consoleMs)))}, restart ${seconds(restart)} ` +
      `(CPU ${seconds(median(mine.map((r) => r.restartCpuMs)))}; bound ${seconds(RESTART_BOUND_MS)})`
  )
  ok &&= first <= FIRST_START_BOUND_MS && restart <= RESTART_BOUND_MS
}
process.exitCode = ok ? 0 : 1
