/**
 * Tokens: POST /auth/refresh-token (rotation, single use, reuse revokes the family) and
 * POST /auth/token (access token only, no rotation), and the access token's lifetime.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import {
  decodeJwtPayload,
  expectFailure,
  expectSuccess,
  expectValidation,
  expireRefreshTokens,
  login,
  me,
  post,
  register
} from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"

const REFRESH = "/api/v1/auth/refresh-token"
const TOKEN = "/api/v1/auth/token"
const INVALID = "Invalid or expired refresh token"

const signIn = (tag: string) =>
  Effect.gen(function*() {
    const account = yield* register(tag)
    const tokens = expectSuccess(yield* login({ email: account.email, password: account.password }))
    return { ...account, accessToken: tokens.accessToken as string, refreshToken: tokens.refreshToken as string }
  })

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("tokens", (it) => {
  describe("access tokens", () => {
    it.effect("are JWTs for the account that expire 15 minutes after issue", () =>
      Effect.gen(function*() {
        const session = yield* signIn("jwt")
        const claims = decodeJwtPayload(session.accessToken)
        expect(claims.sub).toBe(session.id)
        expect(Number(claims.exp) - Number(claims.iat)).toBe(15 * 60)
        expect(Math.abs(Number(claims.iat) - Date.now() / 1000)).toBeLessThan(60)
      }))
  })

  describe("POST /auth/refresh-token", () => {
    it.effect("returns a new pair; the new tokens work", () =>
      Effect.gen(function*() {
        const session = yield* signIn("rotate")
        const next = expectSuccess(yield* post(REFRESH, { refreshToken: session.refreshToken }))
        expect(Object.keys(next).sort()).toEqual(["accessToken", "refreshToken"])
        expect(next.refreshToken).not.toBe(session.refreshToken)
        expect(expectSuccess(yield* me(next.accessToken), { apiObject: "Customer" }).id).toBe(session.id)
        expectSuccess(yield* post(REFRESH, { refreshToken: next.refreshToken }))
      }))

    it.effect("the old refresh token is single-use: replaying it is 401", () =>
      Effect.gen(function*() {
        const session = yield* signIn("replay")
        expectSuccess(yield* post(REFRESH, { refreshToken: session.refreshToken }))
        expectFailure(yield* post(REFRESH, { refreshToken: session.refreshToken }), 401, INVALID)
      }))

    it.effect("replaying a used token revokes the token that replaced it (whole family)", () =>
      Effect.gen(function*() {
        const session = yield* signIn("family")
        const second = expectSuccess(yield* post(REFRESH, { refreshToken: session.refreshToken }))
        const third = expectSuccess(yield* post(REFRESH, { refreshToken: second.refreshToken }))
        expectFailure(yield* post(REFRESH, { refreshToken: session.refreshToken }), 401, INVALID)
        expectFailure(yield* post(REFRESH, { refreshToken: third.refreshToken }), 401, INVALID)
        expectFailure(yield* post(TOKEN, { refreshToken: third.refreshToken }), 401, INVALID)
      }))

    it.effect("a replay in one session does not sign out another session of the same account", () =>
      Effect.gen(function*() {
        const session = yield* signIn("sessions")
        const other = expectSuccess(yield* login({ email: session.email, password: session.password }))
        expectSuccess(yield* post(REFRESH, { refreshToken: session.refreshToken }))
        expectFailure(yield* post(REFRESH, { refreshToken: session.refreshToken }), 401, INVALID)
        expectSuccess(yield* post(REFRESH, { refreshToken: other.refreshToken }))
      }))

    it.effect("an unknown token is 401", () =>
      Effect.gen(function*() {
        expectFailure(yield* post(REFRESH, { refreshToken: "not-a-real-refresh-token" }), 401, INVALID)
      }))

    it.effect("an expired token is 401", () =>
      Effect.gen(function*() {
        const session = yield* signIn("expired")
        yield* expireRefreshTokens(session.id)
        expectFailure(yield* post(REFRESH, { refreshToken: session.refreshToken }), 401, INVALID)
      }))

    it.effect("an access token is not accepted as a refresh token", () =>
      Effect.gen(function*() {
        const session = yield* signIn("wrongkind")
        expectFailure(yield* post(REFRESH, { refreshToken: session.accessToken }), 401, INVALID)
      }))

    it.effect("missing, empty or non-string refreshToken → 400 naming refreshToken", () =>
      Effect.gen(function*() {
        expectValidation(yield* post(REFRESH, {}), { fields: ["refreshToken"] })
        expectValidation(yield* post(REFRESH, { refreshToken: "" }), { fields: ["refreshToken"] })
        expectValidation(yield* post(REFRESH, { refreshToken: 42 }), { fields: ["refreshToken"] })
      }))
  })

  describe("POST /auth/token", () => {
    it.effect("returns only an access token, which works", () =>
      Effect.gen(function*() {
        const session = yield* signIn("access")
        const result = expectSuccess(yield* post(TOKEN, { refreshToken: session.refreshToken }))
        expect(Object.keys(result)).toEqual(["accessToken"])
        const claims = decodeJwtPayload(result.accessToken)
        expect(claims.sub).toBe(session.id)
        expect(expectSuccess(yield* me(result.accessToken), { apiObject: "Customer" }).id).toBe(session.id)
      }))

    it.effect("does not rotate: the same refresh token keeps working, also for /auth/refresh-token", () =>
      Effect.gen(function*() {
        const session = yield* signIn("norotate")
        expectSuccess(yield* post(TOKEN, { refreshToken: session.refreshToken }))
        expectSuccess(yield* post(TOKEN, { refreshToken: session.refreshToken }))
        expectSuccess(yield* post(REFRESH, { refreshToken: session.refreshToken }))
        // …and once rotated away, /auth/token refuses it too
        expectFailure(yield* post(TOKEN, { refreshToken: session.refreshToken }), 401, INVALID)
      }))

    it.effect("a missing refreshToken is 401", () =>
      Effect.gen(function*() {
        expectFailure(yield* post(TOKEN, {}), 401, INVALID)
      }))

    it.effect("an empty refreshToken is 401", () =>
      Effect.gen(function*() {
        expectFailure(yield* post(TOKEN, { refreshToken: "" }), 401, INVALID)
      }))

    it.effect("an unknown or expired refreshToken is 401", () =>
      Effect.gen(function*() {
        expectFailure(yield* post(TOKEN, { refreshToken: "garbage" }), 401, INVALID)
        const session = yield* signIn("tokenexpired")
        yield* expireRefreshTokens(session.id)
        expectFailure(yield* post(TOKEN, { refreshToken: session.refreshToken }), 401, INVALID)
      }))

    it.effect("a non-string refreshToken is a validation error naming it", () =>
      Effect.gen(function*() {
        expectValidation(yield* post(TOKEN, { refreshToken: ["x"] }), { fields: ["refreshToken"] })
      }))
  })
})
