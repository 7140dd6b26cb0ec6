/** The API reference of referrals: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## referrals.referrals
Get the referral summary

The customer's referral code and whom it brought in; a referral is successful once the referred
customer's first deposit is confirmed.
`
