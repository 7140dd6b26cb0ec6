import {describe, expect, it} from "@effect/vitest"
import {Effect} from "effect"
import * as Auth from "../src/auth/index.js"
import {ADA, inMemory, pw, registerAda} from "./support/Fixtures.js"
import {HasherProbe, Store} from "./support/InMemory.js"

describe("Auth.login", () => {
  it.effect("a valid email and password give a working token pair", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      const tokens = yield* Auth.login({ email: ADA.email, password: pw(ADA.password) })
      expect((yield* Auth.authenticate(tokens.accessToken)).account.id).toBe(account.id)
      const [stored] = yield* Store.refreshTokens
      expect(stored).toMatchObject({ accountId: account.id, familyId: stored!.id, usedAt: null, revokedAt: null })
    })))

  it.effect("a valid phone and password give tokens", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      const tokens = yield* Auth.login({ phone: ADA.phone, password: pw(ADA.password) })
      expect((yield* Auth.authenticate(tokens.accessToken)).account.id).toBe(account.id)
    })))

  it.effect("each sign-in starts a new token family", () =>
    inMemory(Effect.gen(function*() {
      yield* registerAda()
      const a = yield* Auth.login({ email: ADA.email, password: pw(ADA.password) })
      const b = yield* Auth.login({ email: ADA.email, password: pw(ADA.password) })
      expect(a.refreshToken).not.toBe(b.refreshToken)
      const [ta, tb] = yield* Store.refreshTokens
      expect(ta!.familyId).not.toBe(tb!.familyId)
    })))

  it.effect("unknown account and wrong password fail identically; only the unknown account calls dummyVerify", () =>
    inMemory(Effect.gen(function*() {
      yield* registerAda()
      const unknown = yield* Effect.flip(Auth.login({ email: "nobody@example.com", password: pw(ADA.password) }))
      expect(yield* HasherProbe.dummyVerifyCalls).toBe(1)
      expect(yield* HasherProbe.verifyCalls).toBe(0)

      const wrong = yield* Effect.flip(Auth.login({ email: ADA.email, password: pw("wrong password") }))
      expect(yield* HasherProbe.dummyVerifyCalls).toBe(1)
      expect(yield* HasherProbe.verifyCalls).toBe(1)

      const unknownPhone = yield* Effect.flip(Auth.login({ phone: "+2349099999999", password: pw(ADA.password) }))
      expect(yield* HasherProbe.dummyVerifyCalls).toBe(2)

      expect(unknown._tag).toBe("InvalidCredentials")
      expect(wrong).toEqual(unknown)
      expect(unknownPhone).toEqual(unknown)
      expect(yield* Store.refreshTokens).toEqual([])
    })))

  it.effect("an account without a password is InvalidCredentials after a dummy verify", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Store.patchAccount(account.id, { passwordHash: null })
      const error = yield* Effect.flip(Auth.login({ email: ADA.email, password: pw(ADA.password) }))
      expect(error._tag).toBe("InvalidCredentials")
      expect(yield* HasherProbe.dummyVerifyCalls).toBe(1)
    })))

  it.effect("suspended: AccountSuspended only after a correct password", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Store.setCustomerStatus(account.id, "suspended")
      const wrong = yield* Effect.flip(Auth.login({ email: ADA.email, password: pw("wrong password") }))
      expect(wrong._tag).toBe("InvalidCredentials")
      const right = yield* Effect.flip(Auth.login({ email: ADA.email, password: pw(ADA.password) }))
      expect(right._tag).toBe("AccountSuspended")
      expect(yield* Store.refreshTokens).toEqual([])
    })))

  it.effect("deleted: InvalidCredentials even with the correct password", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Store.setCustomerStatus(account.id, "deleted")
      const error = yield* Effect.flip(Auth.login({ email: ADA.email, password: pw(ADA.password) }))
      expect(error._tag).toBe("InvalidCredentials")
      expect(yield* Store.refreshTokens).toEqual([])
    })))
})

describe("Auth.authenticate", () => {
  it.effect("rejects garbage, suspended and deleted accounts", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      const { accessToken } = yield* Auth.login({ email: ADA.email, password: pw(ADA.password) })
      expect((yield* Effect.flip(Auth.authenticate("not a token")))._tag).toBe("Unauthenticated")
      yield* Store.setCustomerStatus(account.id, "suspended")
      expect((yield* Effect.flip(Auth.authenticate(accessToken)))._tag).toBe("AccountSuspended")
      yield* Store.setCustomerStatus(account.id, "deleted")
      expect((yield* Effect.flip(Auth.authenticate(accessToken)))._tag).toBe("Unauthenticated")
    })))

  it.effect("allowing suspended accounts (delete-account's door): suspended passes, garbage and deleted do not", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      const { accessToken } = yield* Auth.login({ email: ADA.email, password: pw(ADA.password) })
      const authenticate = yield* Auth.authenticatorAllowingSuspended
      expect((yield* Effect.flip(authenticate("not a token")))._tag).toBe("Unauthenticated")
      yield* Store.setCustomerStatus(account.id, "suspended")
      expect((yield* authenticate(accessToken)).account.id).toBe(account.id)
      yield* Store.setCustomerStatus(account.id, "deleted")
      expect((yield* Effect.flip(authenticate(accessToken)))._tag).toBe("Unauthenticated")
    })))
})
