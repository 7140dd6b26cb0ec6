/**
 * Referrals: a new customer may name the code of the customer who invited them (at registration or
 * at their first social sign-in). A referral is successful once the referred customer's first
 * deposit is confirmed; the referrer is then told by email, if their settings allow optional mail.
 *
 * No self-referral: a code is applied only when an account is created, so it always names someone
 * else, and the database refuses a customer referring itself. A person cannot farm referrals with
 * a second account of their own either: success needs a confirmed deposit, which needs a bank
 * account, which needs a BVN, and a BVN verifies only one account.
 */
import { Effect, Option } from "effect"
import { requireAccount } from "../account/Accounts.js"
import type { Customer } from "../account/Model.js"
import { sendOptional } from "../notifications/Preferences.js"
import { UnknownReferralCode } from "./Errors.js"
import { REFERRAL_ALPHABET, REFERRAL_CODE_LENGTH } from "./ReferralCode.js"
import { ReferralRepo, type ReferredCustomer } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, CustomerId } from "../shared/Ids.js"

/** Codes are case-insensitive; surrounding spaces are ignored. */
export const normalizeReferralCode = (raw: string): string => raw.trim().toUpperCase()

const isCodeShape = (code: string) =>
  code.length === REFERRAL_CODE_LENGTH && [...code].every((c) => REFERRAL_ALPHABET.includes(c))

/**
 * The referrer of an account about to be created: none without a code (or an empty one),
 * UnknownReferralCode for a code no customer owns.
 */
export const resolveReferrer = (raw: string | undefined) =>
  Effect.gen(function*() {
    if (raw === undefined || raw.trim() === "") return Option.none<CustomerId>()
    const code = normalizeReferralCode(raw)
    if (!isCodeShape(code)) return yield* new UnknownReferralCode()
    const found = yield* (yield* ReferralRepo).findReferrer(code)
    if (Option.isNone(found)) return yield* new UnknownReferralCode()
    return Option.some(found.value.customerId)
  })

export interface ReferralEntry {
  /** first name and last initial ("Ada O."), never the email or phone; null once the account is deleted */
  readonly name: string | null
  readonly joinedAt: Date
  readonly successful: boolean
  readonly firstDepositAt: Date | null
}

export interface ReferralSummary {
  readonly referralCode: string
  readonly totalReferred: number
  readonly successfulReferrals: number
  readonly referrals: ReadonlyArray<ReferralEntry>
}

/** What the referrer may see of someone they referred: a first name and an initial. */
export const shortName = (r: Pick<ReferredCustomer, "firstName" | "lastName" | "customerStatus">): string | null => {
  if (r.customerStatus === "deleted" || r.firstName === null) return null
  return r.lastName === null || r.lastName === "" ? r.firstName : `${r.firstName} ${r.lastName[0]!.toUpperCase()}.`
}

const entryOf = (r: ReferredCustomer): ReferralEntry => ({
  name: shortName(r),
  joinedAt: r.joinedAt,
  successful: r.firstDepositAt !== null,
  firstDepositAt: r.firstDepositAt
})

/** `GET /customers/referrals`. */
export const referralSummary = (accountId: AccountId) =>
  Effect.gen(function*() {
    const { customer } = yield* requireAccount(accountId)
    const referred = (yield* (yield* ReferralRepo).listReferred(customer.id)).filter((r) => r.customerId !== customer.id)
    const referrals = referred.map(entryOf)
    return {
      referralCode: customer.referralCode,
      totalReferred: referrals.length,
      successfulReferrals: referrals.filter((r) => r.successful).length,
      referrals
    } satisfies ReferralSummary
  }).pipe(withSpan("Referrals.summary"))

/**
 * The referred customer's first deposit was just confirmed: the referral became successful. Tells
 * the referrer (optional mail: their settings decide). Never fails the deposit that triggered it.
 */
export const referralSucceeded = (referred: Customer) =>
  Effect.gen(function*() {
    if (referred.referredBy === null || referred.referredBy === referred.id) return
    yield* sendOptional(referred.referredBy, {
      channel: "email",
      kind: "referral_success",
      subject: "Your referral made their first deposit",
      text: "Someone you invited has made their first deposit: your referral is now successful. " +
        "See your referrals in the app."
    })
  }).pipe(withSpan("Referrals.succeeded"))
