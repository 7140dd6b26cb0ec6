#!/usr/bin/env node
/**
 * Builds the runnables (scripts/build.mjs) when build/ is missing or older than any of their
 * sources, so `npm start` (and start:http, start:scheduler, cli, sandbox) always runs the compiled
 * JavaScript of the current sources. When the build is up to date it only compares modification
 * times (a few milliseconds). Prints to stderr only: `npm run cli -- … --json` keeps a clean stdout.
 * `--force` always builds; `--wait` also waits for the PGlite template (`npm install`'s prepare,
 * scripts/prepare.mjs), where `npm start` leaves it to be made while the service loads.
 * `ensureBuild` is the same for a script that imports it (scripts/run.mjs: `npm start` in one process).
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

/** Builds when needed (above); resolves with an exit status: 0 when build/ is there to run. */
export const ensureBuild = async ({ force = false, waitForTemplate = false } = {}) => {
  const builtAt = outputs.every((file) => fs.existsSync(file)) ? newest(stamp) : 0
  const changedAt = Math.max(...sources.map(newest))
  if (!force && builtAt > 0 && builtAt >= changedAt) return 0

  log(force ? "build: building…" : builtAt === 0 ? "build: building (no build yet)…" : "build: sources changed, rebuilding…")
  let build
  try {
    ;({ build } = await import("./build.mjs"))
  } catch (error) {
    // an install without devDependencies (npm ci --omit=dev) has no esbuild
    if (builtAt > 0) {
      log(`build: cannot rebuild (${error.code ?? error.message}: is esbuild installed?); running the existing build`)
      return 0
    }
    log(`build: cannot build (${error.code ?? error.message}): run \`npm install\` (esbuild is a devDependency), then \`npm run build\``)
    return 1
  }
  try {
    // unless told to wait, the template is made while the runnable loads, which waits for it
    // (packages/runtime/src/TemplateCopy.ts)
    await build({ log, waitForTemplate })
    return 0
  } catch (error) {
    log(Array.isArray(error?.errors) ? `build: failed with ${error.errors.length} error(s)` : `build: failed: ${error?.message ?? error}`)
    return 1
  } finally {
    // esbuild's service process would otherwise live as long as the service that imported this
    ;(await import("esbuild")).stop()
  }
}

const log = (line) => console.error(line)

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === import.meta.filename) {
  process.exitCode = await ensureBuild({ force: process.argv.includes("--force"), waitForTemplate: process.argv.includes("--wait") })
}
