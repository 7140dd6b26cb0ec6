import { defineConfig } from "vitest/config"

/**
 * Browser tests of the admin console (npm run test:browser): the real service as a child process,
 * driven in Debian's headless Chromium through playwright-core (scripts/install-chromium.sh).
 * KOBO_BROWSER_TESTS marks this run: the unit suite's glob also matches these files and skips them.
 */
export default defineConfig({
  test: {
    include: ["packages/console/test/**/*.browser.test.ts"],
    // the console is built once, before the files run (a file's own build blocked its worker)
    globalSetup: ["packages/console/test/globalSetup.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    fileParallelism: false,
    env: { KOBO_BROWSER_TESTS: "1" }
  }
})
