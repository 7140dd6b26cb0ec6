/**
 * The console's Staff page in headless Chromium (npm run test:browser), against the real service as
 * a child process: a superadmin lists staff, invites, resends an invite, changes a role and
 * deactivates and reactivates a member, each change only after a confirmation that says what
 * happens (and nothing sent before it); the member's session ends at once. An admin is not offered
 * the page. The page is saved as docs/console-staff.png.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { outboxCode } from "../../../e2e/support/Customers.js"
import { api, freshDatabaseEnv, root, type Service, startService, tempDir } from "../../../e2e/support/Service.js"
import { ARTIFACTS, CHROMIUM, unlabelledControls } from "./support/Browser.js"

const enabled = process.env.KOBO_BROWSER_TESTS === "1"

const ROOT_EMAIL = "root.staff@example.com"
const ROOT_PASSWORD = "staff page superadmin password"

let service: Service | undefined
let drop: () => Promise<void> = async () => {}
let context: BrowserContext | undefined
let page: Page
let base = ""
let dataDir = ""
const problems: Array<string> = []

interface Member {
  readonly id: string
  readonly email: string
  readonly password: string
  readonly token: string
}

const rootToken = async () =>
  (await api(base, "POST", "/api/v1/admin/auth/sign-in", { email: ROOT_EMAIL, password: ROOT_PASSWORD })).body.result.token as string

const staffList = async () =>
  (await api(base, "GET", "/api/v1/admin/staff", undefined, await rootToken())).body.result.items as Array<Record<string, any>>

const staffRow = async (id: string) => (await staffList()).find((m) => m.id === id)!

/** Invites a member through the API and, unless `pending`, signs them in through their link. */
const invite = async (firstName: string, lastName: string, role: string): Promise<Member> => {
  const email = `${firstName.toLowerCase()}.${Date.now()}@example.com`
  const invited = await api(base, "POST", "/api/v1/admin/admins", { email, firstName, lastName, role }, await rootToken())
  expect(invited.status).toBe(201)
  const password = `${firstName} long password`
  const used = await api(base, "POST", `/api/v1/admin/auth/links/${outboxCode(dataDir, email, "staff_invite")}`, { password })
  expect(used.status).toBe(200)
  return { id: invited.body.result.id, email, password, token: used.body.result.token }
}

const shot = async (name: string, target: Page = page) => {
  await target.waitForLoadState("networkidle")
  await target.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true })
}


const heading = (name: string | RegExp, target: Page = page) => target.getByRole("heading", { level: 1, name })
const flash = (text: string | RegExp, target: Page = page) => target.getByRole("status").filter({ hasText: text }).waitFor()

const watch = (target: Page) => {
  target.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`))
  target.on("console", (m) => {
    if (m.type() === "error" && !/status of 40[13]/.test(m.text())) problems.push(`console: ${m.text()}`)
  })
}

const signIn = async (target: Page, email: string, password: string) => {
  await target.goto(`${base}/admin/sign-in`)
  await target.getByLabel("Email").fill(email)
  await target.getByLabel("Password").fill(password)
  await target.getByRole("button", { name: "Sign in" }).click()
  await target.getByRole("navigation", { name: "Sections" }).waitFor()
}

describe.skipIf(!enabled)("the Staff page in headless Chromium", () => {
  let tunde: Member
  let pendingEmail = ""

  beforeAll(async () => {
    expect(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: run scripts/install-chromium.sh`).toBe(true)
    fs.mkdirSync(ARTIFACTS, { recursive: true })
    // what `npm start` does first: build the console when dist is missing or stale (asynchronously: a
    // synchronous build blocks the worker past vitest's RPC timeout)
    await new Promise<void>((resolve, reject) =>
      spawn(process.execPath, [path.join(root, "scripts/ensure-console.mjs")], { cwd: root, stdio: "inherit" }).on(
        "exit",
        (code) => (code === 0 ? resolve() : reject(new Error(`ensure-console exited ${code}`)))
      )
    )
    dataDir = tempDir()
    const database = await freshDatabaseEnv()
    drop = database.drop
    service = await startService({
      DATA_DIR: dataDir,
      ADMIN_BOOTSTRAP_EMAIL: ROOT_EMAIL,
      ADMIN_BOOTSTRAP_PASSWORD: ROOT_PASSWORD,
      METRICS_PORT: "0",
      ...database.env
    })
    base = service.baseUrl

    // an admin who signed in, and a support member who has not used their invite yet
    tunde = await invite("Tunde", "Bakare", "admin")
    pendingEmail = `chioma.${Date.now()}@example.com`
    const pending = await api(base, "POST", "/api/v1/admin/admins", { email: pendingEmail, firstName: "Chioma", lastName: "Nwosu", role: "support" }, await rootToken())
    expect(pending.status).toBe(201)

    context = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), "kobo-chromium-")), {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
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

  it("lists the staff: role, status, last sign-in, pending invite; no action on one's own row", async () => {
    await signIn(page, ROOT_EMAIL, ROOT_PASSWORD)
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Staff" }).click()
    await heading("Staff").waitFor()
    const rows = page.getByRole("row")
    await rows.filter({ hasText: "Tunde Bakare" }).waitFor()
    const tundeRow = rows.filter({ hasText: "Tunde Bakare" })
    expect(await tundeRow.textContent()).toMatch(/admin.*active/)
    const pendingRow = rows.filter({ hasText: "Chioma Nwosu" })
    expect(await pendingRow.textContent()).toMatch(/support.*invited.*until/)
    expect(await pendingRow.getByRole("button", { name: "Resend invite to Chioma Nwosu" }).count()).toBe(1)
    const mine = rows.filter({ hasText: ROOT_EMAIL })
    await mine.getByText("You cannot change your own role or status.").waitFor()
    expect(await mine.getByRole("button").count()).toBe(0)
    expect(await unlabelledControls(page)).toEqual([])
    await shot("16-staff")
    fs.copyFileSync(path.join(ARTIFACTS, "16-staff.png"), path.join(root, "docs/console-staff.png"))
  })

  it("invites a member, who then appears as invited", async () => {
    const email = `emeka.${Date.now()}@example.com`
    const form = page.getByRole("form", { name: "Invite a staff member" })
    await form.getByLabel("Email").fill(email)
    await form.getByLabel("First name").fill("Emeka")
    await form.getByLabel("Last name").fill("Okafor")
    await form.getByLabel("Role").selectOption("officer")
    await form.getByRole("button", { name: "Send invite" }).click()
    await flash(`Invited Emeka Okafor as officer`)
    const row = page.getByRole("row").filter({ hasText: "Emeka Okafor" })
    await row.waitFor()
    expect(await row.textContent()).toMatch(/officer.*invited/)
    expect(outboxCode(dataDir, email, "staff_invite")).toMatch(/^[\w-]{40,}$/)
  })

  it("resends an invite: a new link, the earlier one void", async () => {
    const first = outboxCode(dataDir, pendingEmail, "staff_invite")
    await page.getByRole("button", { name: "Resend invite to Chioma Nwosu" }).click()
    await flash(`Invite sent again to ${pendingEmail}`)
    const second = outboxCode(dataDir, pendingEmail, "staff_invite")
    expect(second).not.toBe(first)
    expect((await api(base, "GET", `/api/v1/admin/auth/links/${first}`)).status).toBe(410)
    expect((await api(base, "GET", `/api/v1/admin/auth/links/${second}`)).status).toBe(200)
  })

  it("changes a role only after a confirmation; the member's session ends at once", async () => {
    await page.getByLabel("New role for Tunde Bakare").selectOption("officer")
    await page.getByRole("button", { name: "Change role of Tunde Bakare" }).click()
    const confirm = page.getByRole("group", { name: "Confirm the role change" })
    await confirm.waitFor()
    expect(await confirm.textContent()).toMatch(/Make Tunde Bakare officer \(now admin\).*Every session of theirs ends at once/)
    // nothing sent before the confirmation; Cancel sends nothing
    expect((await staffRow(tunde.id)).role).toBe("admin")
    await confirm.getByRole("button", { name: "Cancel" }).click()
    expect(await confirm.count()).toBe(0)
    expect((await staffRow(tunde.id)).role).toBe("admin")

    await page.getByRole("button", { name: "Change role of Tunde Bakare" }).click()
    await shot("17-staff-confirm-role")
    await confirm.getByRole("button", { name: "Confirm: make officer" }).click()
    await flash("Tunde Bakare is now officer")
    expect(await page.getByRole("row").filter({ hasText: "Tunde Bakare" }).textContent()).toMatch(/officer/)
    expect((await staffRow(tunde.id)).role).toBe("officer")
    expect((await api(base, "GET", "/api/v1/admin/auth/me", undefined, tunde.token)).status).toBe(401)
  })

  it("deactivates after a confirmation saying what happens, then reactivates", async () => {
    await page.getByRole("button", { name: "Deactivate Tunde Bakare" }).click()
    const confirm = page.getByRole("group", { name: "Confirm deactivation" })
    await confirm.waitFor()
    expect(await confirm.textContent()).toMatch(/signed out everywhere at once.*links stop working.*cannot sign in/)
    expect((await staffRow(tunde.id)).status).toBe("active")
    await shot("18-staff-confirm-deactivate")
    await confirm.getByRole("button", { name: "Confirm: deactivate" }).click()
    await flash("Tunde Bakare is deactivated")
    expect((await staffRow(tunde.id)).status).toBe("disabled")
    expect((await api(base, "POST", "/api/v1/admin/auth/sign-in", { email: tunde.email, password: tunde.password })).status).toBe(401)
    const row = page.getByRole("row").filter({ hasText: "Tunde Bakare" })
    expect(await row.textContent()).toMatch(/disabled/)
    // a deactivated member is offered no link
    expect(await row.getByRole("button", { name: /Send a reset link/ }).count()).toBe(0)

    await page.getByRole("button", { name: "Reactivate Tunde Bakare" }).click()
    const again = page.getByRole("group", { name: "Confirm reactivation" })
    expect(await again.textContent()).toMatch(/sign in again with their own password/)
    await again.getByRole("button", { name: "Confirm: reactivate" }).click()
    await flash("Tunde Bakare is reactivated (active)")
    expect((await staffRow(tunde.id)).status).toBe("active")
    expect((await api(base, "POST", "/api/v1/admin/auth/sign-in", { email: tunde.email, password: tunde.password })).status).toBe(200)
    // a reset link for an active member
    await page.getByRole("button", { name: "Send a reset link to Tunde Bakare" }).click()
    await flash(`Password reset link sent to ${tunde.email}`)
    expect(outboxCode(dataDir, tunde.email, "staff_password_reset")).toMatch(/^[\w-]{40,}$/)
  })

  it("is not offered to an admin, and refused when typed in", async () => {
    const ngozi = await invite("Ngozi", "Eze", "admin")
    const other = await context!.newPage()
    watch(other)
    await signIn(other, ngozi.email, ngozi.password)
    const sections = other.getByRole("navigation", { name: "Sections" })
    await sections.getByRole("link", { name: "Customers" }).waitFor()
    expect(await sections.getByRole("link", { name: "Staff" }).count()).toBe(0)
    await other.goto(`${base}/admin/staff`)
    await heading("Not available", other).waitFor()
    expect((await api(base, "GET", "/api/v1/admin/staff", undefined, ngozi.token)).status).toBe(403)
    await other.close()
  })

  it("logged no page error or CSP violation", () => {
    expect(problems).toEqual([])
  })
})
