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
 * Test files that need a process of their own: Metrics.test.ts and JobMetrics.test.ts count exact
 * values in Effect's metric registry, which is global to the process and which the other files'
 * requests and jobs also write.
 */
const ownProcess = [
  "packages/http/test/Metrics.test.ts",
  "packages/scheduler/test/JobMetrics.test.ts"
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
 * server; what files share is the module cache and process-wide state:
 * - @effect/vitest's `it`, which `layer(...)` rewrites for its block and does not restore: the setup
 *   file puts its default `it.effect`/`it.scoped` back before every file (vitest.setup.ts), so a
 *   file's top-level `it.effect` has its TestClock whatever ran before it in the process;
 * - Effect's metric registry: each file of `ownProcess` is a project of its own, and vitest gives
 *   each project its own workers.
 * The domain's files are a project too: they need no build of the CLI (the integration project's
 * globalSetup) and are left out of the PostgreSQL pass.
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
    setupFiles: ["./vitest.setup.ts"],
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
