/**
 * The cookie profile: GET/PATCH /users/profile with the app_token cookie that sign-in, OTP
 * verification and refresh set; the Origin check of PATCH; CORS for APP_ORIGINS; Secure cookies
 * in production.
 */
import { HttpClientRequest } from "@effect/platform"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectFailure, expectSuccess, expectValidation, login, post, register, verifiedAccount } from "./support/Fixtures.js"
import { lastCode, send, testServer } from "./support/TestServer.js"

const PROFILE = "/users/profile"
const APP = "https://app.example.com"

/** The app_token value a Set-Cookie header sets. */
const appToken = (setCookie: string | undefined) => {
  expect(setCookie, "Set-Cookie").toBeDefined()
  const match = /^app_token=([^;]+);/.exec(setCookie!)
  expect(match, setCookie).not.toBeNull()
  return match![1]!
}

const withCookie = (token: string | undefined, headers: Record<string, string> = {}) => (r: HttpClientRequest.HttpClientRequest) =>
  HttpClientRequest.setHeaders(r, { ...(token === undefined ? {} : { cookie: `app_token=${token}` }), ...headers })

const getProfile = (token?: string, headers: Record<string, string> = {}) =>
  send(HttpClientRequest.get(PROFILE).pipe(withCookie(token, headers)))

const patchProfile = (body: unknown, token?: string, headers: Record<string, string> = { origin: APP }) =>
  send(HttpClientRequest.patch(PROFILE).pipe(withCookie(token, headers), HttpClientRequest.bodyUnsafeJson(body)))

/** Signs in by password and returns the cookie's token. */
const cookieFor = (credentials: { email: string; password: string }) =>
  Effect.map(login(credentials), (reply) => {
    expectSuccess(reply)
    return appToken(reply.headers["set-cookie"])
  })

layer(testServer({ appOrigins: [APP, "http://localhost:3000"] }), { excludeTestServices: true, timeout: "90 seconds" })("the cookie profile", (it) => {
  describe("the app_token cookie", () => {
    it.effect("login, OTP verification and refresh set it: HttpOnly, SameSite=Lax, Path=/, 15 minutes, not Secure outside production", () =>
      Effect.gen(function*() {
        const account = yield* register("cookie-set")
        expectSuccess(yield* post("/api/v1/auth/otp/email/send", { accountId: account.id }))
        const verified = yield* post("/api/v1/auth/otp/email/verify", { accountId: account.id, pin: lastCode(account.email, "email_verification") })
        const tokens = expectSuccess(verified)
        expect(appToken(verified.headers["set-cookie"])).toBe(tokens.accessToken)
        const cookie = verified.headers["set-cookie"]!
        for (const attribute of [/HttpOnly/i, /SameSite=Lax/i, /Path=\//i, /Max-Age=900/i]) expect(cookie).toMatch(attribute)
        expect(cookie).not.toMatch(/Secure/i)

        const signedIn = yield* login({ email: account.email, password: account.password })
        expect(appToken(signedIn.headers["set-cookie"])).toBe(expectSuccess(signedIn).accessToken)
        const refreshed = yield* post("/api/v1/auth/refresh-token", { refreshToken: tokens.refreshToken })
        expect(appToken(refreshed.headers["set-cookie"])).toBe(expectSuccess(refreshed).accessToken)
        // failures set nothing
        expect((yield* login({ email: account.email, password: "wrong-password-1" })).headers["set-cookie"]).toBeUndefined()
      }))
  })

  describe("GET /users/profile", () => {
    it.effect("answers {id, name, email, whatsappNumber, isAdmin, createdAt} for the cookie's account", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("profile-get")
        const reply = yield* getProfile(yield* cookieFor(account))
        const profile = expectSuccess(reply, { apiObject: "User" })
        expect(Object.keys(profile).sort()).toEqual(["createdAt", "email", "id", "isAdmin", "name", "whatsappNumber"])
        expect(profile).toMatchObject({ id: account.id, email: account.email, whatsappNumber: null, isAdmin: false })
        expect(profile.name).toBe(account.email.split("@")[0]) // no names yet: the email's local part
        expect(new Date(profile.createdAt).toISOString()).toBe(profile.createdAt)
      }))

    it.effect("401 without the cookie, with a bad one, or with only a bearer header; 403 for a suspended account", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("profile-401")
        for (const reply of [
          yield* getProfile(),
          yield* getProfile("not.a.jwt"),
          yield* send(HttpClientRequest.get(PROFILE).pipe(HttpClientRequest.bearerToken(account.accessToken)))
        ]) {
          expect(expectFailure(reply, 401, "Authentication required", "User").code).toBe("AUTHENTICATION_REQUIRED")
        }
        const token = yield* cookieFor(account)
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE customers SET customer_status = 'suspended' WHERE account_id = ${account.id}`.pipe(Effect.orDie)
        expect(expectFailure(yield* getProfile(token), 403, "Account suspended", "User").code).toBe("ACCOUNT_SUSPENDED")
      }))
  })

  describe("PATCH /users/profile", () => {
    it.effect("changes the display name and the WhatsApp number (normalised; null clears it); KYC names stay", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("profile-patch")
        const token = yield* cookieFor(account)
        const updated = expectSuccess(yield* patchProfile({ name: "  Ada the Saver ", whatsappNumber: "0803 123 4567".replace(/ /g, "") }, token), {
          apiObject: "User",
          message: "Profile updated."
        })
        expect(updated).toMatchObject({ name: "Ada the Saver", whatsappNumber: "+2348031234567" })
        expect(expectSuccess(yield* getProfile(token), { apiObject: "User" })).toEqual(updated)
        expect(expectSuccess(yield* patchProfile({ whatsappNumber: null }, token), { apiObject: "User" })).toMatchObject({
          name: "Ada the Saver",
          whatsappNumber: null
        })
        expect(expectSuccess(yield* patchProfile({}, token), { apiObject: "User" }).name).toBe("Ada the Saver")
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ firstName: string | null; phone: string | null }>`SELECT first_name, phone FROM accounts WHERE id = ${account.id}`.pipe(Effect.orDie)
        expect(row).toEqual({ firstName: null, phone: null })
      }))

    it.effect("400 naming the field for a bad name or number; 401 without the cookie", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("profile-bad")
        const token = yield* cookieFor(account)
        expectValidation(yield* patchProfile({ name: "   " }, token), { fields: ["name"], apiObject: "User" })
        expectValidation(yield* patchProfile({ name: "x".repeat(101) }, token), { fields: ["name"], apiObject: "User" })
        expectValidation(yield* patchProfile({ whatsappNumber: "12345" }, token), { fields: ["whatsappNumber"], apiObject: "User" })
        expectValidation(yield* patchProfile({ whatsappNumber: 8031234567 }, token), { fields: ["whatsappNumber"], apiObject: "User" })
        expectFailure(yield* patchProfile({ name: "Ada" }), 401, "Authentication required", "User")
      }))

    it.effect("cross-site: another Origin, or Sec-Fetch-Site cross-site → 403 ORIGIN_NOT_ALLOWED and nothing changes", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("profile-csrf")
        const token = yield* cookieFor(account)
        for (const headers of [{ origin: "https://evil.example.com" }, { origin: "null" }, { "sec-fetch-site": "cross-site" }]) {
          const error = expectFailure(yield* patchProfile({ name: "Hacked" }, token, headers), 403, "Cross-site request refused", "User")
          expect(error.code).toBe("ORIGIN_NOT_ALLOWED")
        }
        expect(expectSuccess(yield* getProfile(token), { apiObject: "User" }).name).not.toBe("Hacked")
        // the configured origins, same-site browsers and non-browser clients pass
        expectSuccess(yield* patchProfile({ name: "From localhost" }, token, { origin: "http://localhost:3000" }), { apiObject: "User" })
        expectSuccess(yield* patchProfile({ name: "Same site" }, token, { "sec-fetch-site": "same-site" }), { apiObject: "User" })
        expectSuccess(yield* patchProfile({ name: "A script" }, token, {}), { apiObject: "User" })
      }))
  })

  describe("CORS", () => {
    it.effect("a preflight from an allowed origin is answered with credentials; another origin gets no CORS headers", () =>
      Effect.gen(function*() {
        const preflight = (origin: string) =>
          send(HttpClientRequest.make("OPTIONS")(PROFILE).pipe(HttpClientRequest.setHeaders({
            origin,
            "access-control-request-method": "PATCH",
            "access-control-request-headers": "content-type"
          })))
        const allowed = yield* preflight(APP)
        expect(allowed.status).toBeLessThan(300)
        expect(allowed.headers["access-control-allow-origin"]).toBe(APP)
        expect(allowed.headers["access-control-allow-credentials"]).toBe("true")
        expect(allowed.headers["access-control-allow-methods"]).toMatch(/PATCH/)
        const other = yield* preflight("https://evil.example.com")
        expect(other.headers["access-control-allow-origin"]).toBeUndefined()
      }))
  })
})

layer(testServer({ appEnv: "production" }), { excludeTestServices: true, timeout: "90 seconds" })("the cookie in production", (it) => {
  it.effect("is Secure", () =>
    Effect.gen(function*() {
      const account = yield* register("cookie-prod")
      const reply = yield* login({ email: account.email, password: account.password })
      expectSuccess(reply)
      expect(reply.headers["set-cookie"]).toMatch(/; Secure/i)
    }))
})
