import type { TokenPair } from "../src/auth/Model.js"
import {describe, expect, it} from "@effect/vitest"
import {Effect} from "effect"
import * as Auth from "../src/auth/index.js"
import {ADA, BOLA, inMemory, pw, registerAda, wrongCode} from "./support/Fixtures.js"
import {Sent, Store} from "./support/InMemory.js"
import { AccountId } from "../src/shared/Ids.js"

describe("email verification", () => {
  it.effect("register → sendEmailOtp → verifyEmailOtp: tokens, email verified, customer verified", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      const [message] = yield* Sent.all
      expect(message).toMatchObject({ channel: "email", to: ADA.email, kind: "email_verification" })
      const tokens = (yield* Auth.verifyEmailOtp(account.id, message!.code!)) as TokenPair

      const stored = yield* Store.account(account.id)
      expect(stored.account.emailVerified).toBe(true)
      expect(stored.account.phoneVerified).toBe(false)
      expect(stored.customer.customerStatus).toBe("verified")
      expect((yield* Store.otps)[0]!.consumedAt).not.toBeNull()

      // the tokens are real: the access token authenticates, the refresh token rotates
      const me = yield* Auth.authenticate(tokens.accessToken)
      expect(me.account.id).toBe(account.id)
      const [refresh] = yield* Store.refreshTokens
      expect(refresh).toMatchObject({ accountId: account.id, usedAt: null, revokedAt: null })
      expect(refresh!.tokenHash).not.toBe(tokens.refreshToken)
      yield* Auth.rotateRefreshToken(tokens.refreshToken)
    })))

  it.effect("a wrong code is OtpRejected incorrect and changes nothing", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      const code = yield* Sent.lastCode("email_verification")
      const error = yield* Effect.flip(Auth.verifyEmailOtp(account.id, wrongCode(code)))
      expect(error).toMatchObject({ _tag: "OtpRejected", reason: "incorrect" })
      const stored = yield* Store.account(account.id)
      expect(stored.account.emailVerified).toBe(false)
      expect(stored.customer.customerStatus).toBe("unverified")
      expect(yield* Store.refreshTokens).toEqual([])
    })))

  it.effect("verifying without any code sent is OtpRejected invalid", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      const error = yield* Effect.flip(Auth.verifyEmailOtp(account.id, "123456"))
      expect(error).toMatchObject({ _tag: "OtpRejected", reason: "invalid" })
    })))

  it.effect("unknown accounts: AccountNotFound", () =>
    inMemory(Effect.gen(function*() {
      expect((yield* Effect.flip(Auth.sendEmailOtp(AccountId.make("nobody"))))._tag).toBe("AccountNotFound")
      expect((yield* Effect.flip(Auth.verifyEmailOtp(AccountId.make("nobody"), "123456")))._tag).toBe("AccountNotFound")
    })))

  it.effect("a suspended account cannot verify, even with the right code", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      const code = yield* Sent.lastCode("email_verification")
      yield* Store.setCustomerStatus(account.id, "suspended")
      expect((yield* Effect.flip(Auth.verifyEmailOtp(account.id, code)))._tag).toBe("AccountSuspended")
      expect((yield* Store.account(account.id)).account.emailVerified).toBe(false)
      expect((yield* Store.otps)[0]!.consumedAt).toBeNull()
    })))

  it.effect("verifying again later does not downgrade an active customer", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Store.setCustomerStatus(account.id, "active")
      yield* Auth.sendEmailOtp(account.id)
      yield* Auth.verifyEmailOtp(account.id, yield* Sent.lastCode("email_verification"))
      expect((yield* Store.account(account.id)).customer.customerStatus).toBe("active")
    })))
})

describe("phone verification", () => {
  it.effect("sends an SMS to the phone on file", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendPhoneOtp(account.id)
      expect((yield* Sent.all)[0]).toMatchObject({ channel: "sms", to: ADA.phone, kind: "phone_verification" })
    })))

  it.effect("NoPhoneOnFile without a phone", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* Auth.register({ email: BOLA.email, password: pw(BOLA.password) })
      expect((yield* Effect.flip(Auth.sendPhoneOtp(account.id)))._tag).toBe("NoPhoneOnFile")
      expect(yield* Sent.all).toEqual([])
    })))

  it.effect("phone first: phone verified, customer stays unverified until the email is verified", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendPhoneOtp(account.id)
      const tokens = (yield* Auth.verifyPhoneOtp(account.id, yield* Sent.lastCode("phone_verification"))) as TokenPair
      expect((yield* Auth.authenticate(tokens.accessToken)).account.id).toBe(account.id)
      let stored = yield* Store.account(account.id)
      expect(stored.account.phoneVerified).toBe(true)
      expect(stored.account.emailVerified).toBe(false)
      expect(stored.customer.customerStatus).toBe("unverified")

      yield* Auth.sendEmailOtp(account.id)
      yield* Auth.verifyEmailOtp(account.id, yield* Sent.lastCode("email_verification"))
      stored = yield* Store.account(account.id)
      expect(stored.account).toMatchObject({ emailVerified: true, phoneVerified: true })
      expect(stored.customer.customerStatus).toBe("verified")
    })))

  it.effect("email first, then phone: verified with both flags", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      yield* Auth.verifyEmailOtp(account.id, yield* Sent.lastCode("email_verification"))
      yield* Auth.sendPhoneOtp(account.id)
      yield* Auth.verifyPhoneOtp(account.id, yield* Sent.lastCode("phone_verification"))
      const stored = yield* Store.account(account.id)
      expect(stored.account).toMatchObject({ emailVerified: true, phoneVerified: true })
      expect(stored.customer.customerStatus).toBe("verified")
    })))

  it.effect("phone verification moves an unverified customer whose email is already verified to verified", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      yield* Auth.verifyEmailOtp(account.id, yield* Sent.lastCode("email_verification"))
      // e.g. status reset by an operator after the email was confirmed
      yield* Store.setCustomerStatus(account.id, "unverified")
      yield* Auth.sendPhoneOtp(account.id)
      yield* Auth.verifyPhoneOtp(account.id, yield* Sent.lastCode("phone_verification"))
      expect((yield* Store.account(account.id)).customer.customerStatus).toBe("verified")
    })))

  it.effect("a wrong SMS code is OtpRejected incorrect", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendPhoneOtp(account.id)
      const code = yield* Sent.lastCode("phone_verification")
      expect(yield* Effect.flip(Auth.verifyPhoneOtp(account.id, wrongCode(code)))).toMatchObject({
        _tag: "OtpRejected",
        reason: "incorrect"
      })
      expect((yield* Store.account(account.id)).account.phoneVerified).toBe(false)
    })))
})
