/**
 * The customer page and the settings forms in headless Chromium (npm run test:browser), against the
 * real service as a child process: the plan made readable (cycles, naira, fee, the next due date in
 * the plan's zone, the bank's name, Borrow and Extra Cash used), the message log (never a code), and
 * settings changed through naira and percentage inputs, checked, reviewed in words, then saved, with
 * the server's field errors shown next to the field. Screenshots: docs/console-customer.png and
 * docs/console-settings.png.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Customer, customerWithPlan, outboxCode } from "../../../e2e/support/Customers.js"
import { api, freshDatabaseEnv, root, type Service, startService, tempDir } from "../../../e2e/support/Service.js"
import { ARTIFACTS, CHROMIUM, unlabelledControls } from "./support/Browser.js"

const enabled = process.env.KOBO_BROWSER_TESTS === "1"

const ADMIN_EMAIL = "root.ops@example.com"
const ADMIN_PASSWORD = "console superadmin password"

let service: Service | undefined
let drop: () => Promise<void> = async () => {}
let context: BrowserContext | undefined
let page: Page
let base = ""
let dataDir = ""
let customer: Customer
const problems: Array<string> = []

const shot = async (name: string, docs?: string) => {
  await page.waitForLoadState("networkidle")
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true })
  if (docs !== undefined) fs.copyFileSync(path.join(ARTIFACTS, `${name}.png`), path.join(root, "docs", docs))
}


const heading = (name: string | RegExp) => page.getByRole("heading", { level: 1, name })

const nav = async (name: string) => {
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name }).click()
  await page.waitForLoadState("networkidle")
}

const token = async () =>
  (await api(base, "POST", "/api/v1/admin/auth/sign-in", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).body.result.token as string

const settingValue = async (key: string) =>
  (await api(base, "GET", "/api/v1/admin/settings", undefined, await token())).body.result.find((s: { key: string }) => s.key === key).value

/** The card of one setting (by its key, shown in the card's heading). */
const card = (key: string) => page.locator("li.card.setting").filter({ has: page.getByRole("heading", { name: new RegExp(key.replace(/\./g, "\\.")) }) })

describe.skipIf(!enabled)("the customer page and the settings forms", () => {
  beforeAll(async () => {
    expect(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: run scripts/install-chromium.sh`).toBe(true)
    fs.mkdirSync(ARTIFACTS, { recursive: true })
    execFileSync(process.execPath, [path.join(root, "scripts/ensure-console.mjs")], { cwd: root, stdio: "inherit" })
    dataDir = tempDir()
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
    // a funded customer with a 3-day plan of ₦1,000 a day at 09:00 Lagos time to GTBank
    customer = await customerWithPlan(base, dataDir, "opsb")
    context = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), "kobo-chromium-")), {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"],
      viewport: { width: 1440, height: 900 },
      locale: "en-GB",
      // not the plan's zone: the next due date must still be shown in Lagos time
      timezoneId: "Europe/London"
    })
    page = context.pages()[0] ?? await context.newPage()
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`))
    page.on("console", (m) => {
      if (m.type() === "error" && !/status of 40[0134]/.test(m.text())) problems.push(`console: ${m.text()}`)
    })
    await page.goto(`${base}/admin/sign-in`)
    await page.getByLabel("Email").fill(ADMIN_EMAIL)
    await page.getByLabel("Password").fill(ADMIN_PASSWORD)
    await page.getByRole("button", { name: "Sign in" }).click()
    await heading("Overview").waitFor()
  })

  afterAll(async () => {
    await context?.close()
    await service?.stop("SIGKILL")
    await drop()
  })

  it("shows the plan readably and the messages sent, never a code", async () => {
    await nav("Customers")
    await page.getByLabel("Search", { exact: true }).fill(customer.email)
    await page.getByRole("button", { name: "Search" }).click()
    await page.getByRole("link", { name: "Ada Obi" }).click()
    await heading("Ada Obi").waitFor()

    const plan = page.getByRole("region", { name: "Plan" })
    await plan.getByText("0 of 3", { exact: true }).waitFor()
    const text = await plan.innerText()
    expect(text).toContain("paying on schedule")
    expect(text).toContain("₦1,000.00")
    expect(text).toContain("+ fee ₦10.75")
    expect(text).toContain("₦3,000.00")
    expect(text).toContain("Guaranty Trust Bank (GTBank)")
    expect(text).toContain("0123450001")
    // 09:00 in the plan's zone, named, whatever the browser's own zone
    expect(text).toMatch(/09:00 \(Africa\/Lagos\)/)
    expect(text).toContain("0 of 3 used")
    expect(text).toMatch(/0 of 5 used \(0 of 3 today\)/)
    expect(text).toContain("fee 4%")

    const messages = page.getByRole("region", { name: "Messages sent" })
    const row = messages.getByRole("row").filter({ hasText: "email verification" })
    await row.waitFor()
    expect(await row.innerText()).toMatch(/email[\s\S]*sent[\s\S]*handed to the provider[\s\S]*used/i)
    const [local] = customer.email.split("@")
    expect(await row.innerText()).toContain(`${local![0]}***@example.com`)
    const code = outboxCode(dataDir, customer.email, "email_verification")
    expect(await page.locator("body").innerText()).not.toContain(code)
    expect(await page.content()).not.toContain(code)
    expect(await unlabelledControls(page)).toEqual([])
    await shot("20-customer-plan-messages", "console-customer.png")
  })

  it("changes a setting through its form: checked, reviewed in words, saved exactly in basis points", async () => {
    await nav("Settings")
    await heading("Settings").waitFor()
    expect(await page.locator("textarea").count()).toBe(0)
    const extra = card("plans.extraCash")
    await extra.getByLabel("Extra Cash fee").fill("4.25")
    await extra.getByLabel("Extra Cash uses per day").fill("-1")
    await extra.getByRole("button", { name: "Review change" }).click()
    // refused before anything is sent, next to the field
    await extra.getByText("Enter a whole number").waitFor()
    expect(await extra.getByLabel("Extra Cash uses per day").getAttribute("aria-invalid")).toBe("true")
    await extra.getByLabel("Extra Cash uses per day").fill("4")
    await extra.getByRole("button", { name: "Review change" }).click()
    const review = extra.getByRole("group", { name: "Review the change to Extra Cash" })
    await review.waitFor()
    expect(await review.innerText()).toContain("Extra Cash fee: 4% → 4.25%")
    expect(await review.innerText()).toContain("Extra Cash uses per day: 3 → 4")
    expect(await settingValue("plans.extraCash")).toEqual({ feeBasisPoints: "400", perDay: 3, perPlan: 5 })
    await expect.poll(() => unlabelledControls(page)).toEqual([])
    await shot("21-settings-review", "console-settings.png")
    await review.getByRole("button", { name: "Save change" }).click()
    await extra.getByRole("status").filter({ hasText: "Saved: Extra Cash." }).waitFor()
    expect(await settingValue("plans.extraCash")).toEqual({ feeBasisPoints: "425", perDay: 4, perPlan: 5 })
  })

  it("enters naira for the fee schedule and stores exact kobo", async () => {
    const nip = card("fees.nip")
    await nip.getByLabel("Tier 1: fee").fill("12.5")
    await nip.getByLabel("Tier 2: fee").fill("5")
    await nip.getByRole("button", { name: "Review change" }).click()
    // the server's rule (fees never go down from one tier to the next), checked in the form
    await nip.getByText("Fees must not go down from one tier to the next").waitFor()
    await nip.getByLabel("Tier 2: fee").fill("25.01")
    await nip.getByRole("button", { name: "Review change" }).click()
    const review = nip.getByRole("group", { name: /Review the change to/ })
    expect(await review.innerText()).toMatch(/up to ₦5,000\.00: ₦10\.00;[\s\S]*→ up to ₦5,000\.00: ₦12\.50; up to ₦50,000\.00: ₦25\.01/)
    await review.getByRole("button", { name: "Save change" }).click()
    await nip.getByRole("status").filter({ hasText: "Saved" }).waitFor()
    const fees = await settingValue("fees.nip")
    expect(fees.tiers.map((t: { feeKobo: string }) => t.feeKobo)).toEqual(["1250", "2501", "5000"])
  })

  it("shows the server's field errors next to the field it names", async () => {
    // the form checks what the server checks, so a refusal is rare (a rule changed on the server, a
    // race); to see one, the request leaves with the wait made 0 and the real server judges it
    await page.route("**/api/v1/admin/settings/plans.payoutRetry", async (route) => {
      const sent = JSON.parse(route.request().postData() ?? "{}")
      const response = await route.fetch({ postData: JSON.stringify({ value: { ...sent.value, retryAfterMinutes: 0 } }) })
      await route.fulfill({ response })
    })
    const retry = card("plans.payoutRetry")
    await retry.getByLabel("Minutes between tries").fill("90")
    await retry.getByRole("button", { name: "Review change" }).click()
    await retry.getByRole("button", { name: "Save change" }).click()
    const field = retry.locator(".field").filter({ has: page.getByLabel("Minutes between tries") })
    await field.locator(".field-error").filter({ hasText: /greater than or equal to 1/ }).waitFor()
    expect(await field.getByLabel("Minutes between tries").getAttribute("aria-invalid")).toBe("true")
    await page.unroute("**/api/v1/admin/settings/plans.payoutRetry")
    expect(await settingValue("plans.payoutRetry")).toEqual({ maxAttempts: 3, retryAfterMinutes: 60 })
  })

  it("logged no page error or CSP violation", () => {
    expect(problems).toEqual([])
  })
})
