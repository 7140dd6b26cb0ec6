#!/usr/bin/env node
/**
 * Builds the admin web console (packages/console) into packages/console/dist when dist is missing
 * or older than any of its sources, so `npm start` on a fresh clone serves /admin. When dist is up
 * to date it only compares modification times (a few milliseconds). `--force` always builds.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
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
// a production build whatever the caller's NODE_ENV (vitest sets "test", which would bundle React's development build)
execFileSync(process.execPath, [vite, "build", "--logLevel", "warn"], {
  cwd: consoleDir,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" }
})
console.log("console: built packages/console/dist (served at /admin)")
