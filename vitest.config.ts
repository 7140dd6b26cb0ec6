import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

// Vitest runs one worker fewer than there are cores; the tests wait on PostgreSQL, sockets and
// timers much of the time, so on a 2-core machine a second worker nearly halves the wall time.
const workers = Math.max(2, availableParallelism() - 1)

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts"],
    // browser tests boot the service and Chromium: their own run (npm run test:browser)
    exclude: ["**/node_modules/**", "**/*.browser.test.ts"],
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
