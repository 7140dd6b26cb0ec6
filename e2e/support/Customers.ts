/**
 * Customers driven through the real API with the derived client (@app/client), as a client would:
 * sign-up to a funded bank account, plans. A call resolves only with its endpoint's declared success
 * (status and shape); anything else rejects with an ApiFailure naming the status and code.
 */
import { makeClient, type PromiseClient } from "@app/client"
import { Redacted } from "effect"
import { randomInt, randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { expect } from "vitest"

/** The service at `base` as a customer with `token` (none: signed out). */
export const client = (base: string, token?: string): PromiseClient => makeClient({ baseUrl: base, token })

/** The newest one-time code sent to `to`, read from the development outbox under `dataDir`. */
export const outboxCode = (dataDir: string, to: string, kind: string): string => {
  const lines = fs.readFileSync(path.join(dataDir, "outbox.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l))
  return lines.filter((l) => l.to === to && l.kind === kind).at(-1).code
}

/**
 * A manual transfer to the sandbox's always-successful account 0001, under a fresh key: the JSON body
 * of the tests that send it raw (they count every status and network error while killing processes).
 */
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
  const anonymous = client(base)
  const { id: accountId } = await anonymous.auth.register({ payload: { email, password: Redacted.make(password) } })
  await anonymous.auth.sendEmailOtp({ payload: { accountId } })
  const verified = await anonymous.auth.verifyEmailOtp({ payload: { accountId, pin: outboxCode(dataDir, email, "email_verification") } })
  const token = verified.accessToken
  if (token === undefined) throw new Error(`verifying ${email} answered no access token`)
  const unique = `${runPrefix}${String(n).padStart(4, "0")}`
  const customer = client(base, token)
  // resolves only with the declared 200 "BVN verified." and its shape
  await customer.kyc.verifyBvn({
    payload: {
      bvn: `3${String(Date.now()).slice(-3)}${unique}`,
      firstName: "Ada",
      lastName: "Obi",
      phone: `0805${unique}`,
      address: "1 Marina, Lagos",
      gender: "female",
      dateOfBirth: "1990-01-01"
    }
  })
  const account = await customer.customers.createAccount()
  return { email, password, token, accountNumber: account.accountNumber }
}

/** A daily plan of `days` instalments of ₦1,000 to the sandbox's GTBank account 0123450001. */
export const createDailyPlan = async (base: string, token: string, days = 3) => {
  const plan = await client(base, token).plans.upsert({
    payload: {
      totalAmountKobo: BigInt(days) * 100_000n,
      durationDays: days,
      frequency: "daily",
      withdrawalAccountNumber: "0123450001",
      withdrawalBankCode: "000013",
      scheduledTime: "09:00",
      scheduledTimezone: "Africa/Lagos"
    }
  })
  expect(plan).toMatchObject({ active: true, cyclesTotal: days, cyclesPaid: 0 })
  return plan
}

/** onboard → ₦10,000 test deposit → a 3-day daily plan of ₦3,000. */
export const customerWithPlan = async (base: string, dataDir: string, tag: string): Promise<Customer> => {
  const customer = await onboard(base, dataDir, tag)
  await client(base, customer.token).deposits.testDeposit({ payload: { amountKobo: 1_000_000n } })
  await createDailyPlan(base, customer.token)
  return customer
}

/** Every plan's schedule moved three days back, as if the service had been down that long: three cycles due. */
export const BEHIND = `
  UPDATE disbursement_plans
  SET anchor_date = to_char(current_date - 3, 'YYYY-MM-DD'), next_due_at = now() - interval '3 days'`
