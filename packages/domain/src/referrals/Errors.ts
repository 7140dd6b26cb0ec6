/**
 * Failures about referrals.
 */
import { Data } from "effect"

/** The referral code given at sign-up belongs to no customer. */
export class UnknownReferralCode extends Data.TaggedError("UnknownReferralCode")<{}> {}
