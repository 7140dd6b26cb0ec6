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
 *   attacker gets at most 25 guesses per quarter hour at any one purpose of an account (one chance
 *   in 10,000 an hour for 6 digits). The window is per purpose so that a stranger who knows an
 *   email and keeps asking for password resets cannot block that customer's in-app confirmations.
 */
import { Clock, Duration, Effect, Option } from "effect"
import { Notifier } from "../notifications/Ports.js"
import { Ids, SecretHasher, SecureRandom } from "../shared/Ports.js"
import { OtpCooldown } from "./Errors.js"
import type { OneTimeCode, OtpChannel, OtpPurpose } from "./Model.js"
import { OtpRepo } from "./Ports.js"

export const OtpPolicy = {
  length: 6,
  ttl: Duration.minutes(10),
  maxAttempts: 5,
  resendCooldown: Duration.seconds(60),
  maxIssuedPerWindow: 5,
  issueWindow: Duration.minutes(15)
} as const

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
  readonly accountId: string
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
    const now = new Date(yield* Clock.currentTimeMillis)
    const windowStart = new Date(now.getTime() - Duration.toMillis(OtpPolicy.issueWindow))
    const wait = Math.max(
      cooldownRemaining(yield* repo.latest(input.accountId, input.purpose), now),
      windowRemaining(yield* repo.issuedSince(input.accountId, input.purpose, windowStart), now)
    )
    if (wait > 0) return yield* new OtpCooldown({ retryAfterSeconds: wait })
    const id = yield* (yield* Ids).next
    const code = yield* (yield* SecureRandom).digits(OtpPolicy.length)
    yield* repo.issue({
      id,
      accountId: input.accountId,
      channel: input.channel,
      purpose: input.purpose,
      destination: input.destination,
      codeHash: yield* codeDigest(id, code),
      maxAttempts: OtpPolicy.maxAttempts,
      expiresAt: new Date(now.getTime() + Duration.toMillis(OtpPolicy.ttl)),
      createdAt: now
    })
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
 * the guess was wrong (and cost one attempt). `correct`: the caller must then `consumeOtp` in the
 * same unit of work as the change the code authorises, so the code is used exactly once.
 */
export const guessOtp = (
  otp: Option.Option<OneTimeCode>,
  expected: { readonly accountId: string; readonly purpose: OtpPurpose },
  guess: string
): Effect.Effect<OtpGuess, never, OtpRepo | SecretHasher> =>
  Effect.gen(function*() {
    if (Option.isNone(otp) || otp.value.accountId !== expected.accountId || otp.value.purpose !== expected.purpose) {
      return "invalid"
    }
    const now = new Date(yield* Clock.currentTimeMillis)
    const claimed = yield* (yield* OtpRepo).claimAttempt(otp.value.id, now)
    if (Option.isNone(claimed)) return "invalid"
    return (yield* codeMatches(claimed.value, guess)) ? "correct" : "incorrect"
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
