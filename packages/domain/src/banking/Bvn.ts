/**
 * BVN verification (see index.ts for the decisions).
 */
import { Effect, Option, Redacted } from "effect"
import { requireAccount } from "../account/Accounts.js"
import type { PersonalDetails } from "../account/Model.js"
import { AccountRepo } from "../account/Ports.js"
import { PhoneTaken } from "../auth/Errors.js"
import { SecretHasher } from "../shared/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import { CoreBanking } from "./CoreBanking.js"
import { BvnAlreadyVerified, BvnDateOfBirthMismatch, BvnNameMismatch, BvnNotFound, BvnTaken } from "./Errors.js"
import { namesMatch } from "./NameMatch.js"
import { raiseAlert } from "../admin/Alerts.js"
import { releaseAttempt, reserveAttempt, type TooManyAttempts } from "../shared/Throttle.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, CustomerId } from "../shared/Ids.js"

/** The date of birth must equal the registry's, as must the names (NameMatch.ts). */
export interface VerifyBvnInput extends PersonalDetails {
  /** 11 digits; never stored or logged */
  readonly bvn: string | Redacted.Redacted<string>
}

/** What the registry says about the BVN's holder (the 200 body of verify-bvn). */
export interface BvnIdentity {
  readonly firstName: string
  readonly lastName: string
  readonly phone: string
}

/** The refusals that are wrong guesses at someone's identity: each counts against the customer. */
const isWrongGuess = (e: { readonly _tag: string }) =>
  e._tag === "BvnNotFound" || e._tag === "BvnDateOfBirthMismatch" || e._tag === "BvnNameMismatch" || e._tag === "BvnTaken"

const alertThrottled = (customerId: CustomerId, e: TooManyAttempts) =>
  raiseAlert({
    kind: "bvn_verification_throttled",
    dedupKey: `bvn_verification_throttled:${customerId}`,
    customerId,
    message: `Customer ${customerId} failed BVN verification ${e.max} times within ${Math.round(e.windowMs / 3_600_000)} hours ` +
      `(an unknown BVN, or a name or date of birth that does not match the registry); further tries are refused for ` +
      `${e.retryAfterSeconds} seconds. Someone may be trying to open an account on another person's BVN: review the ` +
      "customer before helping them verify."
  })

/**
 * The registry's answer checked against what the customer says, in an order that is no oracle:
 * unknown BVN, date of birth, names, and only then whether another customer holds the BVN, so "BVN
 * already associated with another account" is told only to someone who knows its holder's name and
 * date of birth. The profile takes the registry's names.
 */
const checkAndStore = (accountId: AccountId, bvn: string, input: VerifyBvnInput) =>
  Effect.gen(function*() {
    const record = yield* (yield* CoreBanking).bvnLookup(bvn)
    if (Option.isNone(record)) return yield* new BvnNotFound()
    if (record.value.dateOfBirth !== input.dateOfBirth) return yield* new BvnDateOfBirthMismatch()
    if (!namesMatch(input, record.value)) return yield* new BvnNameMismatch()
    const bvnHash = yield* (yield* SecretHasher).digest("bvn", bvn)
    const repo = yield* AccountRepo
    const holder = yield* repo.findByBvnHash(bvnHash)
    if (Option.isSome(holder) && holder.value.account.id !== accountId) return yield* new BvnTaken()
    const at = yield* now
    const updated = yield* atomically(repo.setBvnVerified(accountId, {
      bvnHash,
      firstName: record.value.firstName,
      lastName: record.value.lastName,
      phone: input.phone,
      address: input.address,
      gender: input.gender,
      dateOfBirth: input.dateOfBirth
    }, at)).pipe(
      // a concurrent verification of the same BVN (or phone) by someone else won the race
      Effect.catchTag("UniqueViolation", (e): Effect.Effect<never, BvnTaken | PhoneTaken> =>
        e.field === "bvnHash"
          ? Effect.fail(new BvnTaken())
          : e.field === "phone"
          ? Effect.fail(new PhoneTaken())
          : Effect.die(e))
    )
    if (!updated) return yield* new BvnAlreadyVerified()
    return {
      firstName: record.value.firstName,
      lastName: record.value.lastName,
      phone: record.value.phone
    } satisfies BvnIdentity
  })

/**
 * `POST /auth/verify-bvn`. At most `ThrottlePolicy.bvn_verification_failure` (3) failed
 * verifications per customer per 24 hours: each try is counted before the registry is asked (so a
 * burst cannot outrun the count) and uncounted unless it was a wrong guess (unknown BVN, date of
 * birth, names, a BVN held by another customer). Past the limit: TooManyAttempts (429) even for
 * the right answer, and a `bvn_verification_throttled` staff alert.
 */
export const verifyBvn = (accountId: AccountId, input: VerifyBvnInput) =>
  Effect.gen(function*() {
    const found = yield* requireAccount(accountId)
    if (found.customer.kycStatus !== "pending") return yield* new BvnAlreadyVerified()
    const bvn = Redacted.isRedacted(input.bvn) ? Redacted.value(input.bvn) : input.bvn
    const attempt = yield* reserveAttempt(accountId, "bvn_verification_failure").pipe(
      Effect.tapError((e) => alertThrottled(found.customer.id, e))
    )
    const identity = yield* checkAndStore(accountId, bvn, input).pipe(
      // an interrupted try stays counted: only a known outcome that was no wrong guess is uncounted
      Effect.tapError((e) => (isWrongGuess(e) ? Effect.void : releaseAttempt(attempt)))
    )
    yield* releaseAttempt(attempt)
    yield* Effect.logInfo("BVN verified").pipe(Effect.annotateLogs({ accountId }))
    return identity
  }).pipe(withSpan("Banking.verifyBvn", { attributes: { accountId } }))
