/**
 * `npm run sandbox` (the standalone sandbox) honours DURABLE_WRITES for its journal as `npm start`'s
 * embedded bank does: each line fdatasync'ed unless DURABLE_WRITES=false (on by default).
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { openBank } from "../src/index.js"
import { SandboxConfig, standaloneOptions } from "../src/Standalone.js"

/** The standalone bank opened on a fresh data directory with `env`; whether its journal is durable. */
const journalDurability = (env: Record<string, string>) =>
  Effect.gen(function*() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-standalone-"))
    const config = yield* SandboxConfig.pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries({ SANDBOX_DATA_DIR: dir, ...env }))))
    )
    const { state } = openBank(standaloneOptions(config, "generic"))
    try {
      return state.journal?.durable
    } finally {
      state.journal?.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

describe("the standalone sandbox's journal", () => {
  it.effect("is durable by default and with DURABLE_WRITES=true, as the embedded bank's; DURABLE_WRITES=false turns it off", () =>
    Effect.gen(function*() {
      expect(yield* journalDurability({})).toBe(true)
      expect(yield* journalDurability({ DURABLE_WRITES: "true" })).toBe(true)
      expect(yield* journalDurability({ DURABLE_WRITES: "false" })).toBe(false)
    }))
})
