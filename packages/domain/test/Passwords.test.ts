import {describe, expect, it} from "@effect/vitest"
import {Effect, TestClock} from "effect"
import * as Auth from "../src/auth/index.js"
import {ADA, BOLA, inMemory, pw, registerAda, registerBola, wrongCode} from "./support/Fixtures.js"
import {Sent, Store} from "./support/InMemory.js"
import { AccountId } from "../src/shared/Ids.js"

const NEW_PASSWORD = "a completely new password"

const signedInAda = Effect.gen(function*() {
  const { account } = yield* registerAda()
  const tokens = yield* Auth.login({ email: ADA.email, password: pw(ADA.password) })
  return { accountId: account.id, tokens }
})

const forgot = Effect.gen(function*() {
  yield* Auth.forgotPassword(ADA.email)
  return yield* Sent.lastCode("password_reset")
})

const actionCode = (accountId: AccountId) =>
  Effect.gen(function*() {
    const { pinId } = yield* Auth.requestActionOtp(accountId)
    return { pinId, code: yield* Sent.lastCode("action_confirmation") }
  })

const allRevoked = Effect.map(Store.refreshTokens, (ts) => ts.length > 0 && ts.every((t) => t.revokedAt !== null))

describe("forgot / reset password", () => {
  it.effect("a reset code issued before the account was deleted no longer works", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.forgotPassword(ADA.email)
      const code = yield* Sent.lastCode("password_reset")
      yield* Store.setCustomerStatus(account.id, "deleted")
      const error = yield* Effect.flip(Auth.resetPassword({ email: ADA.email, code, password: pw("a brand new one") }))
      expect(error._tag).toBe("OtpGateRejected")
      expect((yield* Store.otps)[0]!.consumedAt).toBeNull()
    })))

  it.effect("forgotPassword emails a password_reset code", () =>
    inMemory(Effect.gen(function*() {
      yield* registerAda()
      yield* Auth.forgotPassword(ADA.email)
      expect((yield* Sent.all)[0]).toMatchObject({ channel: "email", to: ADA.email, kind: "password_reset" })
      expect((yield* Store.otps)[0]!.purpose).toBe("password_reset")
    })))

  it.effect("forgotPassword: AccountNotFound for unknown and deleted accounts, nothing sent", () =>
    inMemory(Effect.gen(function*() {
      expect((yield* Effect.flip(Auth.forgotPassword("nobody@example.com")))._tag).toBe("AccountNotFound")
      const { account } = yield* registerAda()
      yield* Store.setCustomerStatus(account.id, "deleted")
      expect((yield* Effect.flip(Auth.forgotPassword(ADA.email)))._tag).toBe("AccountNotFound")
      expect(yield* Sent.all).toEqual([])
    })))

  it.effect("reset with the right code changes the hash, consumes the code and revokes refresh tokens", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, tokens } = yield* signedInAda
      const code = yield* forgot
      yield* Auth.resetPassword({ email: ADA.email, code, password: pw(NEW_PASSWORD) })
      expect((yield* Store.account(accountId)).account.passwordHash).toBe(`hash:${NEW_PASSWORD}`)
      expect((yield* Store.otps)[0]!.consumedAt).not.toBeNull()
      expect(yield* allRevoked).toBe(true)
      expect((yield* Effect.flip(Auth.rotateRefreshToken(tokens.refreshToken)))._tag).toBe("InvalidRefreshToken")
      // old password out, new password in
      expect((yield* Effect.flip(Auth.login({ email: ADA.email, password: pw(ADA.password) })))._tag).toBe(
        "InvalidCredentials"
      )
      yield* Auth.login({ email: ADA.email, password: pw(NEW_PASSWORD) })
      // the code is single use
      const again = yield* Effect.flip(Auth.resetPassword({ email: ADA.email, code, password: pw("yet another one") }))
      expect(again._tag).toBe("OtpGateRejected")
      expect((yield* Store.account(accountId)).account.passwordHash).toBe(`hash:${NEW_PASSWORD}`)
    })))

  it.effect("the same password is PasswordReused and spends the code; a new one comes at once", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, tokens } = yield* signedInAda
      const code = yield* forgot
      const error = yield* Effect.flip(Auth.resetPassword({ email: ADA.email, code, password: pw(ADA.password) }))
      expect(error._tag).toBe("PasswordReused")
      expect((yield* Store.otps)[0]!.consumedAt).not.toBeNull()
      expect((yield* Store.refreshTokens)[0]!.revokedAt).toBeNull()
      expect((yield* Effect.flip(Auth.resetPassword({ email: ADA.email, code, password: pw(NEW_PASSWORD) })))._tag).toBe(
        "OtpGateRejected"
      )
      // no cooldown: the spent code is not outstanding
      const fresh = yield* forgot
      yield* Auth.resetPassword({ email: ADA.email, code: fresh, password: pw(NEW_PASSWORD) })
      expect((yield* Store.account(accountId)).account.passwordHash).toBe(`hash:${NEW_PASSWORD}`)
      expect((yield* Effect.flip(Auth.rotateRefreshToken(tokens.refreshToken)))._tag).toBe("InvalidRefreshToken")
    })))

  it.effect("a wrong code is OtpGateRejected and changes nothing", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* signedInAda
      const code = yield* forgot
      const error = yield* Effect.flip(
        Auth.resetPassword({ email: ADA.email, code: wrongCode(code), password: pw(NEW_PASSWORD) })
      )
      expect(error._tag).toBe("OtpGateRejected")
      expect((yield* Store.account(accountId)).account.passwordHash).toBe(`hash:${ADA.password}`)
      expect((yield* Store.refreshTokens)[0]!.revokedAt).toBeNull()
      expect((yield* Store.otps)[0]).toMatchObject({ attempts: 1, consumedAt: null })
    })))

  it.effect("PasswordReused is only revealed after a correct code", () =>
    inMemory(Effect.gen(function*() {
      yield* registerAda()
      const code = yield* forgot
      const error = yield* Effect.flip(
        Auth.resetPassword({ email: ADA.email, code: wrongCode(code), password: pw(ADA.password) })
      )
      expect(error._tag).toBe("OtpGateRejected")
    })))

  it.effect("reset for an unknown email, or with another account's code, is OtpGateRejected", () =>
    inMemory(Effect.gen(function*() {
      yield* registerAda()
      yield* registerBola
      const adaCode = yield* forgot
      expect(
        (yield* Effect.flip(Auth.resetPassword({ email: "nobody@example.com", code: adaCode, password: pw(NEW_PASSWORD) })))._tag
      ).toBe("OtpGateRejected")
      expect(
        (yield* Effect.flip(Auth.resetPassword({ email: BOLA.email, code: adaCode, password: pw(NEW_PASSWORD) })))._tag
      ).toBe("OtpGateRejected")
      expect((yield* Store.otps)[0]!.attempts).toBe(0)
    })))

  it.effect("a reset code expires after 10 minutes", () =>
    inMemory(Effect.gen(function*() {
      yield* registerAda()
      const code = yield* forgot
      yield* TestClock.adjust("10 minutes")
      expect(
        (yield* Effect.flip(Auth.resetPassword({ email: ADA.email, code, password: pw(NEW_PASSWORD) })))._tag
      ).toBe("OtpGateRejected")
    })))
})

describe("changePassword", () => {
  it.effect("succeeds with the current password and a sensitive_action code; revokes refresh tokens", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, tokens } = yield* signedInAda
      const { pinId, code } = yield* actionCode(accountId)
      expect((yield* Store.otp(pinId)).purpose).toBe("sensitive_action")
      yield* Auth.changePassword({
        accountId,
        currentPassword: pw(ADA.password),
        newPassword: pw(NEW_PASSWORD),
        otpPinId: pinId,
        otpCode: code
      })
      expect((yield* Store.account(accountId)).account.passwordHash).toBe(`hash:${NEW_PASSWORD}`)
      expect((yield* Store.otp(pinId)).consumedAt).not.toBeNull()
      expect(yield* allRevoked).toBe(true)
      expect((yield* Effect.flip(Auth.rotateRefreshToken(tokens.refreshToken)))._tag).toBe("InvalidRefreshToken")
      yield* Auth.login({ email: ADA.email, password: pw(NEW_PASSWORD) })
      // the code cannot authorise a second change
      const again = yield* Effect.flip(Auth.changePassword({
        accountId,
        currentPassword: pw(NEW_PASSWORD),
        newPassword: pw("third password"),
        otpPinId: pinId,
        otpCode: code
      }))
      expect(again._tag).toBe("OtpGateRejected")
    })))

  it.effect("a wrong current password is InvalidCredentials, spends the code, and a new one comes at once", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* signedInAda
      const { pinId, code } = yield* actionCode(accountId)
      const input = { accountId, newPassword: pw(NEW_PASSWORD), otpPinId: pinId, otpCode: code }
      const error = yield* Effect.flip(Auth.changePassword({ ...input, currentPassword: pw("not my password") }))
      expect(error._tag).toBe("InvalidCredentials")
      expect((yield* Store.otp(pinId)).consumedAt).not.toBeNull()
      expect((yield* Store.account(accountId)).account.passwordHash).toBe(`hash:${ADA.password}`)
      // the right password with the spent code: still refused
      const reused = yield* Effect.flip(Auth.changePassword({ ...input, currentPassword: pw(ADA.password) }))
      expect(reused._tag).toBe("OtpGateRejected")
      // no cooldown: the spent code is not outstanding
      const fresh = yield* actionCode(accountId)
      yield* Auth.changePassword({ ...input, currentPassword: pw(ADA.password), otpPinId: fresh.pinId, otpCode: fresh.code })
      expect((yield* Store.account(accountId)).account.passwordHash).toBe(`hash:${NEW_PASSWORD}`)
    })))

  it.effect("a bad OTP is OtpGateRejected and changes nothing", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* signedInAda
      const { pinId, code } = yield* actionCode(accountId)
      for (const [otpPinId, otpCode] of [[pinId, wrongCode(code)], ["no-such-pin", code]] as const) {
        const error = yield* Effect.flip(Auth.changePassword({
          accountId,
          currentPassword: pw(ADA.password),
          newPassword: pw(NEW_PASSWORD),
          otpPinId,
          otpCode
        }))
        expect(error._tag).toBe("OtpGateRejected")
      }
      expect((yield* Store.account(accountId)).account.passwordHash).toBe(`hash:${ADA.password}`)
      expect((yield* Store.refreshTokens)[0]!.revokedAt).toBeNull()
    })))

  it.effect("an email-verification code cannot be used as otpPinId", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* signedInAda
      yield* Auth.sendEmailOtp(accountId)
      const code = yield* Sent.lastCode("email_verification")
      const [emailOtp] = yield* Store.otps
      const error = yield* Effect.flip(Auth.changePassword({
        accountId,
        currentPassword: pw(ADA.password),
        newPassword: pw(NEW_PASSWORD),
        otpPinId: emailOtp!.id,
        otpCode: code
      }))
      expect(error._tag).toBe("OtpGateRejected")
      expect((yield* Store.account(accountId)).account.passwordHash).toBe(`hash:${ADA.password}`)
      expect((yield* Store.otp(emailOtp!.id))).toMatchObject({ attempts: 0, consumedAt: null })
    })))

  it.effect("another account's action code is OtpGateRejected", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* signedInAda
      const bola = yield* registerBola
      const { pinId, code } = yield* actionCode(bola.account.id)
      const error = yield* Effect.flip(Auth.changePassword({
        accountId,
        currentPassword: pw(ADA.password),
        newPassword: pw(NEW_PASSWORD),
        otpPinId: pinId,
        otpCode: code
      }))
      expect(error._tag).toBe("OtpGateRejected")
    })))

  it.effect("the same new password is PasswordReused and spends the code", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* signedInAda
      const { pinId, code } = yield* actionCode(accountId)
      const input = { accountId, currentPassword: pw(ADA.password), otpPinId: pinId, otpCode: code }
      expect((yield* Effect.flip(Auth.changePassword({ ...input, newPassword: pw(ADA.password) })))._tag).toBe(
        "PasswordReused"
      )
      expect((yield* Store.otp(pinId)).consumedAt).not.toBeNull()
      expect((yield* Effect.flip(Auth.changePassword({ ...input, newPassword: pw(NEW_PASSWORD) })))._tag).toBe(
        "OtpGateRejected"
      )
      expect((yield* Store.account(accountId)).account.passwordHash).toBe(`hash:${ADA.password}`)
    })))

  it.effect("NoPasswordSet for an account without a password; AccountNotFound for none", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* signedInAda
      const { pinId, code } = yield* actionCode(accountId)
      const input = { currentPassword: pw(ADA.password), newPassword: pw(NEW_PASSWORD), otpPinId: pinId, otpCode: code }
      expect((yield* Effect.flip(Auth.changePassword({ ...input, accountId: AccountId.make("nobody") })))._tag).toBe("AccountNotFound")
      yield* Store.patchAccount(accountId, { passwordHash: null })
      expect((yield* Effect.flip(Auth.changePassword({ ...input, accountId })))._tag).toBe("NoPasswordSet")
    })))
})

describe("passOtpGate", () => {
  it.effect("the first presentation spends the code, even with a wrong code: one guess per code", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* signedInAda
      const { pinId, code } = yield* actionCode(accountId)
      expect((yield* Effect.flip(Auth.passOtpGate(accountId, pinId, wrongCode(code))))._tag).toBe("OtpGateRejected")
      expect((yield* Store.otp(pinId)).consumedAt).not.toBeNull()
      expect((yield* Effect.flip(Auth.passOtpGate(accountId, pinId, code)))._tag).toBe("OtpGateRejected")
      const fresh = yield* actionCode(accountId)
      yield* Auth.passOtpGate(accountId, fresh.pinId, fresh.code)
      expect((yield* Effect.flip(Auth.passOtpGate(accountId, fresh.pinId, fresh.code)))._tag).toBe("OtpGateRejected")
    })))

  it.effect("another account's pinId, a malformed one or an expired code spends nothing of anyone's", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* signedInAda
      const bola = yield* registerBola
      const theirs = yield* actionCode(bola.account.id)
      expect((yield* Effect.flip(Auth.passOtpGate(accountId, theirs.pinId, theirs.code)))._tag).toBe("OtpGateRejected")
      expect((yield* Store.otp(theirs.pinId)).consumedAt).toBeNull()
      expect((yield* Effect.flip(Auth.passOtpGate(accountId, "' OR 1=1 --", "123456")))._tag).toBe("OtpGateRejected")
      const mine = yield* actionCode(accountId)
      yield* TestClock.adjust("10 minutes")
      expect((yield* Effect.flip(Auth.passOtpGate(accountId, mine.pinId, mine.code)))._tag).toBe("OtpGateRejected")
    })))

  it.effect("requestActionOtp: NoEmailOnFile when the email is empty", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* signedInAda
      yield* Store.patchAccount(accountId, { email: "" })
      expect((yield* Effect.flip(Auth.requestActionOtp(accountId)))._tag).toBe("NoEmailOnFile")
      expect((yield* Effect.flip(Auth.sendEmailOtp(accountId)))._tag).toBe("NoEmailOnFile")
    })))
})
