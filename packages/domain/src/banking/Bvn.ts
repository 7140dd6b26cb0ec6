/**
 * BVN verification (see index.ts for the decisions).
 */
import { Effect, Option, Redacted } from "effect"
import { requireAccount } from "../account/Accounts.js"
import type { Gender } from "../account/Model.js"
import { AccountRepo } from "../account/Ports.js"
import { PhoneTaken } from "../auth/Errors.js"
import { SecretHasher } from "../shared/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import { CoreBanking } from "./CoreBanking.js"
import { BvnAlreadyVerified, BvnDateOfBirthMismatch, BvnNotFound, BvnTaken } from "./Errors.js"
import { withSpan } from "../shared/Spans.js"

export interface VerifyBvnInput {
  /** 11 digits; never stored or logged */
  readonly bvn: string | Redacted.Redacted<string>
  readonly firstName: string
  readonly lastName: string
  /** normalised +234 form */
  readonly phone: string
  readonly address: string
  readonly gender: Gender
  /** YYYY-MM-DD, must equal the registry's */
  readonly dateOfBirth: string
}

/** What the registry says about the BVN's holder (the 200 body of verify-bvn). */
export interface BvnIdentity {
  readonly firstName: string
  readonly lastName: string
  readonly phone: string
}

export const verifyBvn = (accountId: string, input: VerifyBvnInput) =>
  Effect.gen(function*() {
    const found = yield* requireAccount(accountId)
    if (found.customer.kycStatus !== "pending") return yield* new BvnAlreadyVerified()
    const bvn = Redacted.isRedacted(input.bvn) ? Redacted.value(input.bvn) : input.bvn
    const bvnHash = yield* (yield* SecretHasher).digest("bvn", bvn)
    const repo = yield* AccountRepo
    const holder = yield* repo.findByBvnHash(bvnHash)
    if (Option.isSome(holder) && holder.value.account.id !== accountId) return yield* new BvnTaken()
    const record = yield* (yield* CoreBanking).bvnLookup(bvn)
    if (Option.isNone(record)) return yield* new BvnNotFound()
    if (record.value.dateOfBirth !== input.dateOfBirth) return yield* new BvnDateOfBirthMismatch()
    const at = yield* now
    const updated = yield* atomically(repo.setBvnVerified(accountId, {
      bvnHash,
      firstName: input.firstName,
      lastName: input.lastName,
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
    yield* Effect.logInfo("BVN verified").pipe(Effect.annotateLogs({ accountId }))
    return {
      firstName: record.value.firstName,
      lastName: record.value.lastName,
      phone: record.value.phone
    } satisfies BvnIdentity
  }).pipe(withSpan("Banking.verifyBvn", { attributes: { accountId } }))
