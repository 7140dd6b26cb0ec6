#!/usr/bin/env node
/**
 * Builds the runnables (scripts/build.mjs) when build/ is missing or older than any of their
 * sources, so `npm start` (and start:http, start:scheduler, cli, sandbox) always runs the compiled
 * JavaScript of the current sources. When the build is up to date it only compares modification
 * times (a few milliseconds). Prints to stderr only: `npm run cli -- … --json` keeps a clean stdout.
 * `--force` always builds.
 */
import * as fs from "node:fs"
import * as path from "node:path"

const root = path.resolve(import.meta.dirname, "..")
const stamp = path.join(root, "build/.built")
const outputs = [
  ...["start", "http", "scheduler", "cli", "sandbox"].map((name) => path.join(root, "build", `${name}.mjs`)),
  // the database a new DATA_DIR starts from (scripts/build.mjs `pgliteTemplate`)
  path.join(root, "build/pglite-template/manifest.json")
]

/** Every workspace but the web console (built on its own by scripts/ensure-console.mjs). */
const workspaces = fs.readdirSync(path.join(root, "packages"))
  .filter((name) => name !== "console")
  .map((name) => path.join(root, "packages", name))
const sources = [
  ...workspaces.flatMap((dir) => ["src", "package.json", "tsconfig.json"].map((p) => path.join(dir, p))),
  ...["scripts/build.mjs", "package-lock.json", "tsconfig.base.json"].map((p) => path.join(root, p))
]

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

const builtAt = outputs.every((file) => fs.existsSync(file)) ? newest(stamp) : 0
const changedAt = Math.max(...sources.map(newest))
const force = process.argv.includes("--force")
if (!force && builtAt > 0 && builtAt >= changedAt) process.exit(0)

const log = (line) => console.error(line)
log(force ? "build: building…" : builtAt === 0 ? "build: building (no build yet)…" : "build: sources changed, rebuilding…")
let build
try {
  ;({ build } = await import("./build.mjs"))
} catch (error) {
  // an install without devDependencies (npm ci --omit=dev) has no esbuild
  if (builtAt > 0) {
    log(`build: cannot rebuild (${error.code ?? error.message}: is esbuild installed?); running the existing build`)
    process.exit(0)
  }
  log(`build: cannot build (${error.code ?? error.message}): run \`npm install\` (esbuild is a devDependency), then \`npm run build\``)
  process.exit(1)
}
try {
  // the template is made while the runnable loads, which waits for it (packages/runtime/src/TemplateCopy.ts)
  await build({ log, waitForTemplate: false })
} catch (error) {
  log(Array.isArray(error?.errors) ? `build: failed with ${error.errors.length} error(s)` : `build: failed: ${error?.message ?? error}`)
  process.exit(1)
}
