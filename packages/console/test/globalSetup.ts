/**
 * The browser suite's globalSetup: builds the console once (scripts/ensure-console.mjs, a few
 * milliseconds when dist is up to date) before any test file runs. A file that built it itself
 * blocked its worker for the whole Vite build (~16 s of CPU), long enough under load for vitest's
 * calls to the worker to time out ("Timeout calling onTaskUpdate") and the run to fail.
 */
import { execFileSync } from "node:child_process"
import * as path from "node:path"

export const setup = () => {
  const root = path.resolve(import.meta.dirname, "../../..")
  execFileSync(process.execPath, [path.join(root, "scripts/ensure-console.mjs")], { cwd: root, stdio: "inherit" })
}
