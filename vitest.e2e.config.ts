import { defineConfig } from "vitest/config"

/** End-to-end tests that boot the real service as a child process (npm run test:e2e). */
export default defineConfig({
  test: {
    include: ["e2e/**/*.e2e.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: false
  }
})
