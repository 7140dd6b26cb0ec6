/**
 * Failures about referrals.
 */
import { Failure, validation, ValidationKind } from "../shared/Failure.js"

/** The referral code given at sign-up belongs to no customer: answered as validation, naming the field. */
export class UnknownReferralCode extends Failure("UnknownReferralCode", ValidationKind) {
  override answer() {
    return validation({ referralCode: ["Unknown referral code"] })
  }
}
