/**
 * Disbursement plans: a customer commits a pot that is paid back to their own bank account in
 * equal instalments (PlanSchedule.ts says when and how much). Every payout, Borrow and Extra Cash
 * is a movement of the transfer saga (Transfers.ts): there is no second money path.
 *
 * Life of a plan (Plan.state):
 * - awaiting_funds → active when the wallet covers the plan: the total AND the NIP fee (with VAT) of
 *   every payout (`reservedFor`; POST, the activation job, a deposit). The fees are fixed then as
 *   caps: a fee raised later is not charged to the plan (`payoutFee`).
 *   Activation fixes the anchor: cycle 0 is the first slot after that moment.
 * - active: the due-payout job pays cycle after cycle. A cycle has one Instalment record (unique
 *   per plan and cycle) and at most one live payout attempt, linked under the plan's row lock, so
 *   several scheduler processes pay it once. Missed cycles (downtime) are paid one after the other,
 *   in order, and the schedule continues from its anchor.
 * - A payout the wallet cannot cover fails without a debit: the plan is `depleted` (plan_depleted);
 *   it resumes, catching up, once the wallet covers the rest of the pot and its fees.
 * - A payout that fails at the bank is reversed by the saga (disbursement_failed) and tried again
 *   after `plans.payoutRetry.retryAfterMinutes`; after `maxAttempts` failures the plan is `paused`
 *   (plan_paused) until the customer edits it (e.g. a new withdrawal account), or an operator
 *   retries its failed payout (admin/JobRetry.ts: due now, through this same job).
 * - A payout the bank answers "pending" holds the plan on that cycle until reconciliation settles it.
 * - completed once the last cycle is paid; a new POST then starts a new plan.
 *
 * Editing (POST on an existing plan, or the OTP-gated PATCH):
 * - destination, time or time zone only: the cycles and their amounts stay; the remaining due dates
 *   move to the new time (from the same anchor); a paused plan resumes.
 * - amount, duration, frequency or week day: the body describes the WHOLE plan (Pot.ts): the
 *   instalments paid count as its first cycles, the rest of the new pot is paid over the cycles
 *   left, from the first slot after the edit (and after the day of the last payout, so never in a
 *   period a Borrow paid). The plan is active again once the wallet covers the rest and its fees.
 *   Borrow count stays (per plan).
 * - refused while a payout of the plan is in progress.
 * - a POST that changes the withdrawal account (number or bank) needs the OTP exactly as PATCH
 *   does: a stolen access token alone cannot send the payouts elsewhere (issue 37).
 */
export { type PlanInput, termsOf, validateTerms } from "./Terms.js"
export { findPlan, getPlan, history, instalmentAmount, quote } from "./Queries.js"
export { patchPlan, upsertPlan } from "./Editing.js"
export {
  activateForCustomer,
  activateFundedPlans,
  activateIfFunded,
  coverageNeeded,
  fundingNeeded,
  payoutFee,
  reservedFor
} from "./Activation.js"
export { cyclesPaid, leftKobo, paidKobo, replan, type Replanned, wholeCycles, wholePotKobo } from "./Pot.js"
export { type PlanRun, processDueMovements, processDuePayouts, runPlan, settle } from "./Payouts.js"
export { borrow, type BorrowEligibility, borrowEligibility, borrowQuote } from "./Borrow.js"
export { extraCash, extraCashFees, extraCashQuote, maxWithdrawal } from "./ExtraCash.js"
export { MovementInFlight } from "../transfers/Errors.js"
