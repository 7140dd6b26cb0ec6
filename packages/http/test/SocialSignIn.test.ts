/**
 * POST /oauth/social-sign-in and POST /auth/set-password against a real identity provider process
 * on loopback (support/IdentityProvider.ts): its key set, key rotation, its token endpoint, and
 * good, expired, wrong-audience, wrong-issuer, unverified-email and forged tokens.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll } from "vitest"
import { api, expectFailure, expectSuccess, expectValidation, login, me, post, register, uniqueEmail } from "./support/Fixtures.js"
import { type IdTokenClaims, startIdentityProvider } from "./support/IdentityProvider.js"
import { testServer } from "./support/TestServer.js"
import { AccountId } from "@app/domain"

const SOCIAL = "/api/v1/oauth/social-sign-in"
const SET_PASSWORD = "/api/v1/auth/set-password"
const REDIRECT = "https://app.example.com/auth/callback"
const REJECTED = /./

const idp = await startIdentityProvider()
afterAll(() => idp.close())

const server = testServer({
  oauth: Option.some({
    jwksUrl: idp.jwksUrl,
    issuer: idp.issuer,
    clientIds: ["web-client", "android-client", "ios-client"],
    tokenUrl: Option.some(idp.tokenUrl),
    clientSecret: Option.some(Redacted.make("web-secret")),
    redirectUri: Option.some(REDIRECT),
    jwksRefreshCooldownMs: 0
  })
})

const person = (overrides: Partial<IdTokenClaims> = {}): IdTokenClaims => ({
  sub: `sub-${randomUUID()}`,
  email: uniqueEmail("social"),
  aud: "android-client",
  given_name: "Ngozi",
  family_name: "Eze",
  ...overrides
})

const signIn = (body: unknown) => post(SOCIAL, body)
const withToken = (claims: IdTokenClaims, body: Record<string, unknown> = {}) =>
  Effect.flatMap(Effect.promise(() => idp.idToken(claims)), (idToken) => signIn({ idToken, ...body }))

const rejected = (reply: { status: number; body: any; text: string; headers: Record<string, string> }) => {
  const error = expectFailure(reply, 401, REJECTED)
  expect(error.code).toBe("SOCIAL_TOKEN_REJECTED")
  expect(reply.headers["set-cookie"]).toBeUndefined()
}

const customerStatus = (accountId: AccountId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ customerStatus: string }>`SELECT customer_status FROM customers WHERE account_id = ${accountId}`).pipe(
      Effect.map((rows) => rows[0]?.customerStatus),
      Effect.orDie
    )

layer(server, { excludeTestServices: true, timeout: "90 seconds" })("social sign-in", (it) => {
  describe("a new email", () => {
    it.effect("creates a verified customer without a password; tokens, hasPin false and the app_token cookie", () =>
      Effect.gen(function*() {
        const claims = person()
        const reply = yield* withToken(claims)
        const result = expectSuccess(reply, { message: "Signed in." })
        expect(Object.keys(result).sort()).toEqual(["accessToken", "hasPin", "refreshToken"])
        expect(result.hasPin).toBe(false)
        const cookie = reply.headers["set-cookie"]!
        expect(cookie).toMatch(new RegExp(`^app_token=${result.accessToken.replace(/\./g, "\\.")};`))
        expect(cookie).toMatch(/HttpOnly/i)
        expect(cookie).toMatch(/SameSite=Lax/i)
        expect(cookie).toMatch(/Max-Age=900/i)
        expect(cookie).not.toMatch(/Secure/i) // only in production

        const profile = expectSuccess(yield* me(result.accessToken), { apiObject: "Customer" })
        expect(profile).toMatchObject({ email: claims.email, emailVerified: true, customerStatus: "verified", firstName: "Ngozi", lastName: "Eze", hasPin: false })
        // no password yet: password sign-in is refused like any wrong password
        expectFailure(yield* login({ email: claims.email, password: "anything-at-all" }), 401, "Invalid credentials")
      }))

    it.effect("the same subject signs in to the same account again; a referralCode then is ignored", () =>
      Effect.gen(function*() {
        const claims = person()
        const first = expectSuccess(yield* withToken(claims))
        const again = expectSuccess(yield* withToken(claims, { referralCode: "ZZZZZZZZ" }))
        const a = expectSuccess(yield* me(first.accessToken), { apiObject: "Customer" })
        const b = expectSuccess(yield* me(again.accessToken), { apiObject: "Customer" })
        expect(b.id).toBe(a.id)
      }))

    it.effect("a referralCode is applied to the new account; an unknown one is 400 and creates nothing", () =>
      Effect.gen(function*() {
        const referrer = expectSuccess(yield* withToken(person()))
        const code = expectSuccess(yield* me(referrer.accessToken), { apiObject: "Customer" }).referralCode
        expectValidation(yield* withToken(person(), { referralCode: "ZZZZZZZZ" }), { fields: ["referralCode"] })
        expectSuccess(yield* withToken(person(), { referralCode: code.toLowerCase() }))
        const summary = expectSuccess(yield* api("GET", "/api/v1/customers/referrals", undefined, referrer.accessToken), { apiObject: "Customer" })
        expect(summary).toMatchObject({ totalReferred: 1, successfulReferrals: 0 })
        expect(summary.referrals[0].name).toBe("Ngozi E.")
      }))
  })

  describe("an existing email", () => {
    it.effect("a password account is linked on first social sign-in and its email becomes verified (its unproven password cleared)", () =>
      Effect.gen(function*() {
        const account = yield* register("social-existing")
        expect(yield* customerStatus(account.id)).toBe("unverified")
        const claims = person({ email: account.email })
        const tokens = expectSuccess(yield* withToken(claims))
        const profile = expectSuccess(yield* me(tokens.accessToken), { apiObject: "Customer" })
        expect(profile).toMatchObject({ id: account.id, emailVerified: true, customerStatus: "verified" })
        // the email was never verified: the registrant's password no longer works (SocialPreClaim.test.ts);
        // the same subject keeps reaching this account
        expectFailure(yield* login({ email: account.email, password: account.password }), 401, "Invalid credentials")
        expect(expectSuccess(yield* me(expectSuccess(yield* withToken(claims)).accessToken), { apiObject: "Customer" }).id).toBe(account.id)
      }))

    it.effect("an account linked to another subject is refused with 403 SOCIAL_IDENTITY_MISMATCH", () =>
      Effect.gen(function*() {
        const claims = person()
        expectSuccess(yield* withToken(claims))
        const impostor = yield* withToken(person({ email: claims.email }))
        expect(expectFailure(impostor, 403, "This account is linked to another identity at the provider").code).toBe("SOCIAL_IDENTITY_MISMATCH")
      }))

    it.effect("suspended → 403 ACCOUNT_SUSPENDED; deleted → 403 ACCOUNT_DELETED, still after its email is freed", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const suspended = person()
        const s = expectSuccess(yield* me(expectSuccess(yield* withToken(suspended)).accessToken), { apiObject: "Customer" })
        yield* sql`UPDATE customers SET customer_status = 'suspended' WHERE account_id = ${s.id}`.pipe(Effect.orDie)
        expect(expectFailure(yield* withToken(suspended), 403, "Account suspended").code).toBe("ACCOUNT_SUSPENDED")

        const deleted = person()
        const d = expectSuccess(yield* me(expectSuccess(yield* withToken(deleted)).accessToken), { apiObject: "Customer" })
        yield* sql`UPDATE customers SET customer_status = 'deleted' WHERE account_id = ${d.id}`.pipe(Effect.orDie)
        expect(expectFailure(yield* withToken(deleted), 403, "This account was deleted").code).toBe("ACCOUNT_DELETED")
        // deletion frees the email: the subject still recognises the deleted identity
        yield* sql`UPDATE accounts SET email = ${`deleted-${d.id}@invalid`} WHERE id = ${d.id}`.pipe(Effect.orDie)
        expect(expectFailure(yield* withToken(deleted), 403, "This account was deleted").code).toBe("ACCOUNT_DELETED")
        // a password account that was deleted, never linked: refused by its email
        const old = yield* register("social-deleted")
        yield* sql`UPDATE customers SET customer_status = 'deleted' WHERE account_id = ${old.id}`.pipe(Effect.orDie)
        expect(expectFailure(yield* withToken(person({ email: old.email })), 403, "This account was deleted").code).toBe("ACCOUNT_DELETED")
      }))
  })

  describe("staff", () => {
    it.effect("a staff member's email → 403 STAFF_SIGN_IN_REFUSED; no customer is created", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const email = uniqueEmail("staff")
        yield* sql`INSERT INTO staff (id, email, created_at) VALUES (${randomUUID()}, ${email}, now())`.pipe(Effect.orDie)
        const refused = expectFailure(yield* withToken(person({ email: email.toUpperCase() })), 403, "Staff sign in to the back office")
        expect(refused.code).toBe("STAFF_SIGN_IN_REFUSED")
        expectSuccess(yield* post("/api/v1/auth/check-email", { email }))
      }))
  })

  describe("tokens the service refuses", () => {
    it.effect("expired, wrong audience, wrong issuer, unverified email, forged, alg none, HS/RS confusion, garbage: 401 SOCIAL_TOKEN_REJECTED", () =>
      Effect.gen(function*() {
        const claims = person()
        const tokens = [
          yield* Effect.promise(() => idp.idToken(claims, { expiresInSeconds: -120 })),
          yield* Effect.promise(() => idp.idToken({ ...claims, aud: "someone-elses-client" })),
          yield* Effect.promise(() => idp.idToken(claims, { issuer: "https://evil.example.com" })),
          yield* Effect.promise(() => idp.forgedToken(claims)),
          idp.noneAlgToken(claims),
          yield* Effect.promise(() => idp.hsConfusionToken(claims)),
          "not.a.jwt",
          "garbage"
        ]
        for (const idToken of tokens) rejected(yield* signIn({ idToken }))
        const unverified = yield* withToken({ ...claims, email_verified: false })
        rejected(unverified)
        expect(unverified.body.message).toBe("The identity provider has not verified this email")
        // none of them created an account
        expectFailure(yield* login({ email: claims.email, password: "whatever-12345" }), 401, "Invalid credentials")
        expectSuccess(yield* post("/api/v1/auth/check-email", { email: claims.email }))
      }))

    it.effect("a token expired by less than the 60 s skew still passes", () =>
      Effect.gen(function*() {
        const idToken = yield* Effect.promise(() => idp.idToken(person(), { expiresInSeconds: -20 }))
        expectSuccess(yield* signIn({ idToken }))
      }))

    it.effect("key rotation: the key set is cached, and refetched for a token with a new kid", () =>
      Effect.gen(function*() {
        expectSuccess(yield* withToken(person()))
        const before = idp.jwksRequests()
        expectSuccess(yield* withToken(person()))
        expect(idp.jwksRequests()).toBe(before) // cached
        yield* Effect.promise(() => idp.rotateKeys())
        expectSuccess(yield* withToken(person()))
        expect(idp.jwksRequests()).toBeGreaterThan(before)
      }))
  })

  describe("the web code", () => {
    it.effect("is exchanged at the token endpoint (web client id, secret, redirect URI) and works once", () =>
      Effect.gen(function*() {
        const claims = person({ aud: "web-client" })
        const code = idp.issueCode(claims, { redirectUri: REDIRECT })
        const tokens = expectSuccess(yield* signIn({ code }))
        expect(expectSuccess(yield* me(tokens.accessToken), { apiObject: "Customer" }).email).toBe(claims.email)
        expect(idp.tokenRequests().at(-1)).toMatchObject({
          grant_type: "authorization_code",
          code,
          client_id: "web-client",
          client_secret: "web-secret",
          redirect_uri: REDIRECT
        })
        const again = expectFailure(yield* signIn({ code }), 401, "The identity provider refused the authorization code")
        expect(again.code).toBe("SOCIAL_TOKEN_REJECTED")
        rejected(yield* signIn({ code: "never-issued" }))
      }))
  })

  describe("the request", () => {
    it.effect("neither idToken nor code, or both → 400 with a formError", () =>
      Effect.gen(function*() {
        expect(expectValidation(yield* signIn({}), { fields: [], form: true }).formErrors).toEqual(["Provide idToken (mobile) or code (web)"])
        expect(expectValidation(yield* signIn({ idToken: "a", code: "b" }), { fields: [], form: true }).formErrors).toEqual([
          "Provide idToken or code, not both"
        ])
        expectValidation(yield* signIn({ idToken: 42 }), { fields: ["idToken"] })
        expectValidation(yield* signIn({ idToken: "" }), { fields: ["idToken"] })
      }))
  })

  describe("POST /auth/set-password", () => {
    it.effect("sets a first password for a social account; 409 once one is set; 400 too short; 401 without a token", () =>
      Effect.gen(function*() {
        const claims = person()
        const tokens = expectSuccess(yield* withToken(claims))
        expectValidation(yield* post(SET_PASSWORD, { password: "short" }, tokens.accessToken), { fields: ["password"] })
        expectValidation(yield* post(SET_PASSWORD, {}, tokens.accessToken), { fields: ["password"] })
        expectSuccess(yield* post(SET_PASSWORD, { password: "my-first-password" }, tokens.accessToken), { message: "Password set." })
        expectSuccess(yield* login({ email: claims.email, password: "my-first-password" }))
        const conflict = expectFailure(yield* post(SET_PASSWORD, { password: "another-password" }, tokens.accessToken), 409, /already set/)
        expect(conflict.code).toBe("PASSWORD_ALREADY_SET")
        expectFailure(yield* post(SET_PASSWORD, { password: "another-password" }), 401, "Authentication required")
        // a registered account has a password from the start
        const account = yield* register("setpw-registered")
        const own = expectSuccess(yield* login({ email: account.email, password: account.password }))
        expectFailure(yield* post(SET_PASSWORD, { password: "another-password" }, own.accessToken), 409, /already set/)
      }))
  })
})
