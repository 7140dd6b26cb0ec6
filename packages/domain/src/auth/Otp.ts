/**
 * One-time codes (OWASP ASVS 2.7/2.8):
 * - 6 digits from a CSPRNG; only an HMAC of the code (keyed, salted with the code's id) is stored;
 * - bound to one account, one channel and one purpose; issuing a new code retires the old one;
 * - single use and valid for 10 minutes. A code typed by hand (email/phone verification, password
 *   reset) allows 5 guesses (a guess spends its attempt before it is compared, so parallel guessing
 *   cannot exceed 5); a code of an OTP-gated operation is spent by the first operation that
 *   presents its pinId, whatever that operation's outcome (see OtpGate);
 * - the resend cooldown (60 s) applies only while an unspent code of the same purpose is
 *   outstanding: once it is used, retired, expired or out of attempts, a new one can be sent at
 *   once. Abuse stays bounded by a window of 5 codes per 15 minutes per account and purpose, so an
 *   attacker gets at most 25 guesses per quarter hour at any one purpose of an account. The window is
 *   per purpose so that a stranger who knows an email and keeps asking for password resets cannot
 *   block that customer's in-app confirmations. Checking the window and storing the code are one
 *   unit of work under a lock of the account (OtpRepo.lockIssuing), so a burst of concurrent
 *   requests cannot get more codes than the window allows;
 * - above every purpose, one budget per account (OtpBudget): at most 10 wrong codes in 24 hours,
 *   every purpose together (a guess is counted before it is compared and refunded when right, so
 *   parallel guessing cannot exceed it). The guess that uses up the budget locks the account's code
 *   checks for 24 hours (OtpChecksLocked, 429; the OTP gate answers its usual OTP_INVALID) and
 *   raises the staff alert `otp_checks_locked`. One chance in 100,000 a day to guess a 6-digit code.
 */
import { Clock, Duration, Effect, Option } from "effect"
import { raiseAlert } from "../admin/Alerts.js"
import { Notifier } from "../notifications/Ports.js"
import { Ids, SecretHasher, SecureRandom } from "../shared/Ports.js"
import { atomically } from "../shared/UseCase.js"
import { OtpChecksLocked, OtpCooldown } from "./Errors.js"
import { countTrip, guarded } from "./Throttle.js"
import { secondsUntil as retryAfter, type ThrottleStore } from "../shared/Throttle.js"
import type { OneTimeCode, OtpChannel, OtpPurpose } from "./Model.js"
import { OtpRepo } from "./Ports.js"
import type { AlertRepo } from "../admin/Alerts.js"
import { AccountId } from "../shared/Ids.js"

export const OtpPolicy = {
  length: 6,
  ttl: Duration.minutes(10),
  maxAttempts: 5,
  resendCooldown: Duration.seconds(60),
  maxIssuedPerWindow: 5,
  issueWindow: Duration.minutes(15)
} as const

/** Wrong codes an account may get in `window`, every purpose together, before its code checks lock for one window. */
export const OtpBudget = {
  maxWrong: 10,
  window: Duration.hours(24)
} as const

/**
 * Compares a guess (its code's attempt already spent) under the account's budget: OtpChecksLocked
 * while the budget is used up (nothing compared); otherwise whether the guess is the code. The wrong
 * guess that uses it up raises the staff alert.
 */
export const budgetedMatch = (otp: OneTimeCode, guess: string) =>
  Effect.gen(function*() {
    const at = new Date(yield* Clock.currentTimeMillis)
    const checked = yield* guarded(
      [{ key: `otp:${otp.accountId}`, limit: OtpBudget.maxWrong, window: OtpBudget.window }],
      at,
      codeMatches(otp, guess)
    )
    if (checked._tag === "Blocked") return yield* new OtpChecksLocked({ retryAfterSeconds: yield* retryAfter(checked.until) })
    const lockedUntil = checked.started[0]
    if (!checked.right && lockedUntil != null) {
      yield* countTrip("otp_account")
      yield* raiseAlert({
        kind: "otp_checks_locked",
        dedupKey: `otp_checks_locked:${otp.accountId}`,
        message: `Account ${otp.accountId}: ${OtpBudget.maxWrong} wrong one-time codes within 24 hours (every purpose ` +
          `together); its code checks are refused until ${lockedUntil.toISOString()}. Someone may be guessing this ` +
          "customer's codes: contact the customer, and freeze the account if it looks like a takeover."
      })
    }
    return checked.right
  })

/** A code can still be guessed: not used, not expired, attempts left. */
export const isLive = (otp: OneTimeCode, now: Date): boolean =>
  otp.consumedAt === null && otp.expiresAt.getTime() > now.getTime() && otp.attempts < otp.maxAttempts

const secondsUntil = (at: number, now: Date) => Math.max(0, Math.ceil((at - now.getTime()) / 1000))

/**
 * Seconds until another code may be sent, 0 when one may be sent now: the cooldown runs only while
 * the previous code is still outstanding (not spent, expired or out of attempts).
 */
export const cooldownRemaining = (previous: Option.Option<OneTimeCode>, now: Date): number =>
  Option.match(previous, {
    onNone: () => 0,
    onSome: (otp) =>
      isLive(otp, now) ? secondsUntil(otp.createdAt.getTime() + Duration.toMillis(OtpPolicy.resendCooldown), now) : 0
  })

/**
 * Seconds until the issue window allows another code, 0 when it does. `issued` are the
 * creation times within the current window, oldest first.
 */
export const windowRemaining = (issued: ReadonlyArray<Date>, now: Date): number =>
  issued.length < OtpPolicy.maxIssuedPerWindow
    ? 0
    : secondsUntil(issued[issued.length - OtpPolicy.maxIssuedPerWindow]!.getTime() + Duration.toMillis(OtpPolicy.issueWindow), now)

const codeDigest = (otpId: string, code: string) =>
  Effect.flatMap(SecretHasher, (h) => h.digest("otp", `${otpId}:${code}`))

export interface IssueOtp {
  readonly accountId: AccountId
  readonly channel: OtpChannel
  readonly purpose: OtpPurpose
  readonly destination: string
  readonly kind: string
  readonly subject: string
  readonly text: (code: string) => string
}

/** Creates, stores (hashed) and delivers a code. Returns the code's id (the `pinId`). */
export const issueOtp = (input: IssueOtp) =>
  Effect.gen(function*() {
    const repo = yield* OtpRepo
    const id = yield* (yield* Ids).next
    const code = yield* (yield* SecureRandom).digits(OtpPolicy.length)
    const codeHash = yield* codeDigest(id, code)
    // the cooldown and window are checked and the code stored under the account's lock: concurrent
    // requests take turns, so none of them can slip past a window another one just filled
    yield* atomically(Effect.gen(function*() {
      yield* repo.lockIssuing(input.accountId)
      const now = new Date(yield* Clock.currentTimeMillis)
      const windowStart = new Date(now.getTime() - Duration.toMillis(OtpPolicy.issueWindow))
      const wait = Math.max(
        cooldownRemaining(yield* repo.latest(input.accountId, input.purpose), now),
        windowRemaining(yield* repo.issuedSince(input.accountId, input.purpose, windowStart), now)
      )
      if (wait > 0) return yield* new OtpCooldown({ retryAfterSeconds: wait })
      yield* repo.issue({
        id,
        accountId: input.accountId,
        channel: input.channel,
        purpose: input.purpose,
        destination: input.destination,
        codeHash,
        maxAttempts: OtpPolicy.maxAttempts,
        expiresAt: new Date(now.getTime() + Duration.toMillis(OtpPolicy.ttl)),
        createdAt: now
      })
    }))
    yield* (yield* Notifier).send({
      channel: input.channel,
      to: input.destination,
      subject: input.subject,
      text: input.text(code),
      kind: input.kind,
      code
    })
    return id
  })

export type OtpGuess = "correct" | "incorrect" | "invalid"

/**
 * Checks a guess against a code without using the code up. `invalid`: the code does not exist,
 * belongs to another account or purpose, expired, was used or ran out of attempts. `incorrect`:
 * the guess was wrong (and cost one attempt, and one of the account's budget). `correct`: the
 * caller must then `consumeOtp` in the same unit of work as the change the code authorises, so the
 * code is used exactly once. OtpChecksLocked while the account's budget is used up (OtpBudget).
 */
export const guessOtp = (
  otp: Option.Option<OneTimeCode>,
  expected: { readonly accountId: AccountId; readonly purpose: OtpPurpose },
  guess: string
): Effect.Effect<OtpGuess, OtpChecksLocked, OtpRepo | SecretHasher | ThrottleStore | AlertRepo | Ids> =>
  Effect.gen(function*() {
    if (Option.isNone(otp) || otp.value.accountId !== expected.accountId || otp.value.purpose !== expected.purpose) {
      return "invalid"
    }
    const now = new Date(yield* Clock.currentTimeMillis)
    const claimed = yield* (yield* OtpRepo).claimAttempt(otp.value.id, now)
    if (Option.isNone(claimed)) return "invalid"
    return (yield* budgetedMatch(claimed.value, guess)) ? "correct" : "incorrect"
  })

/** Whether `guess` is the code (compared in constant time); spends nothing. */
export const codeMatches = (otp: OneTimeCode, guess: string) =>
  Effect.gen(function*() {
    const digest = yield* codeDigest(otp.id, guess)
    return (yield* SecretHasher).equals(digest, otp.codeHash)
  })

/** Uses the code up; false when a concurrent request used it first. */
export const consumeOtp = (otpId: string) =>
  Effect.gen(function*() {
    const now = new Date(yield* Clock.currentTimeMillis)
    return yield* (yield* OtpRepo).consume(otpId, now)
  })
