/**
 * The admin console in headless Chromium (npm run test:browser), against the real service as a
 * child process: sign in with the keyboard, the dashboard's charts, a customer found, opened, frozen
 * and unfrozen, a requery, a ticket answered with an internal note kept apart, a setting changed,
 * the audit chain verified; a support member is offered none of the superadmin's actions. Every
 * page's form controls have a label, no page logs an error (a CSP violation would), and each page
 * is saved as a PNG under .artifacts/console/ (the dashboard also as docs/console-dashboard.png).
 */
import { execFileSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Customer, onboard, outboxCode } from "../../../e2e/support/Customers.js"
import { api, freshDatabaseEnv, root, type Service, startService, tempDir } from "../../../e2e/support/Service.js"
import { ARTIFACTS, CHROMIUM, unlabelledControls } from "./support/Browser.js"

// the unit suite's glob (packages/*/test/**/*.test.ts) matches this file too: it runs only under
// vitest.browser.config.ts, which sets KOBO_BROWSER_TESTS
const enabled = process.env.KOBO_BROWSER_TESTS === "1"

const ADMIN_EMAIL = "root.console@example.com"
const ADMIN_PASSWORD = "console superadmin password"

let service: Service | undefined
let drop: () => Promise<void> = async () => {}
let context: BrowserContext | undefined
let page: Page
let base = ""
let dataDir = ""
let customer: Customer
let ticketId = ""
const problems: Array<string> = []

const shot = async (name: string, target: Page = page) => {
  await target.waitForLoadState("networkidle")
  await target.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true })
}

/** Inputs, selects and textareas without an accessible name from a label or aria attribute. */

const expectLabelled = async (target: Page = page) => expect(await unlabelledControls(target)).toEqual([])

const heading = (name: string | RegExp, target: Page = page) => target.getByRole("heading", { level: 1, name })

const nav = async (name: string) => {
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name }).click()
  await page.waitForLoadState("networkidle")
}

/** Who has focus: its tag and its accessible label text. */
const focused = (target: Page = page) =>
  target.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    const labels = (el as HTMLInputElement | null)?.labels
    return {
      tag: el?.tagName.toLowerCase(),
      label: labels && labels.length > 0 ? labels[0]!.textContent : el?.textContent?.trim(),
      outline: el ? getComputedStyle(el).outlineStyle : "none"
    }
  })

const adminToken = async () =>
  (await api(base, "POST", "/api/v1/admin/auth/sign-in", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).body.result.token as string

const watch = (target: Page) => {
  target.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`))
  target.on("console", (m) => {
    if (m.type() === "error" && !/status of 40[13]/.test(m.text())) problems.push(`console: ${m.text()}`)
  })
}

describe.skipIf(!enabled)("admin console in headless Chromium", () => {
  beforeAll(async () => {
    expect(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: run scripts/install-chromium.sh`).toBe(true)
    fs.mkdirSync(ARTIFACTS, { recursive: true })
    // what `npm start` does first: build the console when dist is missing or stale
    execFileSync(process.execPath, [path.join(root, "scripts/ensure-console.mjs")], { cwd: root, stdio: "inherit" })

    dataDir = tempDir()
    const database = await freshDatabaseEnv()
    drop = database.drop
    service = await startService({
      DATA_DIR: dataDir,
      ADMIN_BOOTSTRAP_EMAIL: ADMIN_EMAIL,
      ADMIN_BOOTSTRAP_PASSWORD: ADMIN_PASSWORD,
      // no Prometheus endpoint: its fixed default port may be taken by another service on the machine
      METRICS_PORT: "0",
      ...database.env
    })
    base = service.baseUrl

    // a customer with a deposit and a support ticket, through the customer API
    customer = await onboard(base, dataDir, "console")
    expect((await api(base, "POST", "/api/v1/transactions/deposit/test", { amountKobo: 2_500_000 }, customer.token)).status).toBe(200)
    const ticket = await api(base, "POST", "/api/v1/support/tickets", {
      subject: "Deposit not showing",
      message: "I sent ₦25,000 this morning and cannot see it.",
      category: "deposit"
    }, customer.token)
    expect(ticket.status).toBe(201)
    ticketId = ticket.body.result.ticket?.id ?? ticket.body.result.id
    expect(ticketId).toMatch(/^[0-9a-f-]{36}$/)

    context = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), "kobo-chromium-")), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync"
      ],
      viewport: { width: 1440, height: 900 },
      locale: "en-GB",
      timezoneId: "Africa/Lagos"
    })
    page = context.pages()[0] ?? await context.newPage()
    watch(page)
  })

  afterAll(async () => {
    await context?.close()
    await service?.stop("SIGKILL")
    await drop()
  })

  it("serves the app at /admin with its own CSP, assets with their content types", async () => {
    const index = await fetch(`${base}/admin/customers`)
    expect(index.status).toBe(200)
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(index.headers.get("content-security-policy")).toContain("script-src 'self'")
    const html = await index.text()
    const script = html.match(/src="(\/admin\/assets\/[^"]+\.js)"/)![1]!
    const css = html.match(/href="(\/admin\/assets\/[^"]+\.css)"/)![1]!
    const js = await fetch(`${base}${script}`)
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(js.headers.get("cache-control")).toContain("immutable")
    expect((await fetch(`${base}${css}`)).headers.get("content-type")).toBe("text/css; charset=utf-8")
    expect((await fetch(`${base}/admin/assets/missing.js`)).status).toBe(404)
    // nothing outside dist: an encoded ../ is a client route like any other
    const escape = await fetch(`${base}/admin/..%2f..%2f..%2fpackage.json`)
    expect(escape.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(await escape.text()).not.toContain("workspaces")
    // the API keeps its own strict policy
    expect((await fetch(`${base}/api/v1/openapi.json`)).headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'")
  })

  it("signs in with the keyboard alone, and the dashboard draws its charts", async () => {
    await page.goto(`${base}/admin`)
    await expect.poll(() => page.url()).toContain("/admin/sign-in")
    await heading("Kobo back office").waitFor()
    await expectLabelled()
    await shot("01-sign-in")

    // Tab reaches the email field, the password field and the button, each with a visible focus ring
    await page.keyboard.press("Tab")
    expect(await focused()).toMatchObject({ tag: "input", label: "Email" })
    expect((await focused()).outline).not.toBe("none")
    await page.keyboard.type(ADMIN_EMAIL)
    await page.keyboard.press("Tab")
    expect(await focused()).toMatchObject({ tag: "input", label: "Password" })
    await page.keyboard.type(ADMIN_PASSWORD)
    await page.keyboard.press("Tab")
    expect(await focused()).toMatchObject({ tag: "button", label: "Sign in" })
    expect((await focused()).outline).not.toBe("none")
    await page.keyboard.press("Enter")

    await heading("Overview").waitFor()
    await page.locator(".chart-canvas canvas").first().waitFor()
    expect(await page.locator(".chart-canvas canvas").count()).toBeGreaterThanOrEqual(4)
    await expect.poll(() => page.getByText("Customers", { exact: true }).count()).toBeGreaterThan(0)
    await expectLabelled()
    await page.getByLabel("Window (days)").selectOption("7")
    await page.waitForLoadState("networkidle")
    await page.getByLabel("Window (days)").selectOption("30")
    await page.locator(".chart-canvas canvas").first().waitFor()
    await shot("02-overview")
    fs.mkdirSync(path.join(root, "docs"), { recursive: true })
    fs.copyFileSync(path.join(ARTIFACTS, "02-overview.png"), path.join(root, "docs/console-dashboard.png"))
  })

  it("finds a customer, opens them, freezes and unfreezes", async () => {
    await nav("Customers")
    await heading("Customers").waitFor()
    await page.getByLabel("Search", { exact: true }).fill(customer.email)
    await page.getByRole("button", { name: "Search" }).click()
    const row = page.getByRole("link", { name: "Ada Obi" })
    await expect.poll(() => row.count()).toBe(1)
    await expectLabelled()
    await shot("03-customers")

    await row.click()
    await heading("Ada Obi").waitFor()
    await page.getByText(customer.email).first().waitFor()
    await page.getByLabel("Reason for freezing").fill("Suspected account takeover (browser test)")
    // a freeze asks first, saying what will happen; cancelling changes nothing
    await page.getByRole("button", { name: "Freeze customer…" }).click()
    const confirmFreeze = page.getByRole("group", { name: "Confirm the freeze" })
    await confirmFreeze.waitFor()
    const said = await confirmFreeze.innerText()
    expect(said).toContain("Freeze Ada Obi now?")
    expect(said).toMatch(/cannot sign in, transfer, withdraw/)
    expect(said).toMatch(/bank account is frozen at the bank/)
    expect(said).toMatch(/Four-eyes/)
    await expectLabelled()
    await shot("04a-customer-freeze-confirm")
    const token = await adminToken()
    const search = await api(base, "GET", `/api/v1/admin/customers?q=${encodeURIComponent(customer.email)}`, undefined, token)
    const customerId = search.body.result.items[0].id
    const statusNow = async () => (await api(base, "GET", `/api/v1/admin/customers/${customerId}`, undefined, token)).body.result.customer.customerStatus
    await confirmFreeze.getByRole("button", { name: "Cancel" }).click()
    expect(await statusNow()).toBe("active")
    await page.getByRole("button", { name: "Freeze customer…" }).click()
    await page.getByRole("button", { name: "Confirm: freeze" }).click()
    await page.getByRole("status").filter({ hasText: "Frozen" }).waitFor()
    await page.getByRole("button", { name: "Unfreeze customer…" }).waitFor()
    await expectLabelled()
    await shot("04-customer-frozen")
    expect(await statusNow()).toBe("suspended")

    // an unfreeze asks too: the bank releases the account first, four-eyes may hold it for a second member
    await page.getByRole("button", { name: "Unfreeze customer…" }).click()
    const confirmUnfreeze = page.getByRole("group", { name: "Confirm the unfreeze" })
    expect(await confirmUnfreeze.innerText()).toMatch(/released at the bank[\s\S]*Four-eyes/)
    expect(await statusNow()).toBe("suspended")
    await confirmUnfreeze.getByRole("button", { name: "Confirm: unfreeze" }).click()
    await page.getByRole("status").filter({ hasText: "Unfrozen" }).waitFor()
    await page.getByRole("button", { name: "Freeze customer…" }).waitFor()
    await shot("05-customer")
    expect((await api(base, "GET", `/api/v1/admin/customers/${customerId}`, undefined, token)).body.result.customer.customerStatus).toBe("active")
  })

  it("searches transactions: a deposit is final at the bank, so no requery is offered for it", async () => {
    await nav("Transactions")
    await heading("Transactions").waitFor()
    await page.getByLabel("Purpose").selectOption("deposit")
    await page.getByRole("button", { name: "Search" }).click()
    await page.getByRole("cell", { name: "final" }).first().waitFor()
    expect(await page.getByRole("button", { name: /^Requery/ }).count()).toBe(0)
    await expectLabelled()
    await shot("06-transactions")
  })

  it("resolves a movement the bank refused to reverse, only after a confirmation", async () => {
    // a transfer to the sandbox's 0007: the bank refuses it and then its reversal, and the saga parks it
    // (the customer signs in again: the freeze above revoked their sessions)
    const login = await api(base, "POST", "/api/v1/auth/login", { email: customer.email, password: customer.password })
    const sent = await api(base, "POST", "/api/v1/transactions/transfer", {
      destinationAccountNumber: "0123450007",
      destinationBankCode: "000013",
      destinationBankName: "GTBank",
      destinationAccountName: "SANDBOX ACCOUNT 0007",
      amountKobo: 10_000,
      idempotencyKey: randomUUID()
    }, login.body.result.accessToken)
    expect(sent.body.result.status, JSON.stringify(sent.body)).toBe("pending")
    const id = sent.body.result.id as string
    await nav("Transactions")
    await heading("Transactions").waitFor()
    await page.getByLabel("Transaction id").fill(id)
    await page.getByLabel("Purpose").selectOption("")
    await page.getByRole("button", { name: "Search" }).click()
    await page.getByRole("button", { name: /^Requery/ }).first().click()
    await page.getByRole("heading", { name: "Resolve movement" }).waitFor()
    await page.getByLabel("Note").fill("Bank ops confirmed the manual credit, ref MC-77")
    await page.getByRole("button", { name: "Credited back…" }).click()
    // nothing is sent before the confirmation; cancel goes back
    const confirm = page.getByRole("group", { name: "Confirm the resolution" })
    await confirm.waitFor()
    await expectLabelled()
    await shot("06b-resolve-movement")
    const token = await adminToken()
    const before = await api(base, "GET", `/api/v1/admin/transactions?id=${id}`, undefined, token)
    expect(before.body.result.items[0].status).toBe("pending")
    await confirm.getByRole("button", { name: "Confirm: credited back" }).click()
    await page.getByRole("status").filter({ hasText: "now failed" }).waitFor()
    const after = await api(base, "GET", `/api/v1/admin/transactions?id=${id}`, undefined, token)
    expect(after.body.result.items[0].status).toBe("failed")
  })

  it("answers a ticket and adds an internal note, shown apart and never to the customer", async () => {
    await nav("Support desk")
    await heading("Support desk").waitFor()
    await expectLabelled()
    await shot("07-support")
    await page.getByRole("link", { name: /^TKT-/ }).first().click()
    await heading(/Deposit not showing/).waitFor()

    await page.getByLabel("Reply to the customer").fill("Thanks, we can see it and it is on its way.")
    await page.getByRole("button", { name: "Send reply" }).click()
    const conversation = page.getByRole("region", { name: /Conversation/ })
    await conversation.getByText("Thanks, we can see it and it is on its way.").waitFor()

    await page.getByLabel("Internal note", { exact: true }).fill("Checked with the bank: settlement delay on their side.")
    await page.getByRole("button", { name: "Add note" }).click()
    const notes = page.getByRole("region", { name: /Internal notes/ })
    await notes.getByText("Checked with the bank: settlement delay on their side.").waitFor()
    // the note is in the notes panel only, which looks different from the conversation
    expect(await conversation.getByText("settlement delay").count()).toBe(0)
    const [convBg, notesBg] = await Promise.all([
      conversation.evaluate((el) => getComputedStyle(el).backgroundColor),
      notes.evaluate((el) => getComputedStyle(el).backgroundColor)
    ])
    expect(convBg).not.toBe(notesBg)
    await expectLabelled()
    await shot("08-ticket")

    const mine = await api(base, "GET", `/api/v1/support/tickets/${ticketId}`, undefined, customer.token)
    expect(JSON.stringify(mine.body)).toContain("on its way")
    expect(JSON.stringify(mine.body)).not.toContain("settlement delay")
  })

  it("changes a setting", async () => {
    await nav("Settings")
    await heading("Settings").waitFor()
    const borrows = page.locator("li.card.setting").filter({ hasText: "plans.borrow.lifetimeCap" })
    await borrows.getByLabel("Borrows per plan").fill("4")
    await borrows.getByRole("button", { name: "Review change" }).click()
    await borrows.getByRole("group", { name: /Review the change/ }).getByText("Borrows per plan: 3 → 4").waitFor()
    await borrows.getByRole("button", { name: "Save change" }).click()
    await borrows.getByRole("status").filter({ hasText: "Saved: Borrows per plan." }).waitFor()
    await expectLabelled()
    await shot("09-settings")
    const settings = await api(base, "GET", "/api/v1/admin/settings", undefined, await adminToken())
    expect(settings.body.result.find((s: { key: string }) => s.key === "plans.borrow.lifetimeCap").value).toBe(4)
  })

  it("verifies the audit log and shows the other pages", async () => {
    await nav("Audit log")
    await heading("Audit log").waitFor()
    await page.getByRole("button", { name: "Verify chain" }).click()
    await page.getByRole("status").filter({ hasText: "Chain intact" }).waitFor()
    await page.getByRole("cell", { name: "settings.update" }).first().waitFor()
    await expectLabelled()
    await shot("10-audit")

    for (const [name, title, file] of [
      ["Failed jobs", "Failed jobs", "11-failed-jobs"],
      ["Deletions", "Deletions review", "12-deletions"],
      ["Approvals", "Approvals", "13-approvals"],
      ["Alerts", "Alerts", "14-alerts"]
    ] as const) {
      await nav(name)
      await heading(title).waitFor()
      await expectLabelled()
      await shot(file)
    }

    // every page is a real link a keyboard reaches: Tab from the top lands on the skip link, then the sections
    await page.goto(`${base}/admin/overview`)
    await heading("Overview").waitFor()
    await page.keyboard.press("Tab")
    expect((await focused()).label).toBe("Skip to content")
  })

  it("offers a support member none of the actions their role lacks", async () => {
    const token = await adminToken()
    const email = `support.${Date.now()}@example.com`
    const invited = await api(base, "POST", "/api/v1/admin/admins", { email, firstName: "Sade", lastName: "Bello", role: "support" }, token)
    expect(invited.status).toBe(201)
    const password = "support member password"
    const used = await api(base, "POST", `/api/v1/admin/auth/links/${outboxCode(dataDir, email, "staff_invite")}`, { password })
    expect(used.status).toBe(200)

    // a new tab: its own sessionStorage, so signed out
    const support = await context!.newPage()
    watch(support)
    await support.goto(`${base}/admin/sign-in`)
    await support.getByLabel("Email").fill(email)
    await support.getByLabel("Password").fill(password)
    await support.getByRole("button", { name: "Sign in" }).click()
    const sections = support.getByRole("navigation", { name: "Sections" })
    await sections.getByRole("link", { name: "Support desk" }).waitFor()
    expect(await sections.getByRole("link", { name: "Settings" }).count()).toBe(0)
    expect(await sections.getByRole("link", { name: "Audit log" }).count()).toBe(0)

    await sections.getByRole("link", { name: "Customers" }).click()
    await heading("Customers", support).waitFor()
    await support.getByRole("link", { name: "Ada Obi" }).click()
    await heading("Ada Obi", support).waitFor()
    await support.getByText("Your role cannot freeze customers.").waitFor()
    expect(await support.getByRole("button", { name: /freeze/i }).count()).toBe(0)
    await shot("15-support-role-customer", support)
    await support.close()
  })

  it("logged no page error or CSP violation", () => {
    expect(problems).toEqual([])
  })
})
