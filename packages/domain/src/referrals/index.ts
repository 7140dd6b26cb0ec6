/** Referrals: codes, the referrer of a new account, the summary. */
export * from "./ReferralCode.js"
export * from "./Referrals.js"
