import { existsSync } from "node:fs"
import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

// Vitest runs one worker fewer than there are cores; the tests wait on PostgreSQL, sockets and
// timers much of the time, so on a 2-core machine a second worker nearly halves the wall time.
const workers = Math.max(2, availableParallelism() - 1)

// With TEST_DATABASE_URL (the PostgreSQL pass, which CI runs after the PGlite one) the domain's
// tests are left out: they run on in-memory ports, never on a database, so a second pass would
// repeat them unchanged (44 files).
const onPostgres = Boolean(process.env.TEST_DATABASE_URL)

/**
 * Test files that need a process of their own, each with why:
 * - Metrics.test.ts and JobMetrics.test.ts count exact values in Effect's metric registry, which is
 *   global to the process and which the other files' requests and jobs also write;
 * - SpendingReportJob.test.ts has a top-level `it.effect` on the TestClock (PostgreSQL only), which
 *   finds no TestClock when HTTP test files ran in its process before it (seen, cause not found;
 *   the same as for the domain's files below).
 */
const ownProcess = [
  "packages/http/test/Metrics.test.ts",
  "packages/scheduler/test/JobMetrics.test.ts",
  "packages/scheduler/test/SpendingReportJob.test.ts"
]
// a renamed file would otherwise run in a shared process unnoticed (its project matching nothing)
for (const file of ownProcess) if (!existsSync(file)) throw new Error(`vitest.config.ts: ownProcess names ${file}, which does not exist`)

/**
 * Quiet by default: many tests provoke failures on purpose (a 500, a refused transfer, an
 * unreachable bank), and the service logs them at warning or error level through Effect's default
 * logger; a passing run printed ~100 such lines. Effect's log lines (logfmt, `timestamp=… level=…`)
 * are left out of the output unless TEST_LOGS is set (`TEST_LOGS=1 npx vitest run <file>`). Tests
 * that assert on logs add a logger of their own and still receive every line.
 */
const effectLogLine = /^timestamp=\S+ level=(ALL|TRACE|DEBUG|INFO|WARN|ERROR|FATAL) /
const showLogs = Boolean(process.env.TEST_LOGS)
const onConsoleLog = (log: string): false | undefined => (showLogs || !effectLogLine.test(log) ? undefined : false)

// browser tests boot the service and Chromium: their own run (npm run test:browser)
const notHere = ["**/node_modules/**", "**/*.browser.test.ts"]

/**
 * Worker processes are reused from one test file to the next (`isolate: false`): importing
 * Effect, the adapters and the HTTP API costs about 2.5 s a file, and isolation paid it again for
 * each of ~130 files, half of the suite's time. Each file still builds its own layers, database and
 * server; what files share is the module cache and process-wide state, so the files are split into
 * projects, and vitest gives each project fresh workers (it runs them one after another):
 * - domain: the domain's files (in-memory ports, the TestClock through top-level `it.effect`).
 *   After an HTTP test file has run in the same process they find no TestClock in their fibers (its
 *   `adjust`/`setTime` "is not a function"); among themselves they pass.
 * - integration: everything else but the browser tests and `ownProcess`.
 * - one project per file of `ownProcess`.
 */
export default defineConfig({
  test: {
    exclude: notHere,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    poolOptions: { forks: { isolate: false } },
    maxWorkers: workers,
    minWorkers: 1,
    sequence: { concurrent: false },
    onConsoleLog,
    projects: [
      ...(onPostgres ? [] : [{
        extends: true,
        test: { name: "domain", include: ["packages/domain/test/**/*.test.ts"] }
      }]),
      {
        extends: true,
        test: {
          name: "integration",
          include: ["packages/*/test/**/*.test.ts"],
          exclude: [...notHere, "packages/domain/**", ...ownProcess],
          // the operator CLI's tests run it as operators do: the compiled build/cli.mjs of these
          // sources (a project's globalSetup runs once per run of that project, so only here)
          globalSetup: ["scripts/build.mjs"]
        }
      },
      ...ownProcess.map((file) => ({
        extends: true as const,
        test: { name: file.replace(/^.*\//, "").replace(/\.test\.ts$/, ""), include: [file] }
      }))
    ]
  }
})
