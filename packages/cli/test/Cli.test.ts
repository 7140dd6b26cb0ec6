/**
 * The operator CLI as an operator runs it: real processes (`node build/cli.mjs`, what `npm run cli`
 * runs; vitest's globalSetup builds it from the current sources) against a data directory with
 * PGlite, or a fresh PostgreSQL database when TEST_DATABASE_URL is set, seeded beforehand through
 * the repositories; their output and exit codes.
 */
import { AppConfigTest } from "@app/adapters"
import { adaptersLayer } from "@app/adapters/Live"
import { pgLayer, pgliteLayer } from "@app/adapters/sql/Database"
import { newCustomer } from "@app/adapters/testing/Customers"
import { Instalment, PasswordHasher, Plan, PlanId, PlanRepo, StaffAccess, StaffId, StaffMember, StaffRepo } from "@app/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { spawn } from "node:child_process"
import { randomBytes, randomUUID } from "node:crypto"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { Effect, Layer, Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "../../..")
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kobo-cli-"))
const base = process.env.TEST_DATABASE_URL
const dbName = `cli_${randomBytes(6).toString("hex")}`
const databaseUrl = base ? Object.assign(new URL(base), { pathname: `/${dbName}` }).toString() : undefined

const admin = async (sql: string) => {
  const { Client } = createRequire(import.meta.url)("pg") as {
    Client: new(url: string) => { connect(): Promise<void>; query(sql: string): Promise<unknown>; end(): Promise<void> }
  }
  const client = new Client(base!)
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

const ROOT = { email: "root@kobo.test", password: "the root's long password" }
const SUPPORT = "support@kobo.test"
let customerId = ""
const pendingId = randomUUID()
const at = new Date("2026-05-01T08:00:00Z")

/** The superadmin, a verified customer without a bank account and an active support member, through the repositories. */
const seed = Effect.gen(function*() {
  const customer = yield* newCustomer("ngozi.cli", "70", at, { firstName: "Ngozi", lastName: "Eze", bankAccount: false, referralCode: "CLITEST1" })
  customerId = customer.id
  // a movement the bank has not answered about yet
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    INSERT INTO transactions (id, customer_id, type, purpose, amount_kobo, status, retrieval_reference, created_at, updated_at)
    VALUES (${pendingId}, ${customerId}, 'credit', 'deposit', 250000, 'pending', ${"CLI-REF-1"}, ${at}, ${at})`
  // the superadmin first (ADMIN_BOOTSTRAP_* only acts while there is no staff at all)
  yield* StaffAccess.bootstrapSuperadmin(ROOT.email, Redacted.make(ROOT.password))
  yield* (yield* StaffRepo).create(new StaffMember({
    id: StaffId.make(randomUUID()),
    email: SUPPORT,
    firstName: "Sade",
    lastName: "Ade",
    role: "support",
    status: "active",
    passwordHash: "$argon2id$not-a-real-hash",
    createdAt: at,
    updatedAt: at
  }))
})

const env = {
  DATA_DIR: dataDir,
  ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
  ADMIN_BOOTSTRAP_EMAIL: ROOT.email,
  ADMIN_BOOTSTRAP_PASSWORD: ROOT.password,
  KOBO_OPERATOR: ROOT.email,
  NO_COLOR: "1"
}

/**
 * Runs the CLI; resolves with its exit code, stdout and stderr. Asynchronous on purpose: a blocking
 * spawnSync would stall the test worker's event loop for the whole test, and vitest's worker RPC
 * times out under a loaded machine.
 */
const cli = (...args: Array<string>) => runCli(args, {})

/** `input`, when given, is written to the command's stdin (then closed). */
const runCli = (args: ReadonlyArray<string>, extraEnv: Record<string, string>, input?: string) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, ["--enable-source-maps", "build/cli.mjs", ...args], {
      cwd: root,
      env: { ...process.env, ...env, ...extraEnv },
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"]
    })
    if (input !== undefined) child.stdin!.end(input)
    let out = ""
    let err = ""
    child.stdout!.on("data", (d) => (out += d))
    child.stderr!.on("data", (d) => (err += d))
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, out, err })
    })
  })

/** Runs `effect` on the test database in this process (PGlite: only while no command runs). */
const onDatabase = <A, E>(effect: Effect.Effect<A, E, any>) => {
  const sql = databaseUrl === undefined ? pgliteLayer(path.join(dataDir, "pglite")) : pgLayer(Redacted.make(databaseUrl))
  return Effect.runPromise(Effect.provide(effect, adaptersLayer(sql).pipe(Layer.provide(AppConfigTest()))) as Effect.Effect<A, E>)
}

beforeAll(async () => {
  if (databaseUrl !== undefined) await admin(`CREATE DATABASE ${dbName}`)
  await onDatabase(seed)
  // a fresh PGlite and every migration: seconds alone, minutes on a loaded machine
}, 240_000)

afterAll(async () => {
  if (databaseUrl !== undefined) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
})

describe("the operator CLI, as processes", () => {
  it("--help lists the commands; an unknown command is a usage error (2); no operator is 2", async () => {
    const help = await cli("--help")
    expect(help.code).toBe(0)
    for (const command of ["customers", "settings", "audit", "alerts", "deletions", "tx", "jobs", "payouts", "admin", "migrate"]) {
      expect(help.out).toContain(command)
    }
    expect((await cli("customers", "explode")).code).toBe(2)
    const anonymous = await runCli(["alerts", "list"], { KOBO_OPERATOR: "" })
    expect(anonymous.code).toBe(2)
    expect(anonymous.err).toContain("--operator EMAIL or KOBO_OPERATOR")
  }, 60_000)

  it("expected failures are one plain line and the documented exit code: a malformed id 2, an unknown id 3, the bank held by another process 5", async () => {
    /** one line, `error: …`, and nothing of a stack trace or an internal tag */
    const plainLine = (err: string) => {
      expect(err).toMatch(/^error: [^\n]+\n$/)
      expect(err).not.toMatch(/^\s+at |SqlError|NotFound\b|_tag/m)
    }
    for (
      const args of [
        ["customers", "show", "not-a-uuid"],
        ["tx", "requery", "abc"],
        ["jobs", "failed", "--retry", "nope"]
      ]
    ) {
      const run = await cli(...args)
      expect(run.code, args.join(" ")).toBe(2)
      expect(run.err, args.join(" ")).toMatch(/not a [a-z ]+ id \(a UUID\): /)
      expect(run.err, args.join(" ")).not.toMatch(/^\s+at |SqlError/m)
    }
    const unknown = randomUUID()
    const customer = await cli("customers", "show", unknown)
    expect(customer.code).toBe(3)
    expect(customer.err).toBe("error: no customer has this id\n")
    for (const args of [["tx", "show", unknown], ["settings", "get", "no.such.key"]]) {
      const run = await cli(...args)
      expect(run.code, args.join(" ")).toBe(3)
      plainLine(run.err)
    }

    // another process holds the embedded sandbox bank's journal (as `npm start` does): this test's
    // own process, alive, in the journal's lock file
    const lock = path.join(dataDir, "sandbox-bank.jsonl.lock")
    fs.writeFileSync(lock, String(process.pid))
    try {
      const busy = await cli("customers", "show", customerId)
      expect(busy.code).toBe(5)
      plainLine(busy.err)
      expect(busy.err).toContain(`is in use by process ${process.pid}`)
      expect(busy.out).toBe("")
    } finally {
      fs.rmSync(lock, { force: true })
    }
  }, 300_000)

  it("check-config prints plain values, secrets hidden; --json too; help fits 100 columns", async () => {
    const shown = await runCli(["check-config"], { CORE_BANKING_TIMEOUT_MS: "7000", SMTP_URL: "smtp://user:pw-secret@127.0.0.1:2525", MAIL_FROM: "kobo <a@b.c>" })
    expect(shown.code).toBe(0)
    expect(shown.out).not.toContain("_tag")
    expect(shown.out).not.toContain("_id")
    expect(shown.out).not.toContain("pw-secret")
    expect(shown.out).toMatch(/^coreBankingTimeoutMs +7000$/m)
    expect(shown.out).toMatch(/^coreBankingUrl +\(unset: the sandbox bank, in-process\)$/m)
    expect(shown.out).toMatch(/^smtp\.url +<redacted>$/m)
    expect(shown.out).toMatch(/^smtp\.from +kobo <a@b\.c>$/m)
    expect(shown.out).toMatch(/^accessTokenSecret +<redacted>$/m)
    expect(shown.out).toContain("configuration valid")
    const json = JSON.parse((await runCli(["check-config", "--json"], { METRICS_PORT: "0" })).out)
    expect(json).toMatchObject({ coreBankingUrl: null, metricsPort: null, accessTokenSecret: "<redacted>", dataDir })
    expect(JSON.stringify(json)).not.toContain("_tag")
    const invalid = await runCli(["check-config"], { PORT: "abc" })
    expect(invalid.code).toBe(1)
    expect(invalid.err).toContain("PORT")

    for (const args of [[], ["customers"], ["admin", "create"]]) {
      const help = await runCli([...args, "--help"], { NO_COLOR: "1" })
      expect(help.code, args.join(" ")).toBe(0)
      const lines = help.out.replace(/\x1b\[[0-9;]*m/g, "").split("\n")
      expect(lines.filter((line) => line.length > 100), args.join(" ")).toEqual([])
    }
  }, 300_000)

  it("customers: search as a table and as JSON, freeze and unfreeze with exit codes, refusals 3 and 4, all audited", async () => {
    const table = await cli("customers", "search", "ngozi")
    expect(table.code).toBe(0)
    expect(table.out).toMatch(/^id\s+name\s+email/)
    expect(table.out).toContain(customerId)
    const json = JSON.parse((await cli("customers", "search", "--json", "CLITEST1")).out)
    expect(json.items.map((c: any) => c.customerId)).toEqual([customerId])
    expect(json.items[0]).not.toHaveProperty("passwordHash")

    expect((await cli("customers", "freeze", customerId)).code).toBe(2) // --reason is required
    const denied = await cli("customers", "freeze", customerId, "--reason", "check", "--operator", SUPPORT)
    expect(denied.code).toBe(4)
    expect(denied.err).toMatch(/^error: your role lacks the permission [a-z_]+:[a-z_]+\n$/)
    expect((await cli("customers", "freeze", randomUUID(), "--reason", "check")).code).toBe(3)

    const frozen = JSON.parse((await cli("customers", "freeze", customerId, "--reason", "fraud report", "--json")).out)
    expect(frozen).toMatchObject({ frozen: true, customerStatus: "suspended", providerFreeze: "no_core_account" })
    const unfrozen = await cli("customers", "unfreeze", customerId)
    expect(unfrozen.code).toBe(0)
    expect(unfrozen.out).toContain("unfrozen: verified")
    expect((await cli("customers", "unfreeze", customerId)).code).toBe(4) // not suspended any more

    const verified = await cli("audit", "verify")
    expect(verified.code).toBe(0)
    expect(verified.out).toMatch(/audit chain intact: \d+ rows/)
  }, 120_000)

  it("settings: get, an invalid value refused (2) and the old one kept, a valid one stored; unknown key 3", async () => {
    expect((await cli("settings", "get", "plans.borrow.lifetimeCap")).out).toMatch(/plans\.borrow\.lifetimeCap\s+3\s+3/)
    const invalid = await cli("settings", "set", "plans.borrow.lifetimeCap", '"many"')
    expect(invalid.code).toBe(2)
    expect((await cli("settings", "set", "plans.borrow.lifetimeCap", "5", "--json")).code).toBe(0)
    expect(JSON.parse((await cli("settings", "get", "plans.borrow.lifetimeCap", "--json")).out)[0].value).toBe(5)
    expect((await cli("settings", "get", "no.such.key")).code).toBe(3)
    expect((await cli("settings", "set", "plans.borrow.lifetimeCap", "5", "--operator", SUPPORT)).code).toBe(4)
  }, 120_000)

  it("alerts, deletions, failed jobs and tx: empty lists print their headers; tx show and requery --pending with progress; unknown ids are 3", async () => {
    expect((await cli("alerts", "list")).out).toMatch(/^id\s+kind\s+severity/)
    expect(JSON.parse((await cli("deletions", "list", "--json")).out)).toMatchObject({ items: [], total: 0 })
    expect((await cli("jobs", "failed")).out).toContain("0 failed payout(s)")
    const board = JSON.parse((await cli("payouts", "status", "--json")).out)
    expect(board).toMatchObject({ activePlans: 0, dueNow: 0, claimed: 0, payoutsInFlight: 0, nextDueAt: null })
    expect(Date.parse(board.nextRun) - Date.now()).toBeLessThanOrEqual(61_000) // PAYOUT_SCHEDULE: every minute
    expect((await cli("tx", "show", randomUUID())).code).toBe(3)
    expect(JSON.parse((await cli("tx", "show", pendingId, "--json")).out)).toMatchObject({ id: pendingId, status: "pending", amountKobo: "250000" })
    expect((await cli("tx", "requery")).code).toBe(2)
    const swept = await cli("tx", "requery", "--pending")
    expect(swept.code).toBe(0)
    expect(swept.err).toContain("1/1")
    expect(swept.out).toMatch(new RegExp(`${pendingId}\\s+deposit\\s+250000\\s+pending`))
    expect(swept.out).toContain("1 pending movement(s) requeried")
    expect((await cli("alerts", "ack", randomUUID())).code).toBe(3)
  }, 120_000)

  it("admin create: a generated password printed once, or one read from stdin; both sign-in ready; a taken email 4, a short password 2, a non-superadmin 4", async () => {
    const made = await cli("admin", "create", "--email", "Tunde.Ops@kobo.test", "--first-name", "Tunde", "--last-name", "Bello", "--role", "admin")
    expect(made.code).toBe(0)
    expect(made.out).toContain("tunde.ops@kobo.test created as admin")
    const generated = /generated password \(shown this once, not stored in clear\): (\S+)/.exec(made.out)?.[1] ?? ""
    expect(generated).toMatch(/^[A-Za-z0-9_-]{24}$/)
    // the new member acts at once, as an active admin
    expect((await cli("payouts", "status", "--operator", "tunde.ops@kobo.test")).code).toBe(0)

    const typed = "a password typed into stdin"
    const piped = await runCli(["admin", "create", "--email", "amaka@kobo.test", "--first-name", "Amaka", "--last-name", "Okafor", "--role", "support", "--password-stdin", "--json"], {}, `${typed}\n`)
    expect(piped.code).toBe(0)
    expect(JSON.parse(piped.out)).toMatchObject({ email: "amaka@kobo.test", role: "support", status: "active" })
    expect(piped.out + piped.err).not.toContain(typed)

    const taken = await runCli(["admin", "create", "--email", "AMAKA@kobo.test", "--first-name", "A", "--last-name", "O", "--password-stdin"], {}, "another long password\n")
    expect(taken.code).toBe(4)
    expect(taken.err).toBe("error: another staff member already has this email\n")
    const short = await runCli(["admin", "create", "--email", "short@kobo.test", "--first-name", "S", "--last-name", "P", "--password-stdin"], {}, "too short\n")
    expect(short.code).toBe(2)
    expect(short.err).toContain("12 to 128 characters")
    const denied = await cli("admin", "create", "--email", "x@kobo.test", "--first-name", "X", "--last-name", "Y", "--operator", "tunde.ops@kobo.test")
    expect(denied.code).toBe(4)
    expect(denied.err).toMatch(/^error: your role lacks the permission [a-z_]+:[a-z_]+\n$/)

    // argon2id hashes of exactly those passwords; the creations audited and the chain intact
    const verified = await onDatabase(Effect.gen(function*() {
      const repo = yield* StaffRepo
      const hasher = yield* PasswordHasher
      const check = (email: string, password: string) =>
        Effect.flatMap(repo.findByEmail(email), (m) => hasher.verify(Redacted.make(password), Option.getOrThrow(m).passwordHash!))
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ afterJson: string }>`SELECT after_json FROM audit_log WHERE action = 'staff.create' ORDER BY seq`
      return { generated: yield* check("tunde.ops@kobo.test", generated), typed: yield* check("amaka@kobo.test", typed), rows: rows.map((r) => r.afterJson) }
    }))
    expect(verified).toMatchObject({ generated: true, typed: true })
    expect(verified.rows).toHaveLength(2)
    expect(verified.rows.join(" ")).not.toMatch(new RegExp(`${generated}|${typed}`))
    expect((await cli("audit", "verify")).code).toBe(0)
  }, 180_000)

  it("tx resolve: a movement parked after a refused reversal is resolved once, by a role allowed to (support 4, a bad outcome 2, a deposit or a second time 4, unknown 3)", async () => {
    const parkedId = randomUUID()
    await onDatabase(Effect.gen(function*() {
      const customer = yield* newCustomer("bisi.cli", "72", at, { firstName: "Bisi", lastName: "Ade" })
      // as the saga leaves it: transfer failed, reversal refused by the bank, account put back
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        INSERT INTO transactions (id, customer_id, type, purpose, amount_kobo, fee_kobo, status, failure_reason, created_at, updated_at,
          source_account_number, destination_account_number, destination_bank_code, destination_bank_name, destination_account_name,
          name_enquiry_session_id, narration, idempotency_key, request_hash,
          pnd_lifted, lien_placed, debit_state, transfer_state, reversal_state, restored)
        VALUES (${parkedId}, ${customer.id}, 'transfer', 'manual_transfer', 50000, 1075, 'pending', 'Transfer refused', ${at}, ${at},
          ${customer.coreAccountNumber}, '0123450007', '000013', 'Guaranty Trust Bank (GTBank)', 'SANDBOX ACCOUNT 0007',
          'S-CLI-2', 'Transfer', ${`cli-${parkedId}`}, 'cli-hash',
          true, true, 'applied', 'failed', 'refused', true)`
    }))
    const denied = await cli("tx", "resolve", parkedId, "--outcome", "credited_back", "--note", "bank ref 1", "--operator", SUPPORT)
    expect(denied.code).toBe(4)
    expect(denied.err).toContain("your role lacks the permission")
    expect((await cli("tx", "resolve", parkedId, "--outcome", "refunded", "--note", "bank ref 1")).code).toBe(2)
    const deposit = await cli("tx", "resolve", pendingId, "--outcome", "delivered", "--note", "bank ref 1")
    expect(deposit.code).toBe(4)
    expect(deposit.err).toContain("not a movement")
    expect((await cli("tx", "resolve", randomUUID(), "--outcome", "delivered", "--note", "bank ref 1")).code).toBe(3)

    const resolved = await cli("tx", "resolve", parkedId, "--outcome", "credited_back", "--note", "credited by hand, bank ref MC-9")
    expect(resolved.code, resolved.err).toBe(0)
    expect(resolved.out).toContain(`transaction ${parkedId} resolved credited_back: now failed`)
    const again = await cli("tx", "resolve", parkedId, "--outcome", "delivered", "--note", "bank ref 2", "--json")
    expect(again.code).toBe(4)
    expect(again.err).toContain(`transaction ${parkedId} is failed (already final or resolved)`)
    const stored = await onDatabase(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ status: string; outcome: string; note: string }>`
        SELECT t.status, r.outcome, r.note FROM transactions t JOIN movement_resolutions r ON r.transaction_id = t.id WHERE t.id = ${parkedId}`
      const audit = yield* sql<{ actorId: string }>`SELECT actor_id FROM audit_log WHERE action = 'movement.resolve' AND target_id = ${parkedId}`
      return { row, audit }
    }))
    expect(stored.row).toEqual({ status: "failed", outcome: "credited_back", note: "credited by hand, bank ref MC-9" })
    expect(stored.audit).toHaveLength(1)
  }, 180_000)

  it("admin change-email: the superadmin changes a member's email (audited, before and after); another role 4; unknown 3; taken 4", async () => {
    const made = JSON.parse((await runCli(["admin", "create", "--email", "kemi@kobo.test", "--first-name", "Kemi", "--last-name", "Lawal", "--role", "officer", "--password-stdin", "--json"], {}, "kemi's long password\n")).out)
    const changed = await cli("admin", "change-email", made.id, "--email", "Kemi.Lawal@kobo.test", "--json")
    expect(changed.code).toBe(0)
    expect(JSON.parse(changed.out)).toMatchObject({ id: made.id, email: "kemi.lawal@kobo.test" })
    expect((await cli("admin", "change-email", made.id, "--email", "x@kobo.test", "--operator", SUPPORT)).code).toBe(4)
    expect((await cli("admin", "change-email", randomUUID(), "--email", "y@kobo.test")).code).toBe(3)
    expect((await cli("admin", "change-email", made.id, "--email", ROOT.email)).code).toBe(4)
    const rows = await onDatabase(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ beforeJson: string; afterJson: string }>`SELECT before_json, after_json FROM audit_log WHERE action = 'staff.email_changed' AND target_id = ${made.id}`))
    expect(rows).toHaveLength(1)
    expect(JSON.parse(rows[0]!.beforeJson).email).toMatch(/@kobo\.test$/)
    expect(JSON.parse(rows[0]!.afterJson).email).toMatch(/@kobo\.test$/)
  }, 120_000)

  it("jobs failed --retry: a plan paused after 3 failed payouts is listed, resumed due now (4 for a refusal, 3 for an unknown id); the next run starts a new attempt through the saga", async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()]
    const planId = randomUUID()
    await onDatabase(Effect.gen(function*() {
      const customer = yield* newCustomer("tunde.cli", "71", at, { firstName: "Tunde", lastName: "Bello" })
      const plan = new Plan({
        id: PlanId.make(planId), customerId: customer.id, totalAmountKobo: 300_000n, durationDays: 3, frequency: "daily", weekDay: null,
        scheduledTime: "09:00", timeZone: "Africa/Lagos", withdrawalAccountNumber: "0123450003", withdrawalBankCode: "000013",
        withdrawalBankName: "Guaranty Trust Bank (GTBank)", withdrawalAccountName: "SANDBOX ACCOUNT 0003", nameEnquirySessionId: "S-CLI-1",
        state: "paused", cycleCount: 3, cycleBase: 0, nextCycle: 0, anchorDate: "2026-05-01", nextDueAt: null, borrowCount: 0,
        leaseUntil: null, version: 0, activatedAt: at, completedAt: null, createdAt: at, updatedAt: at
      })
      const plans = yield* PlanRepo
      yield* plans.insert(plan)
      yield* plans.ensureInstalment(new Instalment({
        planId: PlanId.make(planId), cycle: 0, amountKobo: 100_000n, kind: "scheduled", status: "open", attempts: 3, transactionId: null,
        dueAt: at, paidAt: null, createdAt: at, updatedAt: at
      }))
      // its three failed attempts, as the saga leaves them (reversed, nothing in flight)
      const sql = yield* SqlClient.SqlClient
      for (const [i, id] of ids.entries()) {
        const when = new Date(at.getTime() + i * 3_600_000)
        yield* sql`
          INSERT INTO transactions (id, customer_id, plan_id, type, purpose, amount_kobo, fee_kobo, status, failure_reason, created_at, updated_at,
            source_account_number, destination_account_number, destination_bank_code, destination_bank_name, destination_account_name,
            name_enquiry_session_id, narration, idempotency_key, request_hash)
          VALUES (${id}, ${customer.id}, ${planId}, 'transfer', 'disbursement', 100000, 1075, 'failed', 'Transfer failed', ${when}, ${when},
            ${customer.coreAccountNumber}, '0123450003', '000013', 'Guaranty Trust Bank (GTBank)', 'SANDBOX ACCOUNT 0003',
            'S-CLI-1', 'Plan payout 1 of 3', ${`plan-payout:${id}`}, ${`plan:${planId}:0`})`
      }
    }))

    const listed = await cli("jobs", "failed")
    expect(listed.code).toBe(0)
    for (const id of ids) expect(listed.out).toMatch(new RegExp(`${id}\\s+\\S+\\s+${planId}\\s+100000\\s+Transfer failed`))
    expect(listed.out).toContain("3 failed payout(s)")
    expect(JSON.parse((await cli("payouts", "status", "--json")).out)).toMatchObject({ activePlans: 0, dueNow: 0 })

    const denied = await cli("jobs", "failed", "--retry", ids[2]!, "--operator", SUPPORT)
    expect(denied.code).toBe(4)
    expect(denied.err).toMatch(/^error: your role lacks the permission [a-z_]+:[a-z_]+\n$/)
    const notPayout = await cli("jobs", "failed", "--retry", pendingId)
    expect(notPayout.code).toBe(4)
    expect(notPayout.err).toBe(`error: transaction ${pendingId} is not a payout (deposit)\n`)
    expect((await cli("jobs", "failed", "--retry", randomUUID())).code).toBe(3)

    const retried = await cli("jobs", "failed", "--retry", ids[2]!)
    expect(retried.code).toBe(0)
    expect(retried.out).toContain(`plan ${planId} (paused -> active): instalment 0 is due now`)
    expect(JSON.parse((await cli("payouts", "status", "--json")).out)).toMatchObject({ activePlans: 1, dueNow: 1 })

    // the normal job takes it: a new attempt of instalment 0 through the saga, not a second money path
    // (this customer has no account at the sandbox bank, so the saga cannot lift its PND and waits:
    // the payment itself is proven in the domain's JobRetry.test.ts)
    const run = await cli("payouts", "run", "--json")
    expect(run.code).toBe(0)
    expect(JSON.parse(run.out)).toMatchObject({ plans: 1, paid: 0 })
    // progress on stderr: what was due, then each batch's running totals
    expect(run.err).toContain("running the due-payout job: 1 plan due")
    expect(run.err).toContain("1/1 plans, 0 paid, 0 failed")
    const after = await onDatabase(Effect.gen(function*() {
      const plans = yield* PlanRepo
      const instalment = Option.getOrThrow(yield* plans.findInstalment(PlanId.make(planId), 0))
      const sql = yield* SqlClient.SqlClient
      const [attempt] = yield* sql<{ purpose: string; requestHash: string }>`SELECT purpose, request_hash FROM transactions WHERE id = ${instalment.transactionId}`
      return { plan: Option.getOrThrow(yield* plans.findById(planId)), instalment, attempt }
    }))
    expect(after.plan.state).toBe("active")
    // the attempts started again from 0 (a paused plan's 3 would pause it again at its next failure)
    expect(after.instalment).toMatchObject({ status: "open", attempts: 0 })
    expect(ids).not.toContain(after.instalment.transactionId)
    expect(after.attempt).toEqual({ purpose: "disbursement", requestHash: `plan:${planId}:0` })
    const busy = await cli("jobs", "failed", "--retry", ids[0]!)
    expect(busy.code).toBe(4)
    expect(busy.err).toContain(`a payout of instalment 0 is in progress (${after.instalment.transactionId})`)
  }, 180_000)
})
