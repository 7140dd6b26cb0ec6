#!/usr/bin/env node
/**
 * Builds the admin web console (packages/console) into packages/console/dist when dist is missing
 * or older than any of its sources, so `npm start` on a fresh clone serves /admin. When dist is up
 * to date it only compares modification times (a few milliseconds). `--force` always builds.
 *
 * `--background` (npm start, start:http, dev): a needed build runs in a detached process at a
 * lower CPU priority and this script returns at once, so the API starts without waiting for it
 * (the console build is ~6 s of CPU; the first start answers without it). /admin answers 503
 * until the build is in place. The build goes to a directory of its own and is renamed to dist
 * when complete, so /admin never serves half a build.
 */
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

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

const builtAt = newest(built)
const changedAt = Math.max(...sources.map(newest))
const force = process.argv.includes("--force")
if (!force && builtAt > 0 && builtAt >= changedAt) process.exit(0)

console.log(
  force ? "console: building packages/console…"
  : builtAt === 0 ? "console: building packages/console (no dist yet)…"
  : "console: sources changed, rebuilding packages/console…"
)
const vite = path.join(root, "node_modules/vite/bin/vite.js")
if (!fs.existsSync(vite)) {
  // an install without devDependencies (npm ci --omit=dev): the API starts, /admin answers 503
  console.warn("console: vite is not installed (devDependencies omitted?): /admin is not served until `npm run build:console`")
  process.exit(0)
}
/** A build already running (a `dist.partial-<pid>` of a live process): a restart does not start a second one. */
const running = fs.readdirSync(consoleDir).some((name) => {
  const pid = Number(/^dist\.partial-(\d+)$/.exec(name)?.[1])
  if (!pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
})
if (process.argv.includes("--background")) {
  if (running) {
    console.log("console: a build is already running; /admin answers once it is ready")
    process.exit(0)
  }
  const child = spawn(process.execPath, [import.meta.filename, "--force"], { detached: true, stdio: "inherit" })
  try {
    // the API's first start comes first; the console is ready a few seconds later
    os.setPriority(child.pid, 10)
  } catch {
    // not permitted here: the build just competes at normal priority
  }
  child.unref()
  console.log("console: building in the background; /admin answers once it is ready")
  process.exit(0)
}
const dist = path.join(consoleDir, "dist")
const partial = path.join(consoleDir, `dist.partial-${process.pid}`)
fs.rmSync(partial, { recursive: true, force: true })
// made at once (vite writes only at its end): it marks the build as running for a restart
fs.mkdirSync(partial)
try {
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
  process.exit(1)
}
console.log("console: built packages/console/dist (served at /admin)")
