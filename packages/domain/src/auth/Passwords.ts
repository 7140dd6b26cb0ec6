/**
 * Passwords: forgot, reset and change.
 */
import { Effect, Option, Redacted } from "effect"
import { requireAccount } from "../account/Accounts.js"
import { AccountNotFound } from "../account/Errors.js"
import { Account } from "../account/Model.js"
import { AccountRepo } from "../account/Ports.js"
import { PasswordHasher } from "../shared/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import { InvalidCredentials, NoPasswordSet, OtpGateRejected, PasswordAlreadySet, PasswordReused } from "./Errors.js"
import { consumeOtp, guessOtp, issueOtp } from "./Otp.js"
import { passOtpGate } from "./OtpGate.js"
import { OtpRepo, RefreshTokenRepo } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId } from "../shared/Ids.js"

const replacePassword = (accountId: AccountId, newPassword: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const hash = yield* (yield* PasswordHasher).hash(newPassword)
    const at = yield* now
    yield* (yield* AccountRepo).setPasswordHash(accountId, hash, at)
    // A new password signs the account out of every other session.
    yield* (yield* RefreshTokenRepo).revokeAllForAccount(accountId, at)
  })

const isCurrentPassword = (account: Account, candidate: Redacted.Redacted<string>) =>
  account.passwordHash === null
    ? Effect.succeed(false)
    : Effect.flatMap(PasswordHasher, (h) => h.verify(candidate, account.passwordHash!))

export const forgotPassword = (email: string) =>
  Effect.gen(function*() {
    const found = yield* (yield* AccountRepo).findByEmail(email)
    if (Option.isNone(found) || found.value.customer.customerStatus === "deleted") return yield* new AccountNotFound()
    yield* issueOtp({
      accountId: found.value.account.id,
      channel: "email",
      purpose: "password_reset",
      destination: found.value.account.email,
      kind: "password_reset",
      subject: "Reset your password",
      text: (code) => `Your password reset code is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this email.`
    })
  })

export const resetPassword = (input: { email: string; code: string; password: Redacted.Redacted<string> }) =>
  Effect.gen(function*() {
    const found = yield* (yield* AccountRepo).findByEmail(input.email)
    if (Option.isNone(found) || found.value.customer.customerStatus === "deleted") return yield* new OtpGateRejected()
    const accountId = found.value.account.id
    const otp = yield* (yield* OtpRepo).latest(accountId, "password_reset")
    if ((yield* guessOtp(otp, { accountId, purpose: "password_reset" }, input.code)) !== "correct") {
      return yield* new OtpGateRejected()
    }
    // A proven code is spent whatever follows (a reused password included): ask for a new one.
    if (!(yield* consumeOtp(Option.getOrThrow(otp).id))) return yield* new OtpGateRejected()
    // Checked only after the code is proven, so this cannot be used to test password guesses.
    if (yield* isCurrentPassword(found.value.account, input.password)) return yield* new PasswordReused()
    yield* atomically(replacePassword(accountId, input.password))
  }).pipe(withSpan("Auth.resetPassword"))

export const changePassword = (input: {
  accountId: AccountId
  currentPassword: Redacted.Redacted<string>
  newPassword: Redacted.Redacted<string>
  otpPinId: string
  otpCode: string
}) =>
  Effect.gen(function*() {
    const { account } = yield* requireAccount(input.accountId)
    // The code first: each guess at the current password costs a fresh code from the mailbox.
    yield* passOtpGate(input.accountId, input.otpPinId, input.otpCode)
    if (account.passwordHash === null) return yield* new NoPasswordSet()
    if (!(yield* isCurrentPassword(account, input.currentPassword))) return yield* new InvalidCredentials()
    if (Redacted.value(input.currentPassword) === Redacted.value(input.newPassword)) return yield* new PasswordReused()
    yield* atomically(replacePassword(input.accountId, input.newPassword))
  }).pipe(withSpan("Auth.changePassword"))

/**
 * `POST /auth/set-password`: a first password for an account created by social sign-in.
 * PasswordAlreadySet when it has one (change it with change-password instead). Other sessions are
 * kept: nothing about the account's access was weakened.
 */
export const setPassword = (accountId: AccountId, password: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const { account } = yield* requireAccount(accountId)
    if (account.passwordHash !== null) return yield* new PasswordAlreadySet()
    const hash = yield* (yield* PasswordHasher).hash(password)
    if (!(yield* (yield* AccountRepo).setFirstPasswordHash(accountId, hash, yield* now))) return yield* new PasswordAlreadySet()
  }).pipe(withSpan("Auth.setPassword"))
