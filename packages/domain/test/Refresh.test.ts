import {describe, expect, it} from "@effect/vitest"
import {Duration, Effect, Logger, TestClock} from "effect"
import * as Auth from "../src/auth/index.js"
import { RefreshTokenRepo } from "../src/auth/Ports.js"
import {ADA, inMemory, pw, registerAda} from "./support/Fixtures.js"
import {Store} from "./support/InMemory.js"

const signIn = Effect.gen(function*() {
  const { account } = yield* registerAda()
  const tokens = yield* Auth.login({ email: ADA.email, password: pw(ADA.password) })
  return { accountId: account.id, tokens }
})

const invalid = (raw: string) => Effect.map(Effect.flip(Auth.rotateRefreshToken(raw)), (e) => e._tag)

describe("refresh token rotation", () => {
  it("TokenPolicy: 15 minute access tokens, 30 day refresh tokens", () => {
    expect(Duration.toMinutes(Auth.TokenPolicy.accessTokenTtl)).toBe(15)
    expect(Duration.toDays(Auth.TokenPolicy.refreshTokenTtl)).toBe(30)
  })

  it.effect("rotate gives a new pair in the same family; the old token is single-use", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, tokens } = yield* signIn
      const next = yield* Auth.rotateRefreshToken(tokens.refreshToken)
      expect(next.refreshToken).not.toBe(tokens.refreshToken)
      expect((yield* Auth.authenticate(next.accessToken)).account.id).toBe(accountId)
      const [first, second] = yield* Store.refreshTokens
      expect(first!.usedAt).not.toBeNull()
      expect(second).toMatchObject({ accountId, familyId: first!.familyId, usedAt: null, revokedAt: null })
      // and the new one rotates in turn
      const third = yield* Auth.rotateRefreshToken(next.refreshToken)
      expect(new Set([tokens.refreshToken, next.refreshToken, third.refreshToken]).size).toBe(3)
    })))

  it.effect("replaying a used token revokes the family: the newest token fails too", () =>
    inMemory(Effect.gen(function*() {
      const { tokens } = yield* signIn
      const next = yield* Auth.rotateRefreshToken(tokens.refreshToken)
      expect(yield* invalid(tokens.refreshToken)).toBe("InvalidRefreshToken")
      expect((yield* Store.refreshTokens).every((t) => t.revokedAt !== null)).toBe(true)
      expect(yield* invalid(next.refreshToken)).toBe("InvalidRefreshToken")
      expect((yield* Effect.flip(Auth.accessTokenFor(next.refreshToken)))._tag).toBe("InvalidRefreshToken")
    })))

  it.effect("reuse logs a warning and leaves other families (other devices) alone", () =>
    inMemory(Effect.gen(function*() {
      const logs: Array<string> = []
      const capture = Logger.make(({ logLevel, message }) => {
        logs.push(`${logLevel.label}: ${Array.isArray(message) ? message.join(" ") : String(message)}`)
      })
      const { tokens } = yield* signIn
      const otherDevice = yield* Auth.login({ email: ADA.email, password: pw(ADA.password) })
      yield* Auth.rotateRefreshToken(tokens.refreshToken)
      yield* invalid(tokens.refreshToken).pipe(Effect.provide(Logger.add(capture)))
      expect(logs.some((l) => l.startsWith("WARN") && l.includes("reuse"))).toBe(true)
      yield* Auth.rotateRefreshToken(otherDevice.refreshToken)
    })))

  it.effect("an unknown token is InvalidRefreshToken", () =>
    inMemory(Effect.gen(function*() {
      yield* signIn
      expect(yield* invalid("tok32_99999999")).toBe("InvalidRefreshToken")
    })))

  it.effect("accessTokenFor gives an access token without rotating", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, tokens } = yield* signIn
      yield* TestClock.adjust(Duration.minutes(20))
      const { accessToken } = yield* Auth.accessTokenFor(tokens.refreshToken)
      expect((yield* Auth.authenticate(accessToken)).account.id).toBe(accountId)
      const again = yield* Auth.accessTokenFor(tokens.refreshToken)
      expect(again.accessToken).toBe(accessToken)
      expect(yield* Store.refreshTokens).toHaveLength(1)
      expect((yield* Store.refreshTokens)[0]!.usedAt).toBeNull()
      // still unused, so it can still rotate
      yield* Auth.rotateRefreshToken(tokens.refreshToken)
    })))

  it.effect("a refresh token works until just before 30 days and is expired at 30 days", () =>
    inMemory(Effect.gen(function*() {
      const { tokens } = yield* signIn
      yield* TestClock.adjust(Duration.millis(Duration.toMillis(Duration.days(30)) - 1))
      yield* Auth.accessTokenFor(tokens.refreshToken)
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* invalid(tokens.refreshToken)).toBe("InvalidRefreshToken")
      expect((yield* Effect.flip(Auth.accessTokenFor(tokens.refreshToken)))._tag).toBe("InvalidRefreshToken")
    })))

  it.effect("a rotated token's 30 days start at rotation", () =>
    inMemory(Effect.gen(function*() {
      const { tokens } = yield* signIn
      yield* TestClock.adjust(Duration.days(20))
      const next = yield* Auth.rotateRefreshToken(tokens.refreshToken)
      yield* TestClock.adjust(Duration.days(20))
      yield* Auth.rotateRefreshToken(next.refreshToken)
    })))

  it.effect("authenticate(accessToken) works for 15 minutes, then fails", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, tokens } = yield* signIn
      yield* TestClock.adjust(Duration.millis(15 * 60_000 - 1))
      expect((yield* Auth.authenticate(tokens.accessToken)).account.id).toBe(accountId)
      yield* TestClock.adjust(Duration.millis(1))
      expect((yield* Effect.flip(Auth.authenticate(tokens.accessToken)))._tag).toBe("Unauthenticated")
      // the refresh token is what gets a new one
      const next = yield* Auth.rotateRefreshToken(tokens.refreshToken)
      expect((yield* Auth.authenticate(next.accessToken)).account.id).toBe(accountId)
    })))

  it.effect("suspended accounts cannot refresh; deleted ones get InvalidRefreshToken", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, tokens } = yield* signIn
      yield* Store.setCustomerStatus(accountId, "suspended")
      expect((yield* Effect.flip(Auth.rotateRefreshToken(tokens.refreshToken)))._tag).toBe("AccountSuspended")
      expect((yield* Store.refreshTokens)[0]!.usedAt).toBeNull()
      yield* Store.setCustomerStatus(accountId, "deleted")
      expect(yield* invalid(tokens.refreshToken)).toBe("InvalidRefreshToken")
    })))

  it.effect("two concurrent rotations of one token: one wins, the other revokes the family", () =>
    inMemory(Effect.gen(function*() {
      const { tokens } = yield* signIn
      const results = yield* Effect.all(
        [Auth.rotateRefreshToken(tokens.refreshToken), Auth.rotateRefreshToken(tokens.refreshToken)].map(Effect.either),
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => r._tag === "Left")).toHaveLength(1)
      // whoever won, the family is now revoked
      expect((yield* Store.refreshTokens)[0]!.revokedAt).not.toBeNull()
    })))

  it.effect("when markUsed loses a race (returns false) the rotation fails and the family is revoked", () =>
    inMemory(Effect.gen(function*() {
      const { tokens } = yield* signIn
      const repo = yield* RefreshTokenRepo
      const raced = { ...repo, markUsed: () => Effect.succeed(false) }
      const error = yield* Effect.flip(Auth.rotateRefreshToken(tokens.refreshToken).pipe(Effect.provideService(RefreshTokenRepo, raced)))
      expect(error._tag).toBe("InvalidRefreshToken")
      const all = yield* Store.refreshTokens
      expect(all).toHaveLength(1)
      expect(all[0]!.revokedAt).not.toBeNull()
    })))
})
