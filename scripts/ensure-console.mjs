#!/usr/bin/env node
/**
 * Builds the admin web console (packages/console) into packages/console/dist when dist is missing
 * or older than any of its sources, so `npm start` on a fresh clone serves /admin. When dist is up
 * to date it only compares modification times (a few milliseconds). `--force` always builds.
 * `npm install` builds it (scripts/prepare.mjs), so `npm start` seldom needs to.
 *
 * `--background` (npm start, start:http, dev): a needed build runs in a detached process at a
 * lower CPU priority and this script returns at once, so the API starts without waiting for it.
 * That process first lets the start finish (`afterTheStart`): the Vite build is ~16 s of CPU (the
 * console bundles `effect` and the API definition through @app/client), and on two cores it
 * delayed a first start's answer by a third. /admin answers 503 until the build is in place. The
 * build goes to a directory of its own and is renamed to dist when complete, so /admin never
 * serves half a build. `ensureConsole` is the same for a script that imports it (scripts/run.mjs).
 */
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { isRunning } from "./processes.mjs"

const root = path.resolve(import.meta.dirname, "..")
const consoleDir = path.join(root, "packages/console")
const built = path.join(consoleDir, "dist/index.html")
const sources = ["src", "public", "index.html", "vite.config.ts", "package.json"].map((p) => path.join(consoleDir, p))
  // the console's API client is derived from the API definition (packages/client over packages/http)
  .concat(["packages/client/src", "packages/http/src", "packages/domain/src"].map((p) => path.join(root, p)))

/** The newest modification time under `p` (a file or a directory tree), 0 when it does not exist. */
const newest = (p) => {
  let stat
  try {
    stat = fs.statSync(p)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  return fs.readdirSync(p).reduce((m, name) => Math.max(m, newest(path.join(p, name))), stat.mtimeMs)
}

/** Whether `dir` holds a work-in-progress marker (`pattern`'s group 1: the pid) of a live process. */
const liveMarker = (dir, pattern) => {
  try {
    return fs.readdirSync(dir).some((name) => isRunning(Number(pattern.exec(name)?.[1])))
  } catch {
    return false
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Waits (a background build, before it starts) until the start that launched it is done: while the
 * build's PGlite template maker runs (scripts/build.mjs: `build/pglite-template.partial-<key>-<pid>`),
 * then until the service answers GET /health on PORT, two minutes at most in all.
 */
const afterTheStart = async () => {
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline && liveMarker(path.join(root, "build"), /^pglite-template\.partial-[^-]+-(\d+)$/)) await sleep(250)
  const health = `http://127.0.0.1:${process.env.PORT ?? 8080}/health`
  while (Date.now() < deadline) {
    try {
      if ((await fetch(health, { signal: AbortSignal.timeout(1_000) })).ok) return
    } catch {
      // not listening yet
    }
    await sleep(250)
  }
}

/** Builds when needed (above); resolves with an exit status. */
export const ensureConsole = async ({ force = false, background = false, afterStart = false } = {}) => {
  const builtAt = newest(built)
  const changedAt = Math.max(...sources.map(newest))
  if (!force && builtAt > 0 && builtAt >= changedAt) return 0

  console.log(
    force ? "console: building packages/console…"
    : builtAt === 0 ? "console: building packages/console (no dist yet)…"
    : "console: sources changed, rebuilding packages/console…"
  )
  const vite = path.join(root, "node_modules/vite/bin/vite.js")
  if (!fs.existsSync(vite)) {
    // an install without devDependencies (npm ci --omit=dev): the API starts, /admin answers 503
    console.warn("console: vite is not installed (devDependencies omitted?): /admin is not served until `npm run build:console`")
    return 0
  }
  if (background) {
    // a build already running (a `dist.partial-<pid>` of a live process): a restart does not start a second one
    if (liveMarker(consoleDir, /^dist\.partial-(\d+)$/)) {
      console.log("console: a build is already running; /admin answers once it is ready")
      return 0
    }
    const child = spawn(process.execPath, [import.meta.filename, "--force", "--after-start"], { detached: true, stdio: "inherit" })
    try {
      os.setPriority(child.pid, 10)
    } catch {
      // not permitted here: the build just competes at normal priority
    }
    child.unref()
    console.log("console: building in the background once the service answers; /admin answers once it is ready")
    return 0
  }
  const dist = path.join(consoleDir, "dist")
  const partial = path.join(consoleDir, `dist.partial-${process.pid}`)
  try {
    fs.rmSync(partial, { recursive: true, force: true })
    // made at once (vite writes only at its end): it marks the build as running for a restart
    fs.mkdirSync(partial)
    if (afterStart) await afterTheStart()
    // a production build whatever the caller's NODE_ENV (vitest sets "test", which would bundle React's development build)
    execFileSync(process.execPath, [vite, "build", "--logLevel", "warn", "--outDir", partial], {
      cwd: consoleDir,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" }
    })
    fs.rmSync(dist, { recursive: true, force: true })
    fs.renameSync(partial, dist)
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true })
    console.error(`console: build failed (${error.status ?? error.message})`)
    return 1
  }
  console.log("console: built packages/console/dist (served at /admin)")
  return 0
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === import.meta.filename) {
  process.exitCode = await ensureConsole({
    force: process.argv.includes("--force"),
    background: process.argv.includes("--background"),
    afterStart: process.argv.includes("--after-start")
  })
}
