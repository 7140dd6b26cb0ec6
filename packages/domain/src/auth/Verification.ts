/**
 * Email and phone verification by one-time code.
 */
import { Effect, Option } from "effect"
import { requireAccount } from "../account/Accounts.js"
import { AccountRepo } from "../account/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import { NoEmailOnFile, NoPhoneOnFile, OtpRejected } from "./Errors.js"
import { consumeOtp, guessOtp, issueOtp } from "./Otp.js"
import type { TokenPair } from "./Model.js"
import { OtpRepo } from "./Ports.js"
import { ensureMaySignIn, issueTokens } from "./Sessions.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId } from "../shared/Ids.js"

export const sendEmailOtp = (accountId: AccountId) =>
  Effect.gen(function*() {
    const { account } = yield* requireAccount(accountId)
    if (account.email === "") return yield* new NoEmailOnFile()
    yield* issueOtp({
      accountId,
      channel: "email",
      purpose: "email_verification",
      destination: account.email,
      kind: "email_verification",
      subject: "Confirm your email address",
      text: (code) => `Your verification code is ${code}. It expires in 10 minutes. Never share it with anyone.`
    })
  })

export const sendPhoneOtp = (accountId: AccountId) =>
  Effect.gen(function*() {
    const { account } = yield* requireAccount(accountId)
    if (account.phone === null) return yield* new NoPhoneOnFile()
    yield* issueOtp({
      accountId,
      channel: "sms",
      purpose: "phone_verification",
      destination: account.phone,
      kind: "phone_verification",
      subject: "Phone verification",
      text: (code) => `Your verification code is ${code}. It expires in 10 minutes. Never share it.`
    })
  })

/**
 * Verifies the email or phone with its code. Tokens are returned only while the account is not yet
 * verified (customerStatus `unverified` before this code), as the spec's registration flow has it
 * (email verification of an unverified account; phone verification before the email's); a code
 * never signs in an account that was already verified (it must not stand in for the password):
 * the answer is then `{}`.
 */
const verifyChannel = (accountId: AccountId, pin: string, channel: "email" | "phone") =>
  Effect.gen(function*() {
    const found = yield* requireAccount(accountId)
    yield* ensureMaySignIn(found)
    const otps = yield* OtpRepo
    const purpose = channel === "email" ? "email_verification" as const : "phone_verification" as const
    const otp = yield* otps.latest(accountId, purpose)
    const guess = yield* guessOtp(otp, { accountId, purpose }, pin)
    if (guess !== "correct") return yield* new OtpRejected({ reason: guess })
    const repo = yield* AccountRepo
    yield* atomically(Effect.gen(function*() {
      if (!(yield* consumeOtp(Option.getOrThrow(otp).id))) return yield* new OtpRejected({ reason: "invalid" })
      const at = yield* now
      if (channel === "email") {
        yield* repo.markEmailVerified(accountId, at)
        yield* repo.transitionStatus(accountId, "unverified", "verified", at)
      } else {
        yield* repo.markPhoneVerified(accountId, at)
        // Phone alone does not verify a customer: the email must be confirmed too.
        if (found.account.emailVerified) yield* repo.transitionStatus(accountId, "unverified", "verified", at)
      }
    }))
    if (found.customer.customerStatus !== "unverified") return {} as Partial<TokenPair>
    return (yield* issueTokens(accountId, found.account.sessionVersion)) as Partial<TokenPair>
  })

export const verifyEmailOtp = (accountId: AccountId, pin: string) =>
  verifyChannel(accountId, pin, "email").pipe(withSpan("Auth.verifyEmailOtp"))

export const verifyPhoneOtp = (accountId: AccountId, pin: string) =>
  verifyChannel(accountId, pin, "phone").pipe(withSpan("Auth.verifyPhoneOtp"))
