/**
 * The one-time-code gate of sensitive operations (OTP request, check, consume).
 */
import { Effect } from "effect"
import { requireAccount } from "../account/Accounts.js"
import { atomically } from "../shared/UseCase.js"
import { NoEmailOnFile, OtpGateRejected } from "./Errors.js"
import { consumeOtp, guessOtp, issueOtp } from "./Otp.js"
import { OtpRepo } from "./Ports.js"

/** `POST /auth/otp/request`: a code for an OTP-gated action; returns its id (`pinId`). */
export const requestActionOtp = (accountId: string) =>
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
 * The gate of OTP-protected operations: the code `otpPinId` must belong to this account, have been
 * issued by the OTP request endpoint, and match. Returns the code's id, to be consumed in the same
 * unit of work as the protected change.
 */
export const passOtpGate = (accountId: string, otpPinId: string, otpCode: string) =>
  Effect.gen(function*() {
    // pinIds are opaque to clients: one that cannot be ours is simply not a valid code
    if (!PIN_ID.test(otpPinId)) return yield* new OtpGateRejected()
    const otp = yield* (yield* OtpRepo).findById(otpPinId)
    const guess = yield* guessOtp(otp, { accountId, purpose: "sensitive_action" }, otpCode)
    if (guess !== "correct") return yield* new OtpGateRejected()
    return otpPinId
  })

/** Runs `change` with the code consumed in the same transaction: both happen or neither. */
export const withConsumedOtp = <A, E, R>(otpId: string, change: Effect.Effect<A, E, R>) =>
  atomically(Effect.gen(function*() {
    if (!(yield* consumeOtp(otpId))) return yield* new OtpGateRejected()
    return yield* change
  }))
