/**
 * The whole pot of a plan across its schedules, and what an edit does to it
 * (docs/decisions/plan-patch-after-paid-cycles.md).
 *
 * A plan's terms (totalAmountKobo, durationDays, frequency) always describe the WHOLE plan, as when
 * it was created: totalAmountKobo is the whole pot, instalments already paid included. Inside, a
 * plan runs one schedule at a time: `Plan.totalAmountKobo` is the pot of the current schedule,
 * `cycleCount` its cycles; `paidBeforeKobo` and `cycleBase` are what earlier schedules (replaced by
 * edits) paid and how many instalments. So:
 *
 *   whole pot    = paidBeforeKobo + totalAmountKobo      (what the API shows as totalAmountKobo)
 *   whole cycles = cycleBase + cycleCount                (cyclesTotal)
 *   paid         = paidBeforeKobo + the current schedule's paid instalments
 *
 * An edit of the amount or length keeps the instalments paid as the first cycles of the new whole
 * plan and spreads the rest of the new pot over the cycles left (equal instalments, the remainder on
 * the last, as for a new plan). So the payouts of a plan add up to the pot it shows, never more.
 */
import { Either } from "effect"
import * as Settings from "../settings/Settings.js"
import { formatNaira, type Kobo } from "../shared/Money.js"
import { InvalidPlanTerms } from "./Errors.js"
import type { Plan } from "./Model.js"
import * as Schedule from "./Schedule.js"

/** The pot the customer committed: what earlier schedules paid and the current schedule's pot. */
export const wholePotKobo = (plan: Plan): Kobo => plan.paidBeforeKobo + plan.totalAmountKobo

/** Every instalment of the plan, earlier schedules' included. */
export const wholeCycles = (plan: Plan): number => plan.cycleBase + plan.cycleCount

/** Instalments paid under the plan (scheduled and borrowed), earlier schedules' included. */
export const cyclesPaid = (plan: Plan): number => plan.cycleBase + plan.nextCycle

/** What the plan's paid instalments add up to. */
export const paidKobo = (plan: Plan): Kobo =>
  plan.paidBeforeKobo + plan.totalAmountKobo - Schedule.remainingKobo(plan.totalAmountKobo, plan.cycleCount, plan.nextCycle)

/** What the plan still has to pay (the current schedule's remaining instalments). */
export const leftKobo = (plan: Plan): Kobo => Schedule.remainingKobo(plan.totalAmountKobo, plan.cycleCount, plan.nextCycle)

/** The schedule an edit puts in place of the current one. */
export interface Replanned {
  readonly paidBeforeKobo: Kobo
  /** the new schedule's pot: the new whole pot less what is paid */
  readonly totalAmountKobo: Kobo
  readonly cycleCount: number
  readonly cycleBase: number
}

/**
 * The schedule that pays the rest of a whole pot of `wholeKobo` over `wholeCycleCount` cycles, given
 * what `plan` has paid. Refused (by field, as a 400) when the whole plan has no cycle left after
 * those paid, when the pot is below what is paid, or when the instalments left would be smaller
 * than the limits allow.
 */
export const replan = (
  plan: Plan,
  wholeKobo: Kobo,
  wholeCycleCount: number,
  limits: Settings.PlanLimits
): Either.Either<Replanned, InvalidPlanTerms> => {
  const paidCycles = cyclesPaid(plan)
  const paid = paidKobo(plan)
  const cyclesLeft = wholeCycleCount - paidCycles
  if (cyclesLeft < 1) {
    return Either.left(new InvalidPlanTerms({
      fieldErrors: {
        durationDays: [
          `${paidCycles} instalments are paid already: the plan must hold at least ${paidCycles + 1} cycles in all`
        ]
      }
    }))
  }
  const least = paid + limits.minInstalmentKobo * BigInt(cyclesLeft)
  if (wholeKobo < least) {
    return Either.left(new InvalidPlanTerms({
      fieldErrors: {
        totalAmountKobo: [
          `${formatNaira(paid)} is paid already: the whole pot must be at least ${formatNaira(least)} ` +
          `(each of the ${cyclesLeft} instalments left at least ${formatNaira(limits.minInstalmentKobo)})`
        ]
      }
    }))
  }
  return Either.right({ paidBeforeKobo: paid, totalAmountKobo: wholeKobo - paid, cycleCount: cyclesLeft, cycleBase: paidCycles })
}
