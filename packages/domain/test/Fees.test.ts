import {describe, expect, it} from "@effect/vitest"
import {FastCheck as fc} from "effect"
import { basisPointsOf, DefaultNipFeeSchedule, divRoundHalfUp, feeFor, isValidSchedule, type NipFeeSchedule, quote } from "../src/transfers/Fees.js"

const NAIRA = 100n
const amount = fc.bigInt({ min: 0n, max: 1_000_000_000_000n })

/** Random valid schedules: ascending bounds, non-decreasing fees, the last tier unbounded. */
const schedule: fc.Arbitrary<NipFeeSchedule> = fc
  .tuple(
    fc.uniqueArray(fc.bigInt({ min: 1n, max: 100_000_000n }), { minLength: 0, maxLength: 5 }),
    fc.array(fc.bigInt({ min: 0n, max: 1_000_000n }), { minLength: 6, maxLength: 6 }),
    fc.bigInt({ min: 0n, max: 10_000n })
  )
  .map(([bounds, fees, vatBasisPoints]) => {
    const sortedBounds = [...bounds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    const sortedFees = [...fees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    return {
      tiers: [...sortedBounds.map((upToKobo, i) => ({ upToKobo, feeKobo: sortedFees[i]! })), {
        upToKobo: null,
        feeKobo: sortedFees[sortedBounds.length]!
      }],
      vatBasisPoints
    }
  })

describe("NIP fee schedule", () => {
  it("the default tiers: ≤ ₦5,000 → ₦10, ≤ ₦50,000 → ₦25, above → ₦50, each plus 7.5% VAT", () => {
    expect(isValidSchedule(DefaultNipFeeSchedule)).toBe(true)
    expect(quote(1n, DefaultNipFeeSchedule)).toEqual({ amountKobo: 1n, feeKobo: 1_000n, vatKobo: 75n, totalKobo: 1_076n })
    expect(quote(5_000n * NAIRA, DefaultNipFeeSchedule).feeKobo).toBe(10n * NAIRA)
    expect(quote(5_000n * NAIRA + 1n, DefaultNipFeeSchedule).feeKobo).toBe(25n * NAIRA)
    expect(quote(50_000n * NAIRA, DefaultNipFeeSchedule)).toEqual({
      amountKobo: 5_000_000n,
      feeKobo: 2_500n,
      vatKobo: 188n, // 187.5 kobo rounds half-up
      totalKobo: 5_002_688n
    })
    expect(quote(50_000n * NAIRA + 1n, DefaultNipFeeSchedule)).toEqual({
      amountKobo: 5_000_001n,
      feeKobo: 5_000n,
      vatKobo: 375n,
      totalKobo: 5_005_376n
    })
    expect(quote(0n, DefaultNipFeeSchedule).feeKobo).toBe(1_000n)
  })

  it("divRoundHalfUp rounds to the nearest integer, halves up", () => {
    expect([divRoundHalfUp(0n, 4n), divRoundHalfUp(1n, 4n), divRoundHalfUp(2n, 4n), divRoundHalfUp(3n, 4n)]).toEqual([0n, 0n, 1n, 1n])
    expect(divRoundHalfUp(14n, 4n)).toBe(4n) // 3.5 → 4
    expect(divRoundHalfUp(13n, 4n)).toBe(3n) // 3.25 → 3
    expect(basisPointsOf(2_500n, 750n)).toBe(188n)
    expect(() => divRoundHalfUp(-1n, 2n)).toThrow(RangeError)
    expect(() => divRoundHalfUp(1n, 0n)).toThrow(RangeError)
    expect(() => quote(-1n, DefaultNipFeeSchedule)).toThrow(RangeError)
  })

  it("rejects malformed schedules", () => {
    expect(isValidSchedule({ tiers: [], vatBasisPoints: 750n })).toBe(false)
    expect(isValidSchedule({ tiers: [{ upToKobo: 10n, feeKobo: 1n }], vatBasisPoints: 750n })).toBe(false) // no unbounded tier
    expect(isValidSchedule({
      tiers: [{ upToKobo: 10n, feeKobo: 5n }, { upToKobo: null, feeKobo: 1n }],
      vatBasisPoints: 750n
    })).toBe(false) // fee decreases
    expect(isValidSchedule({
      tiers: [{ upToKobo: 10n, feeKobo: 1n }, { upToKobo: 10n, feeKobo: 2n }, { upToKobo: null, feeKobo: 3n }],
      vatBasisPoints: 750n
    })).toBe(false) // bounds not strictly ascending
    expect(isValidSchedule({ tiers: [{ upToKobo: null, feeKobo: 1n }], vatBasisPoints: -1n })).toBe(false)
  })

  it.prop("divRoundHalfUp is within half a unit, and exact halves go up", [fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10n ** 6n })], ([n, d]) => {
    const q = divRoundHalfUp(n, d)
    const twiceError = 2n * (q * d - n) // 2·(q − n/d)·d
    expect(twiceError > -d && twiceError <= d).toBe(true)
    if ((2n * n) % (2n * d) === d) expect(q * d > n).toBe(true) // a tie rounds up
  })

  it.prop("total = amount + fee + VAT, VAT is the fee's VAT rounded half-up", [amount, schedule], ([a, s]) => {
    expect(isValidSchedule(s)).toBe(true)
    const q = quote(a, s)
    expect(q.amountKobo).toBe(a)
    expect(q.totalKobo).toBe(q.amountKobo + q.feeKobo + q.vatKobo)
    expect(q.feeKobo).toBe(feeFor(a, s))
    expect(q.vatKobo).toBe(divRoundHalfUp(q.feeKobo * s.vatBasisPoints, 10_000n))
    // never more than half a kobo away from the exact VAT
    const exactTimes10k = q.feeKobo * s.vatBasisPoints
    const diff = q.vatKobo * 10_000n - exactTimes10k
    expect(diff > -5_000n && diff <= 5_000n).toBe(true)
  })

  it.prop("fee, VAT and total are monotone in the amount", [amount, amount, schedule], ([x, y, s]) => {
    const [lo, hi] = x <= y ? [x, y] : [y, x]
    const a = quote(lo, s)
    const b = quote(hi, s)
    expect(a.feeKobo <= b.feeKobo).toBe(true)
    expect(a.vatKobo <= b.vatKobo).toBe(true)
    expect(a.totalKobo <= b.totalKobo).toBe(true)
  })

  it.prop("the default schedule's fee is one of its three tiers", [amount], ([a]) => {
    const q = quote(a, DefaultNipFeeSchedule)
    expect([1_000n, 2_500n, 5_000n]).toContain(q.feeKobo)
    expect(q.vatKobo).toBe(q.feeKobo === 1_000n ? 75n : q.feeKobo === 2_500n ? 188n : 375n)
  })
})
