/** GET /api/v1/customers/me: the profile before a bank account exists, and bearer authentication. */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import {
  api,
  customerClaims,
  expectFailure,
  expectSuccess,
  login,
  me,
  post,
  signJwt,
  suspend,
  UUID_PATTERN,
  uniqueEmail,
  uniquePhone,
  verifiedAccount
} from "./support/Fixtures.js"
import { lastCode, TestServer } from "./support/TestServer.js"

const AUTH_REQUIRED = "Authentication required"

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("customers/me", (it) => {
  describe("profile", () => {
    it.effect("returns the account and customer fields of a freshly verified customer", () =>
      Effect.gen(function*() {
        const phone = uniquePhone()
        const email = uniqueEmail("profile")
        const started = Date.now()
        const registered = expectSuccess(
          yield* post("/api/v1/auth/register", {
            email,
            password: "profile-pass-1",
            firstName: "Chidi",
            lastName: "Okeke",
            phone: phone.national,
            dateOfBirth: "1988-02-29",
            gender: "male",
            address: "4 Allen Avenue, Ikeja"
          }),
          { status: 201 }
        )
        expectSuccess(yield* post("/api/v1/auth/otp/email/send", { accountId: registered.id }))
        const tokens = expectSuccess(
          yield* post("/api/v1/auth/otp/email/verify", {
            accountId: registered.id,
            pin: lastCode(email, "email_verification")
          })
        )
        const reply = yield* me(tokens.accessToken)
        const profile = expectSuccess(reply, { apiObject: "Customer", message: "Success." })
        expect(profile).toMatchObject({
          id: registered.id,
          customerId: registered.customer.id,
          firstName: "Chidi",
          lastName: "Okeke",
          phone: phone.e164,
          email,
          emailVerified: true,
          phoneVerified: false,
          dateOfBirth: "1988-02-29",
          gender: "male",
          address: "4 Allen Avenue, Ikeja",
          customerStatus: "verified",
          kycStatus: "pending",
          hasPin: false,
          notificationSettings: { smsEnabled: true, emailEnabled: true }
        })
        expect(Object.keys(profile.notificationSettings).sort()).toEqual(["emailEnabled", "smsEnabled"])
        expect(profile.referralCode).toMatch(/^[A-Z0-9]{6,}$/)
        expect(new Date(profile.createdAt).toISOString()).toBe(profile.createdAt)
        expect(Date.parse(profile.createdAt)).toBeGreaterThanOrEqual(started - 2000)
        expect(Date.parse(profile.createdAt)).toBeLessThanOrEqual(Date.now() + 2000)
        expect(profile.customerId).toMatch(UUID_PATTERN)
      }))

    it.effect("has no balance before a bank account exists, and no secrets", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("nobalance")
        const reply = yield* me(account.accessToken)
        const profile = expectSuccess(reply, { apiObject: "Customer" })
        expect(profile).not.toHaveProperty("balance")
        expect(profile).not.toHaveProperty("balanceKobo")
        expect(reply.text).not.toMatch(/password|pinHash|pin_hash|bvn/i)
        expect(reply.text).not.toContain(account.password)
      }))

    it.effect("an unverified customer who signs in sees customerStatus 'unverified'", () =>
      Effect.gen(function*() {
        const email = uniqueEmail("unverified")
        expectSuccess(yield* post("/api/v1/auth/register", { email, password: "unverified-1" }), { status: 201 })
        const tokens = expectSuccess(yield* login({ email, password: "unverified-1" }))
        expect(expectSuccess(yield* me(tokens.accessToken), { apiObject: "Customer" })).toMatchObject({
          email,
          emailVerified: false,
          customerStatus: "unverified",
          phone: null
        })
      }))

    it.effect("each token sees its own customer", () =>
      Effect.gen(function*() {
        const a = yield* verifiedAccount("owner-a")
        const b = yield* verifiedAccount("owner-b")
        expect(expectSuccess(yield* me(a.accessToken), { apiObject: "Customer" }).email).toBe(a.email)
        expect(expectSuccess(yield* me(b.accessToken), { apiObject: "Customer" }).email).toBe(b.email)
      }))
  })

  describe("authentication: 401 'Authentication required'", () => {
    it.effect("without a token", () =>
      Effect.gen(function*() {
        expectFailure(yield* me(), 401, AUTH_REQUIRED, "Customer")
      }))

    it.effect("with a garbage token", () =>
      Effect.gen(function*() {
        expectFailure(yield* me("garbage"), 401, AUTH_REQUIRED, "Customer")
        expectFailure(yield* me("a.b.c"), 401, AUTH_REQUIRED, "Customer")
      }))

    it.effect("with a token signed by another key (the same claims signed by the server's key pass)", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("forged")
        const claims = customerClaims(account.id)
        expectSuccess(yield* me(signJwt(claims)), { apiObject: "Customer" })
        const forged = signJwt(claims, "an-attacker-key-that-is-long-enough-0123456789")
        expectFailure(yield* me(forged), 401, AUTH_REQUIRED, "Customer")
      }))

    it.effect("with an expired token", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("expiredjwt")
        const iat = Math.floor(Date.now() / 1000) - 16 * 60
        expectFailure(yield* me(signJwt(customerClaims(account.id, { iat, exp: iat + 900 }))), 401, AUTH_REQUIRED, "Customer")
      }))

    it.effect("with a token for another audience or issuer, or with alg 'none'", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("wrongclaims")
        expectFailure(yield* me(signJwt(customerClaims(account.id, { aud: "admin" }))), 401, AUTH_REQUIRED, "Customer")
        expectFailure(yield* me(signJwt(customerClaims(account.id, { iss: "someone-else" }))), 401, AUTH_REQUIRED, "Customer")
        const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url")
        const unsigned = `${b64({ alg: "none", typ: "JWT" })}.${b64(customerClaims(account.id))}.`
        expectFailure(yield* me(unsigned), 401, AUTH_REQUIRED, "Customer")
      }))

    it.effect("with a validly signed token for an account that does not exist", () =>
      Effect.gen(function*() {
        expectFailure(yield* me(signJwt(customerClaims(randomUUID()))), 401, AUTH_REQUIRED, "Customer")
      }))

    it.effect("with a refresh token in place of the access token", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("refreshasaccess")
        expectFailure(yield* me(account.refreshToken), 401, AUTH_REQUIRED, "Customer")
      }))

    it.effect("with a scheme other than Bearer", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("basic")
        const reply = yield* Effect.gen(function*() {
          const client = yield* HttpClient.HttpClient
          const response = yield* client.execute(
            HttpClientRequest.get("/api/v1/customers/me").pipe(
              HttpClientRequest.setHeader("authorization", `Token ${account.accessToken}`)
            )
          )
          return { status: response.status, body: yield* response.json as Effect.Effect<any, unknown> }
        }).pipe(Effect.scoped, Effect.orDie)
        expect(reply.status).toBe(401)
        expect(reply.body).toEqual({
          apiObject: "Customer",
          code: 401,
          status: "failure",
          message: AUTH_REQUIRED,
          result: {},
          error: { code: "AUTHENTICATION_REQUIRED" },
          data: { code: "AUTHENTICATION_REQUIRED" }
        })
      }))
  })

  describe("suspended customers", () => {
    it.effect("403 'Account suspended' with an otherwise valid token", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("suspendedme")
        yield* suspend(account.id)
        expectFailure(yield* me(account.accessToken), 403, "Account suspended", "Customer")
        expectFailure(yield* api("POST", "/api/v1/auth/otp/request", undefined, account.accessToken), 403, "Account suspended")
      }))
  })
})
