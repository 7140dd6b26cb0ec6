/**
 * Helpers for the end-to-end suite: a request wrapper that checks, on every reply, the invariants
 * every response must keep (envelope `code` equals the HTTP status, no secret ever appears in the
 * raw text), envelope assertions, unique test identities, account set-up through the public API,
 * JWT forging for authentication tests and direct database tweaks for what the live clock cannot
 * reach (expiry, suspension).
 */
import { DevelopmentSecrets } from "@app/adapters"
import * as SqlClient from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { createHmac, randomInt } from "node:crypto"
import { errorCatalogue } from "../../src/ErrorCatalogue.js"
import { call, callRaw, lastCode, type Reply } from "./TestServer.js"
import { AccountId, CustomerId } from "@app/domain"

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** Field names and values that must never leave the server. */
const SECRET_PATTERN = /password_?hash|pin_?hash|bvn_?hash|code_?hash|token_?hash|\$argon2/i

/** Invariants of every reply: no secrets in the raw text; for JSON envelopes, code === HTTP status. */
export const checkInvariants = (reply: Reply): Reply => {
  expect(reply.text, "a response leaked a secret field or hash").not.toMatch(SECRET_PATTERN)
  if (reply.body !== null && typeof reply.body === "object" && "code" in reply.body) {
    expect(reply.body.code, "envelope code must equal the HTTP status").toBe(reply.status)
  }
  return reply
}

export const api = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, body?: unknown, token?: string) =>
  Effect.map(call(method, url, body, token), checkInvariants)

export const post = (url: string, body?: unknown, token?: string) => api("POST", url, body, token)

/**
 * A raw-body POST. A transport failure (e.g. the server resetting the connection) is returned as
 * status 0 with the error in `text`, so a test can assert on it instead of dying.
 */
export const postRaw = (url: string, raw: string, contentType = "application/json") =>
  callRaw(url, raw, contentType).pipe(
    Effect.map(checkInvariants),
    Effect.catchAllDefect((defect) =>
      Effect.succeed<Reply>({ status: 0, headers: {}, body: undefined, text: `transport failure: ${String(defect)}` })
    )
  )

// ---------------------------------------------------------------------------------------------
// Envelope assertions
// ---------------------------------------------------------------------------------------------

const ENVELOPE_KEYS = ["apiObject", "code", "message", "result", "status"]

/** Asserts the success envelope exactly and returns `result`. */
export const expectSuccess = (
  reply: Reply,
  options: { readonly status?: number; readonly apiObject?: string; readonly message?: string } = {}
): any => {
  const status = options.status ?? 200
  expect({ status: reply.status, body: reply.body }, reply.text.slice(0, 300)).toMatchObject({
    status,
    body: { apiObject: options.apiObject ?? "Auth", code: status, status: "success" }
  })
  expect(Object.keys(reply.body).sort()).toEqual(ENVELOPE_KEYS)
  expect(typeof reply.body.message).toBe("string")
  expect(reply.body.message.length).toBeGreaterThan(0)
  if (options.message !== undefined) expect(reply.body.message).toBe(options.message)
  expect(reply.headers["content-type"]).toMatch(/^application\/json/)
  return reply.body.result
}

/** Asserts the failure envelope (status, message, `result: {}`, `data.code` = `error.code`) and returns `error`. */
export const expectFailure = (reply: Reply, status: number, message: string | RegExp, apiObject = "Auth"): any => {
  expect({ status: reply.status, body: reply.body }, reply.text.slice(0, 300)).toMatchObject({
    status,
    body: {
      apiObject,
      code: status,
      status: "failure",
      message: typeof message === "string" ? message : expect.stringMatching(message)
    }
  })
  expect(reply.body.result).toEqual({})
  expect(Object.keys(reply.body).filter((k) => k !== "error" && k !== "data").sort()).toEqual(ENVELOPE_KEYS)
  expect(reply.headers["content-type"]).toMatch(/^application\/json/)
  // the error contract: every failure carries a catalogued code answered with the catalogue's status
  const code = reply.body.error?.code
  expect(code, `error.code of ${reply.text.slice(0, 200)}`).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/)
  expect(errorCatalogue[code]?.status, `catalogue status of ${code}`).toBe(status)
  // the same code as data.code (the spec's spelling), and nothing else there
  expect(reply.body.data, `data of ${reply.text.slice(0, 200)}`).toEqual({ code })
  return reply.body.error
}

/**
 * Asserts a 400 'Validation error' with `error.fieldErrors` (naming each of `fields` with at least
 * one message) and an `error.formErrors` array (non-empty when `form` is true).
 */
export const expectValidation = (
  reply: Reply,
  expected: { readonly fields?: ReadonlyArray<string>; readonly form?: boolean; readonly apiObject?: string } = {}
): { code: string; fieldErrors: Record<string, Array<string>>; formErrors: Array<string> } => {
  const error = expectFailure(reply, 400, "Validation error", expected.apiObject ?? "Auth")
  expect(error).toBeTypeOf("object")
  expect(error.fieldErrors).toBeTypeOf("object")
  expect(Array.isArray(error.formErrors)).toBe(true)
  for (const message of error.formErrors) expect(message).toBeTypeOf("string")
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    expect(Array.isArray(messages), `fieldErrors.${field} must be an array`).toBe(true)
    for (const message of messages as Array<unknown>) expect(message).toBeTypeOf("string")
  }
  for (const field of expected.fields ?? []) {
    expect(error.fieldErrors, `fieldErrors should name '${field}'`).toHaveProperty([field])
    expect(error.fieldErrors[field].length).toBeGreaterThan(0)
  }
  if (expected.form === true) expect(error.formErrors.length).toBeGreaterThan(0)
  return error
}

// ---------------------------------------------------------------------------------------------
// Identities
// ---------------------------------------------------------------------------------------------

let sequence = 0
const runTag = randomInt(0, 10_000).toString().padStart(4, "0")

/** A new lower-case email, unique within this test file. */
export const uniqueEmail = (tag: string) => `${tag}-${runTag}-${++sequence}@example.com`

/** A new Nigerian mobile number: national spelling (0803…) and stored form (+234803…). */
export const uniquePhone = () => {
  const nsn = `80${runTag}${(++sequence).toString().padStart(4, "0")}`
  return { national: `0${nsn}`, e164: `+234${nsn}`, international: `234${nsn}` }
}

/** A 6-digit code different from `code`. */
export const otherCode = (code: string) => ((Number(code) + 1) % 1_000_000).toString().padStart(6, "0")

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

// ---------------------------------------------------------------------------------------------
// Accounts through the public API
// ---------------------------------------------------------------------------------------------

export interface Registered {
  readonly id: string
  readonly customerId: CustomerId
  readonly email: string
  readonly password: string
  readonly phone?: { readonly national: string; readonly e164: string; readonly international: string }
}

export interface RegisterOptions {
  readonly withPhone?: boolean
  readonly password?: string
  readonly referralCode?: string
}

/** Registers an account (201 expected), optionally with a phone number or a referral code. */
export const register = (tag: string, options: RegisterOptions = {}) =>
  Effect.gen(function*() {
    const email = uniqueEmail(tag)
    const password = options.password ?? `pw-${tag}-12345`
    const phone = options.withPhone === true ? uniquePhone() : undefined
    const reply = yield* post("/api/v1/auth/register", {
      email,
      password,
      ...(phone === undefined ? {} : { phone: phone.national }),
      ...(options.referralCode === undefined ? {} : { referralCode: options.referralCode })
    })
    const result = expectSuccess(reply, { status: 201 })
    return {
      id: result.id,
      customerId: result.customer.id,
      email,
      password,
      ...(phone === undefined ? {} : { phone })
    } satisfies Registered
  })

/** Sends the email code and verifies it; returns the account with its first token pair. */
export const verifiedAccount = (tag: string, options: RegisterOptions = {}) =>
  Effect.gen(function*() {
    const account = yield* register(tag, options)
    expectSuccess(yield* post("/api/v1/auth/otp/email/send", { accountId: account.id }))
    const code = lastCode(account.email, "email_verification")
    const tokens = expectSuccess(yield* post("/api/v1/auth/otp/email/verify", { accountId: account.id, pin: code }))
    return { ...account, accessToken: tokens.accessToken as string, refreshToken: tokens.refreshToken as string }
  })

export const login = (credentials: Record<string, unknown>) => post("/api/v1/auth/login", credentials)

export const me = (token?: string) => api("GET", "/api/v1/customers/me", undefined, token)

// ---------------------------------------------------------------------------------------------
// Access tokens
// ---------------------------------------------------------------------------------------------

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

/** An HS256 JWT over `claims`, signed with `secret` (the server's development key by default). */
export const signJwt = (claims: Record<string, unknown>, secret: string = DevelopmentSecrets.ACCESS_TOKEN_SECRET) => {
  const head = `${b64url({ alg: "HS256", typ: "JWT" })}.${b64url(claims)}`
  return `${head}.${createHmac("sha256", secret).update(head).digest("base64url")}`
}

/** The claims the server puts in a customer access token, valid for 15 minutes from now. */
export const customerClaims = (accountId: string, overrides: Record<string, unknown> = {}) => {
  const iat = Math.floor(Date.now() / 1000)
  return { sub: accountId, iss: "kobo-plans", aud: "customer", iat, exp: iat + 900, ...overrides }
}

export const decodeJwtPayload = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"))

// ---------------------------------------------------------------------------------------------
// Database tweaks (what the live clock or missing admin endpoints cannot reach)
// ---------------------------------------------------------------------------------------------

/** Moves every one-time code of the account one minute past its expiry. */
export const expireOtps = (accountId: AccountId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE one_time_codes SET expires_at = now() - interval '1 minute' WHERE account_id = ${accountId}`).pipe(
      Effect.orDie
    )

/** Moves every refresh token of the account one minute past its expiry. */
export const expireRefreshTokens = (accountId: AccountId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE refresh_tokens SET expires_at = now() - interval '1 minute' WHERE account_id = ${accountId}`).pipe(
      Effect.orDie
    )

/** Suspends the customer, as an admin freeze would. */
export const suspend = (accountId: AccountId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE customers SET customer_status = 'suspended' WHERE account_id = ${accountId}`).pipe(Effect.orDie)
