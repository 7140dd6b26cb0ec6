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
