/**
 * Fees of NIP (interbank) transfers, as a value: a schedule of flat fees by amount tier, plus VAT on
 * the fee. The schedule is always a parameter (app settings will supply it later);
 * `DefaultNipFeeSchedule` is today's:
 *
 *   amount ≤ ₦5,000        → ₦10
 *   amount ≤ ₦50,000       → ₦25
 *   amount  > ₦50,000      → ₦50
 *   VAT 7.5% of the fee, rounded half-up to the kobo (₦25 → 187.5 kobo → 188 kobo)
 *
 * Rounding: everything is integer kobo (`bigint`); the ONE rounding rule of fees is
 * `divRoundHalfUp`: an exact rational result is rounded to the nearest kobo, and exactly half a
 * kobo rounds up (away from zero; all amounts here are non-negative). Percentages are basis points
 * (1/100 of a percent), so 7.5% is exactly 750 and no floating point is ever involved.
 */
import type { Kobo } from "../shared/Money.js"

export interface FeeTier {
  /** inclusive upper bound of the amount this tier covers; null = no upper bound (the last tier) */
  readonly upToKobo: Kobo | null
  readonly feeKobo: Kobo
}

export interface NipFeeSchedule {
  /** ascending by upToKobo, fees non-decreasing, the last tier unbounded */
  readonly tiers: ReadonlyArray<FeeTier>
  /** VAT on the fee in basis points: 7.5% = 750 */
  readonly vatBasisPoints: bigint
}

export const DefaultNipFeeSchedule: NipFeeSchedule = {
  tiers: [
    { upToKobo: 500_000n, feeKobo: 1_000n },
    { upToKobo: 5_000_000n, feeKobo: 2_500n },
    { upToKobo: null, feeKobo: 5_000n }
  ],
  vatBasisPoints: 750n
}

export const BASIS_POINTS = 10_000n

/**
 * `numerator / denominator` rounded half-up to an integer: the fee module's only rounding rule.
 * Requires numerator ≥ 0 and denominator > 0 (a RangeError otherwise).
 */
export const divRoundHalfUp = (numerator: bigint, denominator: bigint): bigint => {
  if (numerator < 0n || denominator <= 0n) throw new RangeError("divRoundHalfUp needs numerator ≥ 0 and denominator > 0")
  return (2n * numerator + denominator) / (2n * denominator)
}

/** `basisPoints` of `amountKobo`, rounded half-up to the kobo. */
export const basisPointsOf = (amountKobo: Kobo, basisPoints: bigint): Kobo =>
  divRoundHalfUp(amountKobo * basisPoints, BASIS_POINTS)

/**
 * A usable schedule: at least one tier, bounds strictly ascending, only the last tier unbounded,
 * fees non-negative and non-decreasing (so fees are monotone in the amount), VAT non-negative.
 */
export const isValidSchedule = (schedule: NipFeeSchedule): boolean => {
  const { tiers } = schedule
  if (tiers.length === 0 || schedule.vatBasisPoints < 0n) return false
  for (let i = 0; i < tiers.length; i++) {
    const tier = tiers[i]!
    const last = i === tiers.length - 1
    if (tier.feeKobo < 0n || (tier.upToKobo === null) !== last) return false
    if (i > 0) {
      const previous = tiers[i - 1]!
      if (tier.feeKobo < previous.feeKobo) return false
      if (tier.upToKobo !== null && tier.upToKobo <= previous.upToKobo!) return false
    }
  }
  return true
}

/** The flat fee of the tier that covers the amount. */
export const feeFor = (amountKobo: Kobo, schedule: NipFeeSchedule): Kobo => {
  if (amountKobo < 0n) throw new RangeError("a fee needs a non-negative amount")
  const tier = schedule.tiers.find((t) => t.upToKobo === null || amountKobo <= t.upToKobo) ??
    schedule.tiers[schedule.tiers.length - 1]
  if (tier === undefined) throw new RangeError("a fee schedule needs at least one tier")
  return tier.feeKobo
}

export interface FeeQuote {
  readonly amountKobo: Kobo
  readonly feeKobo: Kobo
  readonly vatKobo: Kobo
  /** amount + fee + VAT: what leaves the customer's account */
  readonly totalKobo: Kobo
}

/** What sending `amountKobo` by NIP costs under `schedule`. */
export const quote = (amountKobo: Kobo, schedule: NipFeeSchedule): FeeQuote => {
  const feeKobo = feeFor(amountKobo, schedule)
  const vatKobo = basisPointsOf(feeKobo, schedule.vatBasisPoints)
  return { amountKobo, feeKobo, vatKobo, totalKobo: amountKobo + feeKobo + vatKobo }
}
