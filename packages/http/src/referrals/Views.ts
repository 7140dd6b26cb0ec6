/** What GET /customers/referrals answers. */
import type { Referrals } from "@app/domain"
import { Schema } from "effect"

export const ReferralEntryView = Schema.Struct({
  /** first name and last initial ("Ada O."); null once the referred account is deleted */
  name: Schema.NullOr(Schema.String),
  joinedAt: Schema.String,
  /** true once the referred customer's first deposit is confirmed */
  successful: Schema.Boolean,
  firstDepositAt: Schema.NullOr(Schema.String)
})

export const ReferralSummaryView = Schema.Struct({
  referralCode: Schema.String,
  totalReferred: Schema.Number,
  successfulReferrals: Schema.Number,
  referrals: Schema.Array(ReferralEntryView)
}).annotations({
  examples: [{
    referralCode: "K7QM2XPA",
    totalReferred: 2,
    successfulReferrals: 1,
    referrals: [
      { name: "Emeka N.", joinedAt: "2026-09-02T12:40:00.000Z", successful: true, firstDepositAt: "2026-09-03T08:11:45.000Z" },
      { name: "Funmi A.", joinedAt: "2026-11-18T16:22:09.000Z", successful: false, firstDepositAt: null }
    ]
  }]
})

export const referralSummaryView = (s: Referrals.ReferralSummary): typeof ReferralSummaryView.Type => ({
  referralCode: s.referralCode,
  totalReferred: s.totalReferred,
  successfulReferrals: s.successfulReferrals,
  referrals: s.referrals.map((r) => ({
    name: r.name,
    joinedAt: r.joinedAt.toISOString(),
    successful: r.successful,
    firstDepositAt: r.firstDepositAt === null ? null : r.firstDepositAt.toISOString()
  }))
})
