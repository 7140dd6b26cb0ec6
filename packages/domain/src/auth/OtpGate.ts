/**
 * The one-time-code gate of sensitive operations (OTP request, then check-and-spend).
 */
import { Effect, Option } from "effect"
import { requireAccount } from "../account/Accounts.js"
import { NoEmailOnFile, OtpGateRejected } from "./Errors.js"
import { budgetedMatch, consumeOtp, issueOtp } from "./Otp.js"
import { OtpRepo } from "./Ports.js"
import { AccountId } from "../shared/Ids.js"

/** `POST /auth/otp/request`: a code for an OTP-gated action; returns its id (`pinId`). */
export const requestActionOtp = (accountId: AccountId) =>
  Effect.gen(function*() {
    const { account } = yield* requireAccount(accountId)
    if (account.email === "") return yield* new NoEmailOnFile()
    const pinId = yield* issueOtp({
      accountId,
      channel: "email",
      purpose: "sensitive_action",
      destination: account.email,
      kind: "action_confirmation",
      subject: "Your confirmation code",
      text: (code) =>
        `Your confirmation code is ${code}. It expires in 10 minutes. We will never ask you for it; do not share it.`
    })
    return { pinId }
  })

const PIN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The gate of OTP-protected operations. The code `otpPinId` must belong to this account, have been
 * issued by the OTP request endpoint, be unspent and unexpired, and match.
 *
 * The first operation that presents a pinId spends that code, whatever happens next: a wrong
 * code, a wrong current password, a missing beneficiary or a failed change all leave it used. So a
 * code is never good for two operations, each code gives one guess, and (the cooldown running only
 * while a code is outstanding) the customer can ask for a new one at once. Call it before any
 * other check of the operation that could reveal something (a current password, say), so every
 * such check costs a fresh code from the customer's mailbox. pinIds are opaque to clients: one
 * that is malformed, unknown or another account's is simply not a valid code, and spends nothing.
 */
export const passOtpGate = (accountId: AccountId, otpPinId: string, otpCode: string) =>
  Effect.gen(function*() {
    if (!PIN_ID.test(otpPinId)) return yield* new OtpGateRejected()
    const otp = yield* (yield* OtpRepo).findById(otpPinId)
    if (Option.isNone(otp) || otp.value.accountId !== accountId || otp.value.purpose !== "sensitive_action") {
      return yield* new OtpGateRejected()
    }
    // spent before it is compared, committed on its own: no outcome of the operation gives it back
    if (!(yield* consumeOtp(otp.value.id))) return yield* new OtpGateRejected()
    // under the account's budget of wrong codes (OtpBudget); while it is used up, nothing is compared
    const right = yield* budgetedMatch(otp.value, otpCode).pipe(Effect.catchTag("OtpChecksLocked", () => Effect.succeed(false)))
    if (!right) return yield* new OtpGateRejected()
  })
