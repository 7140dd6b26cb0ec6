#!/usr/bin/env node
/**
 * The root package's `prepare`, which `npm install` and `npm ci` run once the dependencies are in
 * place: the one-time work of a first `npm start`, done at install time, so that start answers as
 * soon as a restart does (docs/decisions/first-start.md). Side by side: the runnables and the PGlite
 * template (scripts/ensure-build.mjs `--wait`: esbuild, then initdb and the migrations, ~7 s of one
 * core) and the admin console (scripts/ensure-console.mjs: Vite, ~16 s of CPU). Each only when
 * missing or stale, like `npm start`'s own checks, which remain the fallback when this did not run
 * or build. It never fails the install: what it could not make, `npm start` makes (and reports)
 * then. `KOBO_SKIP_PREPARE=1` skips it.
 */
import { spawn } from "node:child_process"
import * as path from "node:path"

if (process.env.KOBO_SKIP_PREPARE === "1") {
  console.error("prepare: skipped (KOBO_SKIP_PREPARE); npm start builds what it needs")
  process.exit(0)
}
const started = performance.now()
const run = (script, ...args) =>
  new Promise((resolve) => {
    spawn(process.execPath, [path.join(import.meta.dirname, script), ...args], { stdio: "inherit" })
      .on("error", () => resolve(1))
      .on("exit", (code) => resolve(code ?? 1))
  })
const [build, console_] = await Promise.all([run("ensure-build.mjs", "--wait"), run("ensure-console.mjs")])
const failed = [build !== 0 ? "the build" : undefined, console_ !== 0 ? "the console" : undefined].filter(Boolean)
console.error(
  failed.length === 0
    ? `prepare: ready for npm start in ${((performance.now() - started) / 1000).toFixed(1)} s`
    : `prepare: ${failed.join(" and ")} failed (above); npm start tries again`
)
