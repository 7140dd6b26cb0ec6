import { defineConfig } from "vitest/config"

/**
 * End-to-end tests that boot the real service as a child process (npm run test:e2e): the compiled
 * build/*.mjs, which the globalSetup (scripts/build.mjs) builds from the current sources once first.
 */
export default defineConfig({
  test: {
    include: ["e2e/**/*.e2e.test.ts"],
    globalSetup: ["scripts/build.mjs"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: false
  }
})
