/**
 * `npm run try`, the README's walk-through, against the real service as `npm start` runs it: it
 * must get from sign-up to a support ticket on its own (codes from the outbox, no ids copied by
 * hand), twice in a row on one service (a new customer each run), and stop with a non-zero exit
 * at the first step that fails.
 */
import { spawn } from "node:child_process"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort, freshDatabaseEnv, root, type Service, startService, tempDir } from "./support/Service.js"

const dataDir = tempDir()
const database = await freshDatabaseEnv()
let service: Service | undefined

beforeAll(async () => {
  service = await startService({ DATA_DIR: dataDir, ...database.env })
})

afterAll(async () => {
  await service?.stop("SIGKILL")
  await database.drop()
})

/** Runs `npm run try` with this environment (no terminal: plain output); its exit code and output. */
const runTry = (env: Record<string, string>) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    let output = ""
    const { BASE_URL: _b, PORT: _p, DATA_DIR: _d, NOTIFY_OUTBOX_FILE: _n, ...inherited } = process.env
    const child = spawn("npm", ["run", "--silent", "try"], { cwd: root, env: { ...inherited, NO_COLOR: "1", ...env } })
    child.stdout.on("data", (d) => (output += d))
    child.stderr.on("data", (d) => (output += d))
    child.on("exit", (code) => resolve({ code, output }))
  })

describe("npm run try against the running service", () => {
  it("walks a new customer from sign-up to a support ticket, printing each request and answer", async () => {
    const { code, output } = await runTry({ BASE_URL: service!.baseUrl, DATA_DIR: dataDir })
    expect(code, output).toBe(0)
    for (
      const request of [
        "POST /api/v1/auth/register",
        "POST /api/v1/auth/otp/email/verify",
        "POST /api/v1/auth/verify-bvn",
        "POST /api/v1/customers/create-account",
        "POST /api/v1/transactions/deposit/test",
        "POST /api/v1/disbursements/plan",
        "POST /api/v1/transactions/transfer",
        "POST /api/v1/disbursements/plan/borrow",
        "POST /api/v1/support/tickets"
      ]
    ) expect(output, request).toContain(`→ ${request}`)
    // the code came from the outbox file, and every answer is printed
    expect(output).toMatch(/✉ .*outbox\.jsonl: .*"kind":"email_verification","code":"\d{6}"/)
    expect(output).toContain('← 201 {"apiObject":"Support"')
    expect(output).toMatch(/✓ done: .*ticket TKT-\d+/)
  })

  it("finds the service by PORT, as npm start sets it, and runs again: a new customer each time (email, phone and BVN free)", async () => {
    const port = new URL(service!.baseUrl).port
    const { code, output } = await runTry({ PORT: port, DATA_DIR: dataDir })
    expect(code, output).toBe(0)
    expect(output).toContain(`against http://localhost:${port}`)
  })

  it("exits non-zero at the first step that fails: no code in the outbox it was pointed at", async () => {
    const { code, output } = await runTry({ BASE_URL: service!.baseUrl, NOTIFY_OUTBOX_FILE: path.join(tempDir(), "none.jsonl") })
    expect(code).toBe(1)
    expect(output).toContain("✗ step 4 failed: no email_verification code")
    expect(output).not.toContain("KYC")
  })

  it("exits non-zero when no service answers, saying how to point it at one", async () => {
    const { code, output } = await runTry({ BASE_URL: `http://127.0.0.1:${await freePort()}` })
    expect(code).toBe(1)
    expect(output).toContain("is `npm start` running? Set PORT or BASE_URL")
  })
})

// The same journey with the embedded sandbox and the service's adapter in BankOne's dialect
// (`SANDBOX_DIALECT=bankone npm start`, docs/bankone.md): everything a user can try on the generic
// sandbox works the same there. Embedded PGlite only (the dialect is the provider's, not the
// database's), so the PostgreSQL pass leaves it out.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))("npm run try against SANDBOX_DIALECT=bankone npm start", () => {
  const bankoneDir = tempDir()
  let bankone: Service | undefined
  beforeAll(async () => {
    bankone = await startService({ DATA_DIR: bankoneDir, SANDBOX_DIALECT: "bankone" })
  }, 120_000)
  afterAll(async () => {
    await bankone?.stop("SIGKILL")
  })

  it("walks a new customer from sign-up to a support ticket", async () => {
    const { code, output } = await runTry({ BASE_URL: bankone!.baseUrl, DATA_DIR: bankoneDir })
    expect(code, output).toBe(0)
    expect(output).toContain("→ POST /api/v1/transactions/transfer")
    expect(output).toMatch(/✓ done: .*ticket TKT-\d+/)
  }, 120_000)
})
