/** Customers driven through the real API, as a client would: sign-up to a funded bank account, plans. */
import { randomInt, randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { expect } from "vitest"
import { api } from "./Service.js"

/** The newest one-time code sent to `to`, read from the development outbox under `dataDir`. */
export const outboxCode = (dataDir: string, to: string, kind: string): string => {
  const lines = fs.readFileSync(path.join(dataDir, "outbox.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l))
  return lines.filter((l) => l.to === to && l.kind === kind).at(-1).code
}

/** A manual transfer to the sandbox's always-successful account 0001, under a fresh key. */
export const transferTo0001 = (amountKobo: number) => ({
  destinationAccountNumber: "0123450001",
  destinationBankCode: "000013",
  destinationBankName: "GTBank",
  destinationAccountName: "SANDBOX ACCOUNT 0001",
  amountKobo,
  idempotencyKey: randomUUID()
})

export interface Customer {
  readonly email: string
  readonly password: string
  readonly token: string
  readonly accountNumber: string
}

// BVNs and phones unique across the processes of one run
const runPrefix = randomInt(100, 999)
let sequence = 0

/** register → verify email → BVN → bank account; a customer as the sandbox's test data allows. */
export const onboard = async (base: string, dataDir: string, tag: string): Promise<Customer> => {
  const n = ++sequence
  const email = `${tag}.${n}.${Date.now()}@example.com`
  const password = "correct horse"
  const reg = await api(base, "POST", "/api/v1/auth/register", { email, password })
  expect(reg.status).toBe(201)
  const accountId = reg.body.result.id
  expect((await api(base, "POST", "/api/v1/auth/otp/email/send", { accountId })).status).toBe(200)
  const verified = await api(base, "POST", "/api/v1/auth/otp/email/verify", { accountId, pin: outboxCode(dataDir, email, "email_verification") })
  const token = verified.body.result.accessToken
  const unique = `${runPrefix}${String(n).padStart(4, "0")}`
  const bvn = await api(base, "POST", "/api/v1/auth/verify-bvn", {
    bvn: `3${String(Date.now()).slice(-3)}${unique}`,
    firstName: "Ada",
    lastName: "Obi",
    phone: `0805${unique}`,
    address: "1 Marina, Lagos",
    gender: "female",
    dateOfBirth: "1990-01-01"
  }, token)
  expect(bvn.body).toMatchObject({ code: 200, message: "BVN verified." })
  const account = await api(base, "POST", "/api/v1/customers/create-account", undefined, token)
  expect(account.status).toBe(201)
  return { email, password, token, accountNumber: account.body.result.accountNumber }
}

/** A daily plan of `days` instalments of ₦1,000 to the sandbox's GTBank account 0123450001. */
export const createDailyPlan = async (base: string, token: string, days = 3) => {
  const plan = await api(base, "POST", "/api/v1/disbursements/plan", {
    totalAmountKobo: days * 100_000,
    durationDays: days,
    frequency: "daily",
    withdrawalAccountNumber: "0123450001",
    withdrawalBankCode: "000013",
    scheduledTime: "09:00",
    scheduledTimezone: "Africa/Lagos"
  }, token)
  // the whole answer in the message: under the load test a failure is reported as one line
  expect(plan.status, JSON.stringify(plan.body)).toBe(200)
  expect(plan.body.result, JSON.stringify(plan.body)).toMatchObject({ active: true, cyclesTotal: days, cyclesPaid: 0 })
  return plan.body.result
}

/** onboard → ₦10,000 test deposit → a 3-day daily plan of ₦3,000. */
export const customerWithPlan = async (base: string, dataDir: string, tag: string): Promise<Customer> => {
  const customer = await onboard(base, dataDir, tag)
  expect((await api(base, "POST", "/api/v1/transactions/deposit/test", { amountKobo: 1_000_000 }, customer.token)).status).toBe(200)
  await createDailyPlan(base, customer.token)
  return customer
}

/** Every plan's schedule moved three days back, as if the service had been down that long: three cycles due. */
export const BEHIND = `
  UPDATE disbursement_plans
  SET anchor_date = to_char(current_date - 3, 'YYYY-MM-DD'), next_due_at = now() - interval '3 days'`
