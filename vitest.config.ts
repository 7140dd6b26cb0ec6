import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

// Vitest runs one worker fewer than there are cores; the tests wait on PostgreSQL, sockets and
// timers much of the time, so on a 2-core machine a second worker nearly halves the wall time.
const workers = Math.max(2, availableParallelism() - 1)

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts"],
    // browser tests boot the service and Chromium: their own run (npm run test:browser). With
    // TEST_DATABASE_URL (the PostgreSQL pass, which CI runs after the PGlite one) the domain's tests
    // are left out: they run on in-memory ports, never on a database, so a second pass would repeat
    // them unchanged (44 files, about a minute of CI)
    exclude: ["**/node_modules/**", "**/*.browser.test.ts", ...(process.env.TEST_DATABASE_URL ? ["packages/domain/**"] : [])],
    // the operator CLI's tests run it as operators do: the compiled build/cli.mjs of these sources
    globalSetup: ["scripts/build.mjs"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: workers,
    minWorkers: 1,
    sequence: { concurrent: false }
  }
})
