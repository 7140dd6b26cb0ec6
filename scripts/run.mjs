#!/usr/bin/env node
/**
 * `npm start`: `node scripts/run.mjs start --console`. In one process, what three did (node's own
 * start-up is 50 to 250 ms each on a busy 2-core machine): the console's check
 * (scripts/ensure-console.mjs; a needed build goes to the background, `--console`), the build's
 * check (scripts/ensure-build.mjs; a needed build is made first, the PGlite template while the
 * runnable loads), then the runnable build/<name>.mjs itself, imported here with source maps on
 * (as `node --enable-source-maps build/<name>.mjs`; its process.argv is that command's).
 * `npm start` gives node `--wasm-tiering-budget=18000000`: PGlite's WebAssembly is optimised
 * later, not during the start (docs/decisions/wasm-tiering-at-start.md).
 */
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { ensureBuild } from "./ensure-build.mjs"
import { ensureConsole } from "./ensure-console.mjs"

const [name, ...rest] = process.argv.slice(2)
const runnables = ["start", "http", "scheduler", "cli", "sandbox"]
if (!runnables.includes(name)) {
  console.error(`usage: node scripts/run.mjs <${runnables.join("|")}> [--console] [-- args of the runnable]`)
  process.exit(2)
}
const args = rest.includes("--") ? rest.slice(rest.indexOf("--") + 1) : []
if (rest.includes("--console")) await ensureConsole({ background: true })
const status = await ensureBuild()
if (status !== 0) process.exit(status)

const runnable = path.resolve(import.meta.dirname, "..", "build", `${name}.mjs`)
process.argv = [process.argv[0], runnable, ...args]
process.setSourceMapsEnabled(true)
await import(pathToFileURL(runnable).href)
