/**
 * The console's operations pages in headless Chromium (npm run test:browser), against the real
 * service: Needs attention (counts in the navigation, each row linking to where it is dealt with),
 * names instead of ids with the id one click away, the Transactions page's requery (offered only
 * where the bank's outcome is not final, its answer shown in the row), resolve movement from the
 * row, and the CSV export of every page of the filter. Screenshots: docs/console-attention.png and
 * docs/console-transactions.png.
 */
import { execFileSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Customer, onboard } from "../../../e2e/support/Customers.js"
import { api, freshDatabaseEnv, root, type Service, startService, tempDir } from "../../../e2e/support/Service.js"
import { ARTIFACTS, CHROMIUM } from "./support/Browser.js"

const enabled = process.env.KOBO_BROWSER_TESTS === "1"

const ADMIN_EMAIL = "root.operations@example.com"
const ADMIN_PASSWORD = "operations superadmin password"
const DEPOSITS = 21

let service: Service | undefined
let drop: () => Promise<void> = async () => {}
let context: BrowserContext | undefined
let page: Page
let base = ""
let customer: Customer
let customerId = ""
let parkedId = ""
let pendingId = ""
let ticketId = ""
const problems: Array<string> = []

const shot = async (name: string, docs?: string) => {
  await page.waitForLoadState("networkidle")
  const file = path.join(ARTIFACTS, `${name}.png`)
  await page.screenshot({ path: file, fullPage: true })
  if (docs !== undefined) fs.copyFileSync(file, path.join(root, "docs", docs))
}

const heading = (name: string | RegExp) => page.getByRole("heading", { level: 1, name })
const sections = () => page.getByRole("navigation", { name: "Sections" })
/** The count the navigation shows beside a section. */
const navCount = (name: string) => sections().getByRole("link", { name: new RegExp(`^${name}`) }).locator(".nav-count").innerText()
const nav = async (name: string) => {
  await sections().getByRole("link", { name }).click()
  await page.waitForLoadState("networkidle")
}

const transfer = (token: string, destinationAccountNumber: string) =>
  api(base, "POST", "/api/v1/transactions/transfer", {
    destinationAccountNumber,
    destinationBankCode: "000013",
    destinationBankName: "GTBank",
    destinationAccountName: `SANDBOX ACCOUNT ${destinationAccountNumber.slice(-4)}`,
    amountKobo: 10_000,
    idempotencyKey: randomUUID()
  }, token)

const adminToken = async () =>
  (await api(base, "POST", "/api/v1/admin/auth/sign-in", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).body.result.token as string

const attention = async () => (await api(base, "GET", "/api/v1/admin/attention", undefined, await adminToken())).body.result

describe.skipIf(!enabled)("console operations pages in headless Chromium", () => {
  beforeAll(async () => {
    expect(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: run scripts/install-chromium.sh`).toBe(true)
    fs.mkdirSync(ARTIFACTS, { recursive: true })
    fs.mkdirSync(path.join(root, "docs"), { recursive: true })
    execFileSync(process.execPath, [path.join(root, "scripts/ensure-console.mjs")], { cwd: root, stdio: "inherit" })

    const dataDir = tempDir()
    const database = await freshDatabaseEnv()
    drop = database.drop
    service = await startService({
      DATA_DIR: dataDir,
      ADMIN_BOOTSTRAP_EMAIL: ADMIN_EMAIL,
      ADMIN_BOOTSTRAP_PASSWORD: ADMIN_PASSWORD,
      METRICS_PORT: "0",
      ...database.env
    })
    base = service.baseUrl

    // Ada Obi: deposits (more than a page of them), a movement the bank parked for an operator
    // (sandbox 0007: transfer and reversal refused), one pending at the bank (0002), an open ticket
    customer = await onboard(base, dataDir, "operations")
    for (let i = 0; i < DEPOSITS; i++) {
      expect((await api(base, "POST", "/api/v1/transactions/deposit/test", { amountKobo: 100_000 + i }, customer.token)).status).toBe(200)
    }
    const parked = await transfer(customer.token, "0123450007")
    expect(parked.body.result.status, JSON.stringify(parked.body)).toBe("pending")
    parkedId = parked.body.result.id
    const pending = await transfer(customer.token, "0123450002")
    expect(pending.body.result.status, JSON.stringify(pending.body)).toBe("pending")
    pendingId = pending.body.result.id
    customerId = parked.body.result.customerId
    const ticket = await api(base, "POST", "/api/v1/support/tickets", {
      subject: "Transfer not received",
      message: "My ₦100 transfer did not arrive.",
      category: "transfer"
    }, customer.token)
    expect(ticket.status).toBe(201)
    ticketId = ticket.body.result.ticket?.id ?? ticket.body.result.id

    context = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), "kobo-chromium-")), {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      viewport: { width: 1440, height: 900 },
      locale: "en-GB",
      timezoneId: "Africa/Lagos",
      acceptDownloads: true
    })
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base })
    page = context.pages()[0] ?? await context.newPage()
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`))
    page.on("console", (m) => {
      if (m.type() === "error" && !/status of 40[13]/.test(m.text())) problems.push(`console: ${m.text()}`)
    })

    await page.goto(`${base}/admin/sign-in`)
    await page.getByLabel("Email").fill(ADMIN_EMAIL)
    await page.getByLabel("Password").fill(ADMIN_PASSWORD)
    await page.getByRole("button", { name: "Sign in" }).click()
    await heading("Overview").waitFor()
    // a service start, a customer's history and the console's first build: slow on a busy machine
  }, 420_000)

  afterAll(async () => {
    await context?.close()
    await service?.stop("SIGKILL")
    await drop()
  })

  it("Needs attention: counts in the navigation, and each kind's rows named and linked to where they are dealt with", async () => {
    const expected = await attention()
    expect(expected.movements.count).toBeGreaterThanOrEqual(1)
    // the navigation counts what waits: the total on Needs attention, each kind on its own section
    await expect.poll(() => navCount("Needs attention")).toBe(String(expected.total))
    expect(await navCount("Support desk")).toBe(String(expected.tickets.count))
    expect(await navCount("Transactions")).toBe(String(expected.movements.count))
    expect(await navCount("Alerts")).toBe(String(expected.alerts.count))
    expect(await sections().getByRole("link", { name: /Customers/ }).locator(".nav-count").count()).toBe(0)

    await nav("Needs attention")
    await heading("Needs attention").waitFor()
    const movements = page.getByRole("region", { name: /Movements stuck or awaiting an operator/ })
    await movements.getByRole("link", { name: `Resolve movement ${parkedId.slice(0, 8)}` }).waitFor()
    expect(await movements.getByRole("link", { name: "Ada Obi" }).count()).toBeGreaterThanOrEqual(1)
    const alerts = page.getByRole("region", { name: /Open alerts/ })
    await alerts.getByRole("link", { name: "reversal refused" }).waitFor()
    const tickets = page.getByRole("region", { name: /Tickets waiting on staff/ })
    await tickets.getByRole("link", { name: /^TKT-/ }).waitFor()
    expect(await tickets.getByRole("link", { name: "Ada Obi" }).count()).toBe(1)
    await page.getByRole("region", { name: /Approvals waiting/ }).getByText("No request waits for a second member.").waitFor()
    await shot("20-attention", "console-attention.png")

    // a ticket row opens the ticket; the alert about the parked movement opens the movement
    await tickets.getByRole("link", { name: /^TKT-/ }).click()
    await page.waitForURL(`**/admin/support/${ticketId}`)
    await heading(/Transfer not received/).waitFor()
    await page.getByRole("link", { name: "Ada Obi" }).waitFor()
    await nav("Needs attention")
    await page.getByRole("region", { name: /Open alerts/ }).getByRole("link", { name: "reversal refused" }).click()
    await page.waitForURL(`**/admin/transactions?id=${parkedId}`)
  })

  it("resolves the parked movement from its row, after a confirmation; the count goes down", async () => {
    const before = await attention()
    await nav("Needs attention")
    await page.getByRole("link", { name: `Resolve movement ${parkedId.slice(0, 8)}` }).click()
    await heading("Transactions").waitFor()
    await page.getByRole("cell", { name: "Ada Obi" }).first().waitFor()
    await page.getByRole("button", { name: /^Resolve…/ }).click()
    await page.getByLabel("Note").fill("Bank ops confirmed the manual credit, ref MC-91")
    await page.getByRole("button", { name: "Credited back…" }).click()
    await page.getByRole("group", { name: "Confirm the resolution" }).getByRole("button", { name: "Confirm: credited back" }).click()
    await page.getByRole("status").filter({ hasText: "now failed" }).waitFor()
    // the row now says failed and final: nothing left to requery or resolve
    await page.getByRole("cell", { name: "final" }).waitFor()
    expect(await page.getByRole("button", { name: /^Resolve…/ }).count()).toBe(0)
    const after = await attention()
    expect(after.movements.count).toBe(before.movements.count - 1)
    expect(after.total).toBeLessThan(before.total)
    await expect.poll(() => navCount("Needs attention")).toBe(String(after.total))
  })

  it("Transactions: names with the id a click away; requery only where the outcome is not final, its answer in the row", async () => {
    await nav("Transactions")
    await heading("Transactions").waitFor()
    // the page still holds the filter of the movement resolved above
    await page.getByLabel("Transaction id").fill("")
    await page.getByLabel("Customer id").fill(customerId)
    await page.getByRole("button", { name: "Search" }).click()
    await page.getByText(`of ${Math.ceil((DEPOSITS + 2) / 20)} · ${DEPOSITS + 2} in all`).waitFor()
    // customers by name, linked to their page, and a button copying the id
    const named = page.getByRole("link", { name: "Ada Obi" })
    expect(await named.count()).toBe(20)
    await page.getByRole("button", { name: "Copy id of Ada Obi" }).first().click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(customerId)

    // only the movement pending at the bank offers a requery (the deposits and the resolved one are final)
    const requery = page.getByRole("button", { name: /^Requery/ })
    expect(await requery.count()).toBe(1)
    expect(await requery.innerText()).toContain(pendingId.slice(0, 8))
    await requery.click()
    await page.getByRole("status").filter({ hasText: `Requeried ${pendingId.slice(0, 8)}` }).waitFor()
    const row = page.getByRole("row").filter({ has: page.getByText(pendingId.slice(0, 8), { exact: true }) })
    await row.getByText(/^bank: /).waitFor()
    await page.getByRole("heading", { name: `Requery of ${pendingId.slice(0, 8)}` }).waitFor()
    await shot("21-transactions", "console-transactions.png")
  })

  it("exports the filtered list as CSV: every page, not only the one shown", async () => {
    await page.getByLabel("Purpose").selectOption("deposit")
    await page.getByRole("button", { name: "Search" }).click()
    await page.getByText(`· ${DEPOSITS} in all`).waitFor()
    expect(await page.getByRole("link", { name: "Ada Obi" }).count()).toBe(20)
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()])
    await page.getByRole("status").filter({ hasText: `Exported ${DEPOSITS} transactions` }).waitFor()
    expect(download.suggestedFilename()).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/)
    const text = fs.readFileSync((await download.path())!, "utf8")
    const lines = text.trimEnd().split("\r\n")
    expect(lines[0]).toBe(
      "id,createdAt,customerId,customerName,type,purpose,amountKobo,feeKobo,status,awaitsOperator,retrievalReference,transferReference,failureReason,retryCount,updatedAt"
    )
    expect(lines).toHaveLength(DEPOSITS + 1)
    const rows = lines.slice(1).map((l) => l.split(","))
    expect(new Set(rows.map((r) => r[0])).size).toBe(DEPOSITS)
    expect(rows.every((r) => r[3] === "Ada Obi" && r[5] === "deposit" && r[2] === customerId)).toBe(true)
    expect(rows.map((r) => BigInt(r[6]!)).sort((a, b) => (a < b ? -1 : 1))[0]).toBe(100_000n)
  })

  it("names staff and customers on the support desk and in the audit log", async () => {
    await nav("Support desk")
    await heading("Support desk").waitFor()
    await page.getByRole("cell", { name: "Ada Obi" }).first().waitFor()
    await nav("Audit log")
    await heading("Audit log").waitFor()
    // The audit-movements job folds the setup's movement changes (more than a page of them) into the
    // log whenever it runs, maybe after the admin's last action; newest first, the first page may
    // then hold no staff row (CI saw it). Filtered to a staff action, the admin's sign-ins, it does.
    await page.getByLabel("Action").fill("staff.sign_in")
    await page.getByRole("button", { name: "Filter" }).click()
    // the bootstrapped superadmin has no name: their email stands for it
    await page.getByRole("cell", { name: `staff ${ADMIN_EMAIL}` }).first().waitFor()
    await page.getByRole("button", { name: `Copy id of ${ADMIN_EMAIL}` }).first().waitFor()
  })

  it("logged no page error or CSP violation", () => {
    expect(problems).toEqual([])
  })
})
