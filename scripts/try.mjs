#!/usr/bin/env node
/**
 * `npm run try`: walks a new customer through the product against a running `npm start`, printing
 * every request and answer: sign-up, the email code read from the outbox file, KYC with the sandbox
 * bank's test data, a bank account, a test deposit, a disbursement plan, a transfer, a Borrow and a
 * support ticket. Exits 1 at the first step that fails.
 *
 * It finds the service as `npm start` sets it up: `BASE_URL`, else http://localhost:$PORT (8080);
 * the outbox at `NOTIFY_OUTBOX_FILE`, else `$DATA_DIR/outbox.jsonl` (DATA_DIR defaults to ./.data).
 * Plain Node (20+), no build: it uses only the public HTTP API and the outbox file.
 */
import { randomInt, randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"

const env = process.env
const base = (env.BASE_URL ?? `http://localhost:${env.PORT ?? "8080"}`).replace(/\/+$/, "")
const outbox = path.resolve(env.NOTIFY_OUTBOX_FILE ?? path.join(env.DATA_DIR ?? "./.data", "outbox.jsonl"))
const color = process.stdout.isTTY && env.NO_COLOR === undefined
const paint = (code) => (text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text)
const bold = paint("1")
const dim = paint("2")
const red = paint("31")

// a new customer every run: the email, phone and BVN must be free. The names are the sandbox
// bank's for any BVN but its two special ones (docs/operations.md, sandbox test data), so KYC
// matches the registry.
const stamp = `${Date.now()}${randomInt(1000)}`
const customer = {
  email: `ada.${stamp}@example.com`,
  password: "correct horse battery",
  phone: `0803${String(randomInt(10_000_000)).padStart(7, "0")}`,
  firstName: "Ada",
  lastName: "Obi"
}
const bvn = `${randomInt(2, 10)}${String(randomInt(10_000_000_000)).padStart(10, "0")}`
// a destination account: the sandbox's name enquiry finds any 10 digits; one ending in 0002 to 0006
// would trigger one of its failure scenarios, so this one ends in 0789
const destination = "0123450789"

let stepNumber = 0
let accessToken = ""

const fail = (message) => {
  console.error(red(`✗ ${message}`))
  process.exit(1)
}

/** What is printed: tokens shortened (they are long, and the point is that they exist), long lists cut. */
const shown = (value) =>
  JSON.stringify(value, (key, v) =>
    (key === "accessToken" || key === "refreshToken") && typeof v === "string"
      ? `${v.slice(0, 12)}…`
      // long lists (the bank list): the first few
      : Array.isArray(v) && v.length > 4
      ? [...v.slice(0, 3), `… ${v.length - 3} more`]
      : v)

const step = (title) => console.log(`\n${bold(`${++stepNumber}. ${title}`)}`)

/**
 * One request: prints it and its answer; the answer's `result` when the status is the expected
 * one, else the walk-through stops with the error code.
 */
const call = async (method, url, body, { expect = 200, auth = true } = {}) => {
  const headers = {
    ...(body === undefined ? {} : { "content-type": "application/json" }),
    ...(auth ? { authorization: `Bearer ${accessToken}` } : {})
  }
  console.log(`${bold("→")} ${method} ${url}${auth ? dim("  (authorization: Bearer <access token>)") : ""}`)
  if (body !== undefined) console.log(`  ${shown(body)}`)
  let response
  try {
    response = await fetch(`${base}${url}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(60_000)
    })
  } catch (error) {
    fail(`cannot reach ${base} (${error.cause?.code ?? error.message}): is \`npm start\` running? Set PORT or BASE_URL to find it.`)
  }
  const text = await response.text()
  let answer
  try {
    answer = JSON.parse(text)
  } catch {
    fail(`${method} ${url} answered ${response.status} with something that is not JSON: ${text.slice(0, 200)}`)
  }
  console.log(`${bold("←")} ${response.status} ${shown(answer)}`)
  if (response.status !== expect) {
    fail(`step ${stepNumber} failed: ${method} ${url} answered ${response.status} ${answer?.error?.code ?? ""} (${answer?.message ?? "no message"})`)
  }
  return answer.result
}

/** The newest one-time code of `kind` sent to `to`, read from the outbox file (waits up to 10 s). */
const codeFromOutbox = async (to, kind) => {
  const deadline = Date.now() + 10_000
  for (;;) {
    const lines = fs.existsSync(outbox) ? fs.readFileSync(outbox, "utf8").split("\n").filter((l) => l.trim() !== "") : []
    const message = lines.map((l) => {
      try {
        return JSON.parse(l)
      } catch {
        return undefined
      }
    }).filter((m) => m?.to === to && m?.kind === kind && typeof m?.code === "string").at(-1)
    if (message !== undefined) {
      console.log(`${bold("✉")} ${outbox}: ${shown({ channel: message.channel, to: message.to, kind: message.kind, code: message.code })}`)
      return message.code
    }
    if (Date.now() > deadline) {
      fail(`step ${stepNumber} failed: no ${kind} code for ${to} in ${outbox} (set NOTIFY_OUTBOX_FILE or DATA_DIR as for \`npm start\`)`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** HH:MM two minutes ago, UTC: a plan's first payout then falls about a day from now. */
const aDayAway = () => {
  const at = new Date(Date.now() - 2 * 60_000)
  return `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")}`
}

const naira = (kobo) => `₦${(Number(kobo) / 100).toLocaleString("en-NG", { minimumFractionDigits: 2 })}`

console.log(`${bold("kobo-plans walk-through")} against ${base} (outbox ${outbox})`)

step("The service is up")
await call("GET", "/health", undefined, { auth: false })

step("Register a customer (the names the sandbox's BVN registry holds)")
const account = await call("POST", "/api/v1/auth/register", customer, { expect: 201, auth: false })

step("Send the email verification code")
await call("POST", "/api/v1/auth/otp/email/send", { accountId: account.id }, { auth: false })

step("Read the code from the outbox file and verify the email")
const code = await codeFromOutbox(customer.email, "email_verification")
const tokens = await call("POST", "/api/v1/auth/otp/email/verify", { accountId: account.id, pin: code }, { auth: false })
accessToken = tokens.accessToken

step("KYC: verify the BVN (sandbox test data: any 11 digits, born 1990-01-01)")
await call("POST", "/api/v1/auth/verify-bvn", {
  bvn,
  firstName: customer.firstName,
  lastName: customer.lastName,
  phone: customer.phone,
  address: "1 Marina, Lagos",
  gender: "female",
  dateOfBirth: "1990-01-01"
})

step("Open the bank account")
const opened = await call("POST", "/api/v1/customers/create-account", undefined, { expect: 201 })

step("Fund it: a test deposit of ₦100,000")
await call("POST", "/api/v1/transactions/deposit/test", { amountKobo: 10_000_000 })

step("Pick a bank and look up the destination account")
const banks = await call("GET", "/api/v1/banks", undefined, { auth: false })
const bank = banks.find((b) => b.bankCode === "000013") ?? banks[0]
if (bank === undefined) fail("the bank list is empty")
const lookup = await call("GET", `/api/v1/beneficiaries/lookup?accountNumber=${destination}&bankCode=${bank.bankCode}`)

step("Create a plan: ₦30,000 paid back daily over 30 days")
const plan = await call("POST", "/api/v1/disbursements/plan", {
  totalAmountKobo: 3_000_000,
  durationDays: 30,
  frequency: "daily",
  withdrawalAccountNumber: destination,
  withdrawalBankCode: bank.bankCode,
  scheduledTime: aDayAway(),
  scheduledTimezone: "UTC"
})
if (plan.status !== "active") fail(`step ${stepNumber} failed: the plan is ${plan.status}, not active`)

step("Transfer ₦5,000 to the destination account")
await call("POST", "/api/v1/transactions/transfer", {
  destinationAccountNumber: destination,
  destinationBankCode: bank.bankCode,
  destinationBankName: bank.bankName,
  destinationAccountName: lookup.accountName,
  nipSessionId: lookup.nipSessionId,
  amountKobo: 500_000,
  narration: "walk-through",
  idempotencyKey: randomUUID()
})

step("Borrow: the next instalment now")
const quote = await call("GET", "/api/v1/disbursements/plan/borrow/quote")
if (quote.eligible !== true) fail(`step ${stepNumber} failed: Borrow is not available (${quote.reason ?? "no reason given"})`)
await call("POST", "/api/v1/disbursements/plan/borrow", { idempotencyKey: randomUUID() })

step("Open a support ticket")
const ticket = await call("POST", "/api/v1/support/tickets", {
  subject: "When is my next payout?",
  message: "I borrowed today's instalment. When does the next one arrive?",
  category: "disbursement"
}, { expect: 201 })

step("Where the customer stands")
const me = await call("GET", "/api/v1/customers/me")

console.log(`\n${bold("✓ done")}: ${customer.email} (password "${customer.password}"), account ${opened.accountNumber}, ` +
  `balance ${naira(me.balanceKobo)}, plan ${plan.id ?? ""} ${plan.status}, ticket ${ticket.reference}.`)
console.log(dim(`  Explore: ${base}/docs (the API), ${base}/admin (the staff console).`))
