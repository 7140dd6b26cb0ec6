/**
 * Starts the real service (the `npm start` entry point) as a child process on a free port: the
 * compiled JavaScript production runs (build/*.mjs, built once before the tests by the globalSetup
 * of vitest.e2e.config.ts), not the TypeScript sources.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { createRequire } from "node:module"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"

export const root = path.resolve(import.meta.dirname, "../..")

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
    server.on("error", reject)
  })

export const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "kobo-e2e-"))

export interface Running {
  readonly process: ChildProcess
  readonly output: () => string
  readonly exited: Promise<number | null>
  /** sends the signal and resolves with the exit code */
  readonly stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

/** The build of each runnable's source entry point (scripts/build.mjs). */
const BUILT: Record<string, string> = {
  "packages/runtime/src/start.ts": "build/start.mjs",
  "packages/runtime/src/http.ts": "build/http.mjs",
  "packages/runtime/src/scheduler.ts": "build/scheduler.mjs",
  "packages/cli/src/main.ts": "build/cli.mjs",
  "packages/sandbox/src/main.ts": "build/sandbox.mjs"
}

/**
 * The command line of a runnable named by its source entry point: `node --enable-source-maps
 * build/<name>.mjs` (as the npm scripts run it); any other entry point runs from source (tsx).
 */
export const nodeArgs = (entry: string): Array<string> => {
  const built = BUILT[entry]
  if (built === undefined) return ["--import", "tsx", entry]
  if (!fs.existsSync(path.join(root, built))) throw new Error(`${built} is missing: run npm run build (the e2e globalSetup does)`)
  return ["--enable-source-maps", built]
}

/** Spawns the runnable of `entry` (see `nodeArgs`) in the repository root with extra environment. */
export const spawnEntry = (entry: string, env: Record<string, string>): Running => {
  let output = ""
  const child = spawn(process.execPath, nodeArgs(entry), {
    cwd: root,
    // several processes run side by side: none takes the default metrics port unless a test says so
    env: { ...process.env, METRICS_PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout!.on("data", (d) => (output += d))
  child.stderr!.on("data", (d) => (output += d))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return {
    process: child,
    output: () => output,
    exited,
    stop: (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal)
      return exited
    }
  }
}

/** Polls until `done()` holds; fails with the process output after `ms`. */
export const waitFor = async (running: Running, done: () => Promise<boolean> | boolean, ms = 60_000) => {
  const deadline = Date.now() + ms
  for (;;) {
    if (running.process.exitCode !== null) throw new Error(`process exited with ${running.process.exitCode}:\n${running.output()}`)
    if (await done()) return
    if (Date.now() > deadline) {
      running.process.kill("SIGKILL")
      throw new Error(`timed out after ${ms} ms:\n${running.output()}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
}

/**
 * The sandbox bank as its own process on `port` (PGlite under `dataDir`/sandbox), announcing
 * deposits to the API on `apiPort`; resolves once it listens. `extra`: e.g. SANDBOX_LATENCY_MS.
 */
export const startSandbox = async (dataDir: string, port: number, apiPort: number, extra: Record<string, string> = {}) => {
  const sandbox = spawnEntry("packages/sandbox/src/main.ts", {
    SANDBOX_PORT: String(port),
    SANDBOX_DATA_DIR: path.join(dataDir, "sandbox"),
    SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${apiPort}/api/v1/webhooks/core-banking`,
    ...extra
  })
  await waitFor(sandbox, () => sandbox.output().includes("sandbox bank listening"))
  return sandbox
}

/** The API alone (production's `start:http`) on `port`; resolves once it answers. */
export const startApi = async (env: Record<string, string>, port: number) => {
  const http = spawnEntry("packages/runtime/src/http.ts", { ...env, PORT: String(port) })
  const baseUrl = `http://127.0.0.1:${port}`
  await waitFor(http, async () => (await fetch(`${baseUrl}/api/v1/openapi.json`).catch(() => undefined))?.ok === true)
  return http
}

export interface Service extends Running {
  readonly baseUrl: string
}

export const startService = async (env: Record<string, string>, entry = "packages/runtime/src/start.ts"): Promise<Service> => {
  const port = await freePort()
  const running = spawnEntry(entry, { PORT: String(port), ...env })
  const baseUrl = `http://127.0.0.1:${port}`
  await waitFor(running, async () => {
    try {
      return (await fetch(`${baseUrl}/api/v1/openapi.json`, { signal: AbortSignal.timeout(2_000) })).ok
    } catch {
      return false
    }
  })
  return { ...running, baseUrl }
}

export const api = async (baseUrl: string, method: string, url: string, body?: unknown, token?: string) => {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: (await response.json()) as any }
}

/**
 * Under TEST_DATABASE_URL, a fresh database for this run (dropped by the returned cleanup), so
 * end-to-end runs never share tables; otherwise nothing (embedded PGlite under DATA_DIR).
 */
export const freshDatabaseEnv = async (): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> => {
  const base = process.env.TEST_DATABASE_URL
  if (base === undefined || base === "") return { env: {}, drop: async () => {} }
  const { Client } = createRequire(import.meta.url)("pg") as {
    Client: new(url: string) => { connect(): Promise<void>; query(sql: string): Promise<unknown>; end(): Promise<void> }
  }
  const name = `e2e_${randomBytes(6).toString("hex")}`
  const admin = async (sql: string) => {
    const client = new Client(base)
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  }
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(base)
  url.pathname = `/${name}`
  return { env: { DATABASE_URL: url.toString() }, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}
