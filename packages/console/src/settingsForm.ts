/**
 * App settings as forms: each setting's fields (naira, percentages, counts), the exact conversions
 * between what staff type and what the API stores (kobo and basis points as decimal strings: parsed
 * digit by digit, never through a float), the checks the server makes (the same bounds, so a form is
 * refused before it is sent; the server still judges, its 400 names the field), and a change in words.
 */

/** How a field is typed: naira (stored in kobo), a percentage (stored in basis points), a whole count. */
export type FieldKind = "naira" | "percent" | "count"

export interface FieldSpec {
  /** the key inside the setting's value */
  readonly key: string
  readonly label: string
  readonly kind: FieldKind
  /** the smallest value the server accepts (counts: 0 or 1; amounts and percentages: 0) */
  readonly min: number
}

/** The fields of each setting whose value is a flat object; fees.nip has its own form (tiers). */
export const flatSettings: Readonly<Record<string, { readonly title: string; readonly about: string; readonly fields: ReadonlyArray<FieldSpec> }>> = {
  "plans.limits": {
    title: "Plan limits",
    about: "What a customer's plan may be: its smallest instalment, its largest pot and its longest duration.",
    fields: [
      { key: "minInstalmentKobo", label: "Smallest instalment", kind: "naira", min: 0 },
      { key: "maxTotalKobo", label: "Largest pot", kind: "naira", min: 0 },
      { key: "maxDurationDays", label: "Longest plan (days)", kind: "count", min: 1 }
    ]
  },
  "plans.extraCash": {
    title: "Extra Cash",
    about: "The fee on an early withdrawal (on top of the NIP fee), and how often a plan may use it.",
    fields: [
      { key: "feeBasisPoints", label: "Extra Cash fee", kind: "percent", min: 0 },
      { key: "perDay", label: "Extra Cash uses per day", kind: "count", min: 0 },
      { key: "perPlan", label: "Extra Cash uses per plan", kind: "count", min: 0 }
    ]
  },
  "plans.payoutRetry": {
    title: "Payout retries",
    about: "How often a payout that fails at the destination bank is tried again before the plan pauses, and how long between tries.",
    fields: [
      { key: "maxAttempts", label: "Failed payouts before the plan pauses", kind: "count", min: 1 },
      { key: "retryAfterMinutes", label: "Minutes between tries", kind: "count", min: 1 }
    ]
  }
}

/** What the NIP fee schedule form is about (the API's description speaks of kobo and basis points). */
export const NIP_ABOUT =
  "The fee (plus VAT) debited with each transfer and payout, by amount: each tier's fee applies up to its bound; the last tier has none."

/** Settings whose value is a single count. */
export const countSettings: Readonly<Record<string, FieldSpec>> = {
  "plans.borrow.lifetimeCap": { key: "", label: "Borrows per plan", kind: "count", min: 0 }
}

/** What a single-count setting is about. */
export const countAbout: Readonly<Record<string, string>> = {
  "plans.borrow.lifetimeCap": "How many times, in its whole life, a plan may pay a cycle early (Borrow)."
}

const NAIRA = /^(\d{1,16})(?:\.(\d{1,2}))?$/
const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?$/
const COUNT = /^\d{1,9}$/

/** "1,250.5" or "₦1250.50" → "125050" (kobo); null when it is not an amount to the kobo. */
export const nairaToKobo = (text: string): string | null => {
  const m = NAIRA.exec(text.trim().replace(/^₦/, "").replace(/,/g, ""))
  if (m === null) return null
  return (BigInt(m[1]!) * 100n + BigInt((m[2] ?? "").padEnd(2, "0"))).toString()
}

/** "125050" kobo → "1250.50" (for an input: no grouping). */
export const koboToNaira = (kobo: string): string => {
  const k = BigInt(kobo)
  return `${k / 100n}.${(k % 100n).toString().padStart(2, "0")}`
}

/** "7.5" → "750" (basis points); null when it is not a percentage to two decimals. */
export const percentToBasisPoints = (text: string): string | null => {
  const m = PERCENT.exec(text.trim().replace(/%$/, "").trim())
  if (m === null) return null
  return (BigInt(m[1]!) * 100n + BigInt((m[2] ?? "").padEnd(2, "0"))).toString()
}

/** "750" basis points → "7.5"; "400" → "4". */
export const basisPointsToPercent = (bp: string): string => {
  const b = BigInt(bp)
  const cents = (b % 100n).toString().padStart(2, "0").replace(/0+$/, "")
  return cents === "" ? `${b / 100n}` : `${b / 100n}.${cents}`
}

/** The value as typed in the form, from the stored one. */
export const toInput = (kind: FieldKind, stored: unknown): string =>
  kind === "naira" ? koboToNaira(String(stored)) : kind === "percent" ? basisPointsToPercent(String(stored)) : String(stored)

/** The stored value from what was typed, or the problem to show next to the field. */
export const fromInput = (spec: FieldSpec, text: string): { readonly value: string | number } | { readonly error: string } => {
  if (spec.kind === "naira") {
    const kobo = nairaToKobo(text)
    return kobo === null ? { error: "Enter an amount in naira, e.g. 1,250.50 (at most two decimals)" } : { value: kobo }
  }
  if (spec.kind === "percent") {
    const bp = percentToBasisPoints(text)
    return bp === null ? { error: "Enter a percentage, e.g. 4 or 7.5 (at most two decimals)" } : { value: bp }
  }
  const t = text.trim()
  if (!COUNT.test(t)) return { error: "Enter a whole number" }
  const n = Number(t)
  return n < spec.min ? { error: `Must be at least ${spec.min}` } : { value: n }
}

/** A stored value in words: ₦1,250.50, 4%, 3. */
export const inWords = (kind: FieldKind, stored: unknown): string => {
  if (stored === null || stored === undefined) return "no limit"
  if (kind === "naira") {
    const [whole, kobo] = koboToNaira(String(stored)).split(".")
    return `₦${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${kobo}`
  }
  return kind === "percent" ? `${basisPointsToPercent(String(stored))}%` : String(stored)
}

export interface Tier {
  readonly upToKobo: string | null
  readonly feeKobo: string
}

/** The server's rule for a fee schedule (domain transfers/Fees.ts isValidSchedule), in words per field. */
export const tierProblems = (tiers: ReadonlyArray<Tier>): Record<string, string> => {
  const problems: Record<string, string> = {}
  if (tiers.length === 0) problems["tiers"] = "At least one tier is needed"
  tiers.forEach((tier, i) => {
    const last = i === tiers.length - 1
    if (last && tier.upToKobo !== null) problems[`tiers.${i}.upToKobo`] = "The last tier has no upper bound"
    if (!last && tier.upToKobo === null) problems[`tiers.${i}.upToKobo`] = "Only the last tier is unbounded"
    if (i > 0) {
      const previous = tiers[i - 1]!
      if (BigInt(tier.feeKobo) < BigInt(previous.feeKobo)) problems[`tiers.${i}.feeKobo`] = "Fees must not go down from one tier to the next"
      if (tier.upToKobo !== null && previous.upToKobo !== null && BigInt(tier.upToKobo) <= BigInt(previous.upToKobo)) {
        problems[`tiers.${i}.upToKobo`] = "Each bound must be above the previous one"
      }
    }
  })
  return problems
}

/** One line per changed field: "Extra Cash fee: 4% → 5%". */
export const changesInWords = (
  fields: ReadonlyArray<FieldSpec>,
  before: Record<string, unknown>,
  after: Record<string, unknown>
): ReadonlyArray<string> =>
  fields.filter((f) => String(before[f.key]) !== String(after[f.key])).map((f) =>
    `${f.label}: ${inWords(f.kind, before[f.key])} → ${inWords(f.kind, after[f.key])}`
  )

/** A fee schedule in words, one line per tier. */
export const tiersInWords = (tiers: ReadonlyArray<Tier>): ReadonlyArray<string> => {
  let from = "0"
  return tiers.map((t) => {
    const range = t.upToKobo === null ? `above ${inWords("naira", from)}` : `up to ${inWords("naira", t.upToKobo)}`
    if (t.upToKobo !== null) from = t.upToKobo
    return `${range}: ${inWords("naira", t.feeKobo)}`
  })
}
