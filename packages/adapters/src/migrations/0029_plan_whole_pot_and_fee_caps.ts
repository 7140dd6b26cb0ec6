import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/**
 * A plan's terms describe the whole plan across its edits (docs/decisions/plan-patch-after-paid-cycles.md),
 * and a funded plan's payouts keep the NIP fees it was funded for (docs/decisions/nip-fee-raised-mid-plan.md):
 *
 * - `paid_before_kobo`: what the schedules replaced by edits paid (instalments 0..cycle_base-1); the
 *   whole pot shown is paid_before_kobo + total_amount_kobo (the current schedule's pot).
 * - `payout_fee_cap_kobo`, `last_payout_fee_cap_kobo`: the fee (with VAT) of the current schedule's
 *   regular and last payout when it was activated; null until then (or for plans activated before
 *   this migration: they pay the current fee, as before).
 *
 * Plans edited before this migration had their terms describe only the replaced schedule: they are
 * brought to the whole-plan meaning (the paid instalments' sum, and their cycles' days added to
 * duration_days), so the pot and length they show include what was paid.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE disbursement_plans
      ADD COLUMN paid_before_kobo int8 NOT NULL DEFAULT 0 CHECK (paid_before_kobo >= 0),
      ADD COLUMN payout_fee_cap_kobo int8 CHECK (payout_fee_cap_kobo >= 0),
      ADD COLUMN last_payout_fee_cap_kobo int8 CHECK (last_payout_fee_cap_kobo >= 0)`
  yield* backfillWholePlans
})

/**
 * Plans edited before: the instalments paid under replaced schedules (0..cycle_base-1) added to
 * the pot shown, and their cycles' days to the duration (so the frequency's cycle count of the new
 * duration is cycle_base + cycle_count). Applies to plans whose paid_before_kobo is still 0 only.
 */
export const backfillWholePlans = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    UPDATE disbursement_plans p SET
      paid_before_kobo = coalesce((
        SELECT sum(i.amount_kobo) FROM plan_instalments i
        WHERE i.plan_id = p.id AND i.cycle < p.cycle_base AND i.status = 'paid'
      ), 0),
      duration_days = p.duration_days + p.cycle_base * (CASE p.frequency WHEN 'weekly' THEN 7 WHEN 'monthly' THEN 30 ELSE 1 END)
    WHERE p.cycle_base > 0 AND p.paid_before_kobo = 0`
})
