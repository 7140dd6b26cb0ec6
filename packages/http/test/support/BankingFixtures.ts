/**
 * Helpers of the banking end-to-end tests (KYC, bank account, deposits, webhook, beneficiaries):
 * identities that pass BVN verification, customers with a bank account, the webhook call with its
 * shared header, polling, and read-only database queries that show what the service recorded.
 */
import { HttpClientRequest } from "@effect/platform"
import { DevelopmentSecrets } from "@app/adapters"
import { AccountId, CustomerId, TestFunding } from "@app/domain"
import { SandboxBank } from "@app/sandbox"
import * as SqlClient from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { randomInt } from "node:crypto"
import { api, checkInvariants, expectSuccess, post, type RegisterOptions, uniquePhone, verifiedAccount } from "./Fixtures.js"
import { lastCode, send } from "./TestServer.js"

// ---------------------------------------------------------------------------------------------
// Identities
// ---------------------------------------------------------------------------------------------

let bvnSequence = 0
const bvnTag = randomInt(100, 1000).toString()

/** A new 11-digit BVN the sandbox registry knows as Ada Obi, born 1990-01-01 (never 0…0 or 1…1). */
export const uniqueBvn = () => `2${bvnTag}${(++bvnSequence).toString().padStart(7, "0")}`

export const ADA = { firstName: "Ada", lastName: "Obi", phone: "08030000000", dateOfBirth: "1990-01-01" } as const
export const CHIDI = { bvn: "11111111111", firstName: "Chidi", lastName: "Okeke", dateOfBirth: "1985-05-15" } as const

/** A valid verify-bvn body for a registry entry of Ada Obi, with a fresh BVN and phone. */
export const bvnBody = (overrides: Record<string, unknown> = {}) => ({
  bvn: uniqueBvn(),
  firstName: "Ada",
  lastName: "Obi",
  phone: uniquePhone().national,
  address: "12 Marina Road, Lagos Island",
  gender: "female",
  dateOfBirth: ADA.dateOfBirth,
  ...overrides
})

export const verifyBvn = (body: unknown, token?: string) => post("/api/v1/auth/verify-bvn", body, token)

/** An email-verified customer whose BVN is verified (kycStatus bvn_verified). */
export const kycCustomer = (tag: string, options: RegisterOptions = {}) =>
  Effect.gen(function*() {
    const account = yield* verifiedAccount(tag, options)
    const body = bvnBody()
    expectSuccess(yield* verifyBvn(body, account.accessToken), { message: "BVN verified." })
    return { ...account, bvn: body.bvn as string }
  })

export const createAccount = (token?: string, path: "create-account" | "create-bank-account" = "create-account") =>
  post(`/api/v1/customers/${path}`, undefined, token)

/** A customer with a bank account at the sandbox (PND active, balance 0). */
export const bankCustomer = (tag: string, options: RegisterOptions = {}) =>
  Effect.gen(function*() {
    const customer = yield* kycCustomer(tag, options)
    const created = expectSuccess(yield* createAccount(customer.accessToken), { status: 201, apiObject: "Customer" })
    return { ...customer, accountNumber: created.accountNumber as string }
  })

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

export const get = (url: string, token?: string) => api("GET", url, undefined, token)

/** A request with extra headers (the webhook's shared secret). */
export const callWithHeaders = (
  method: "GET" | "POST",
  url: string,
  headers: Record<string, string>,
  body?: unknown
) =>
  send(
    HttpClientRequest.make(method)(url).pipe(
      HttpClientRequest.setHeaders(headers),
      body === undefined ? (r) => r : HttpClientRequest.bodyUnsafeJson(body)
    )
  ).pipe(Effect.map(checkInvariants))

export const WEBHOOK = "/api/v1/webhooks/core-banking"
export const WEBHOOK_HEADER = "x-webhook-secret"

/** POST to the webhook with the right shared header (or the given headers). */
export const webhook = (body: unknown, headers: Record<string, string> = { [WEBHOOK_HEADER]: DevelopmentSecrets.WEBHOOK_SECRET }) =>
  callWithHeaders("POST", WEBHOOK, headers, body)

/** An inbound NIP transfer at the sandbox, which the sandbox then announces to the webhook. */
export const inboundTransfer = (accountNumber: string, amountKobo: bigint) =>
  Effect.flatMap(TestFunding, (funding) => funding.deposit({ accountNumber, amountKobo })).pipe(Effect.orDie)

/** A fresh action OTP (POST /auth/otp/request): its pinId and the emailed code. */
export const actionOtp = (token: string, email: string) =>
  Effect.gen(function*() {
    const { pinId } = expectSuccess(yield* post("/api/v1/auth/otp/request", undefined, token))
    return { otpPinId: pinId as string, otpCode: lastCode(email, "action_confirmation") }
  })

// ---------------------------------------------------------------------------------------------
// Waiting
// ---------------------------------------------------------------------------------------------

/** Re-runs `effect` every 100 ms until `done` holds (returns that value) or `timeoutMs` passes (returns the last). */
export const pollUntil = <A, E, R>(effect: Effect.Effect<A, E, R>, done: (a: A) => boolean, timeoutMs = 5_000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + timeoutMs
    let value = yield* effect
    while (!done(value) && Date.now() < deadline) {
      yield* Effect.sleep(Duration.millis(100))
      value = yield* effect
    }
    return value
  })

// ---------------------------------------------------------------------------------------------
// What the service recorded (read only)
// ---------------------------------------------------------------------------------------------

export interface DepositRow {
  readonly id: string
  readonly type: string
  readonly purpose: string
  readonly amountKobo: string
  readonly status: string
  readonly providerReference: string | null
}

/** The customer's Transaction rows with purpose deposit, oldest first. */
export const depositRows = (customerId: CustomerId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<DepositRow>`
      SELECT id, type, purpose, amount_kobo::text AS amount_kobo, status, provider_reference
      FROM transactions WHERE customer_id = ${customerId} AND purpose = 'deposit'
      ORDER BY created_at, provider_reference`).pipe(Effect.orDie)

/** Every Transaction row of every customer. */
export const allTransactionCount = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly n: string }>`SELECT count(*)::text AS n FROM transactions`).pipe(
    Effect.map((rows) => Number(rows[0]?.n ?? "-1")),
    Effect.orDie
  )

/** How many accounts the sandbox bank holds for this email. */
export const sandboxAccountCount = (email: string) =>
  Effect.map(SandboxBank, (bank) => [...bank.accounts.values()].filter((a) => a.email === email).length)

/** The customer and account rows of an account, as JSON text (to look for plaintext secrets). */
export const storedCustomerText = (accountId: AccountId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly row: unknown }>`
      SELECT row_to_json(c)::text AS row FROM customers c WHERE c.account_id = ${accountId}
      UNION ALL
      SELECT row_to_json(a)::text AS row FROM accounts a WHERE a.id = ${accountId}`).pipe(
      Effect.map((rows) => {
        expect(rows.length).toBe(2)
        return rows.map((r) => String(r.row)).join("\n")
      }),
      Effect.orDie
    )

/** A decimal-string kobo amount. */
export const KOBO_STRING = /^(0|[1-9]\d*)$/
