/**
 * `npm run try`: walks a new customer through the product against a running `npm start`, printing
 * every request and answer: sign-up, the email code read from the outbox file, KYC with the sandbox
 * bank's test data, a bank account, a test deposit, a disbursement plan, a transfer, a Borrow and a
 * support ticket. Exits 1 at the first step that fails.
 *
 * It finds the service as `npm start` sets it up: `BASE_URL`, else http://localhost:$PORT (8080);
 * the outbox at `NOTIFY_OUTBOX_FILE`, else `$DATA_DIR/outbox.jsonl` (DATA_DIR defaults to ./.data).
 * It calls the API through @app/client (the client derived from the API definition, so each request
 * and answer is typed), and prints each exchange as it goes over the wire.
 */
import { ApiFailure, makeClient, REQUEST_FAILED } from "@app/client"
import { Redacted } from "effect"
import { randomInt, randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"

const env = process.env
const base = (env.BASE_URL ?? `http://localhost:${env.PORT ?? "8080"}`).replace(/\/+$/, "")
const outbox = path.resolve(env.NOTIFY_OUTBOX_FILE ?? path.join(env.DATA_DIR ?? "./.data", "outbox.jsonl"))
const color = process.stdout.isTTY && env.NO_COLOR === undefined
const paint = (code: string) => (text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text)
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
/** The request on the wire, for the failure message. */
let lastRequest = ""

const fail = (message: string): never => {
  console.error(red(`✗ ${message}`))
  process.exit(1)
}

/** What is printed: tokens shortened (they are long, and the point is that they exist), long lists cut. */
const shown = (value: unknown) =>
  JSON.stringify(value, (key, v) =>
    (key === "accessToken" || key === "refreshToken") && typeof v === "string"
      ? `${v.slice(0, 12)}…`
      // long lists (the bank list): the first few
      : Array.isArray(v) && v.length > 4
      ? [...v.slice(0, 3), `… ${v.length - 3} more`]
      : v)

const step = (title: string) => console.log(`\n${bold(`${++stepNumber}. ${title}`)}`)

/** fetch, printing each request and its answer as they go over the wire (the client decodes the answer). */
const printingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init)
  const url = new URL(request.url)
  lastRequest = `${request.method} ${url.pathname}${url.search}`
  const auth = request.headers.has("authorization")
  console.log(`${bold("→")} ${lastRequest}${auth ? dim("  (authorization: Bearer <access token>)") : ""}`)
  const body = await request.clone().text()
  if (body !== "") console.log(`  ${shown(JSON.parse(body))}`)
  let response: Response
  try {
    response = await fetch(request, { signal: AbortSignal.any([request.signal, AbortSignal.timeout(60_000)]) })
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message
    return fail(`cannot reach ${base} (${cause}): is \`npm start\` running? Set PORT or BASE_URL to find it.`)
  }
  const text = await response.clone().text()
  let answer: unknown
  try {
    answer = JSON.parse(text)
  } catch {
    return fail(`${lastRequest} answered ${response.status} with something that is not JSON: ${text.slice(0, 200)}`)
  }
  console.log(`${bold("←")} ${response.status} ${shown(answer)}`)
  return response
}

const api = makeClient({ baseUrl: base, token: () => accessToken, fetch: printingFetch })

/** The answer of a step's request, or the walk-through stops with the failure's code. */
const answer = <A>(request: Promise<A>): Promise<A> =>
  request.catch((e: unknown) => {
    if (e instanceof ApiFailure && e.code !== REQUEST_FAILED) {
      return fail(`step ${stepNumber} failed: ${lastRequest} answered ${e.status} ${e.code} (${e.message})`)
    }
    return fail(`step ${stepNumber} failed: ${lastRequest}: ${e instanceof Error ? e.message : String(e)}`)
  })

/** The newest one-time code of `kind` sent to `to`, read from the outbox file (waits up to 10 s). */
const codeFromOutbox = async (to: string, kind: string): Promise<string> => {
  const deadline = Date.now() + 10_000
  for (;;) {
    const lines = fs.existsSync(outbox) ? fs.readFileSync(outbox, "utf8").split("\n").filter((l) => l.trim() !== "") : []
    const message = lines.map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>
      } catch {
        return undefined
      }
    }).filter((m) => m?.to === to && m?.kind === kind && typeof m?.code === "string").at(-1)
    if (message !== undefined) {
      console.log(`${bold("✉")} ${outbox}: ${shown({ channel: message.channel, to: message.to, kind: message.kind, code: message.code })}`)
      return message.code as string
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

const naira = (kobo: bigint | number | undefined) => `₦${(Number(kobo) / 100).toLocaleString("en-NG", { minimumFractionDigits: 2 })}`

console.log(`${bold("kobo-plans walk-through")} against ${base} (outbox ${outbox})`)

step("The service is up")
await answer(api.ops.health())

step("Register a customer (the names the sandbox's BVN registry holds)")
const account = await answer(api.auth.register({ payload: { ...customer, password: Redacted.make(customer.password) } }))

step("Send the email verification code")
await answer(api.auth.sendEmailOtp({ payload: { accountId: account.id } }))

step("Read the code from the outbox file and verify the email")
const code = await codeFromOutbox(customer.email, "email_verification")
const tokens = await answer(api.auth.verifyEmailOtp({ payload: { accountId: account.id, pin: code } }))
accessToken = tokens.accessToken ?? fail(`step ${stepNumber} failed: the verification answered no access token`)

step("KYC: verify the BVN (sandbox test data: any 11 digits, born 1990-01-01)")
await answer(api.kyc.verifyBvn({
  payload: {
    bvn,
    firstName: customer.firstName,
    lastName: customer.lastName,
    phone: customer.phone,
    address: "1 Marina, Lagos",
    gender: "female",
    dateOfBirth: "1990-01-01"
  }
}))

step("Open the bank account")
const opened = await answer(api.customers.createAccount())

step("Fund it: a test deposit of ₦100,000")
await answer(api.deposits.testDeposit({ payload: { amountKobo: 10_000_000n } }))

step("Pick a bank and look up the destination account")
const banks = await answer(api.banks.list())
const bank = banks.find((b) => b.bankCode === "000013") ?? banks[0] ?? fail("the bank list is empty")
const lookup = await answer(api.beneficiaries.lookup({ urlParams: { accountNumber: destination, bankCode: bank.bankCode } }))

step("Create a plan: ₦30,000 paid back daily over 30 days")
const plan = await answer(api.plans.upsert({
  payload: {
    totalAmountKobo: 3_000_000n,
    durationDays: 30,
    frequency: "daily",
    withdrawalAccountNumber: destination,
    withdrawalBankCode: bank.bankCode,
    scheduledTime: aDayAway(),
    scheduledTimezone: "UTC"
  }
}))
if (plan.status !== "active") fail(`step ${stepNumber} failed: the plan is ${plan.status}, not active`)

step("Transfer ₦5,000 to the destination account")
await answer(api.transfers.transfer({
  payload: {
    destinationAccountNumber: destination,
    destinationBankCode: bank.bankCode,
    destinationBankName: bank.bankName,
    destinationAccountName: lookup.accountName,
    nipSessionId: lookup.nipSessionId,
    amountKobo: 500_000n,
    narration: "walk-through",
    idempotencyKey: randomUUID()
  }
}))

step("Borrow: the next instalment now")
const quote = await answer(api.plans.borrowQuote())
if (quote.eligible !== true) fail(`step ${stepNumber} failed: Borrow is not available (${quote.reason ?? "no reason given"})`)
await answer(api.plans.borrow({ payload: { idempotencyKey: randomUUID() } }))

step("Open a support ticket")
const ticket = await answer(api.support.open({
  payload: {
    subject: "When is my next payout?",
    message: "I borrowed today's instalment. When does the next one arrive?",
    category: "disbursement"
  }
}))

step("Where the customer stands")
const me = await answer(api.customers.me())

console.log(`\n${bold("✓ done")}: ${customer.email} (password "${customer.password}"), account ${opened.accountNumber}, ` +
  `balance ${naira(me.balanceKobo)}, plan ${plan.id ?? ""} ${plan.status}, ticket ${ticket.reference}.`)
console.log(dim(`  Explore: ${base}/docs (the API), ${base}/admin (the staff console).`))
