/** The failures of referrals, over HTTP. */
import type { UnknownReferralCode } from "@app/domain"
import { type Catalogue, type ErrorTable, validationError } from "../shared/ErrorTable.js"

export type ReferralError = UnknownReferralCode

export const referralErrors = {
  // a field of the request that is wrong: answered as validation, naming the field
  UnknownReferralCode: () => validationError({ referralCode: ["Unknown referral code"] })
} satisfies ErrorTable<ReferralError>

/** referralErrors answers only VALIDATION_ERROR (a shared code). */
export const referralCodes = {} satisfies Catalogue<typeof referralErrors>
