/**
 * App settings: fees, limits and caps that operators change without a deploy (admins edit them
 * with PATCH /admin/settings/{key}). Each setting has a key, a schema and a default (the spec's
 * value); a stored value that does not decode is ignored with a warning and the default applies,
 * so a bad edit can never stop money from moving at the documented price.
 */
import { Context, Effect, Option, Schema } from "effect"
import { DefaultNipFeeSchedule, isValidSchedule, type NipFeeSchedule } from "../transfers/Fees.js"

export class SettingsStore extends Context.Tag("domain/SettingsStore")<SettingsStore, {
  /** the stored JSON value of a setting, if any */
  readonly get: (key: string) => Effect.Effect<Option.Option<unknown>>
  readonly set: (key: string, value: unknown, now: Date) => Effect.Effect<void>
}>() {}

const KoboJson = Schema.Union(Schema.BigInt, Schema.BigIntFromNumber)

const NipFeeScheduleSchema = Schema.Struct({
  tiers: Schema.Array(Schema.Struct({ upToKobo: Schema.NullOr(KoboJson), feeKobo: KoboJson })),
  vatBasisPoints: KoboJson
}).pipe(Schema.filter((s) => isValidSchedule(s) || "not a valid fee schedule"))

export interface Setting<A> {
  readonly key: string
  readonly schema: Schema.Schema<A, any>
  readonly defaultValue: A
}

export const NipFees: Setting<NipFeeSchedule> = {
  key: "fees.nip",
  schema: NipFeeScheduleSchema as unknown as Schema.Schema<NipFeeSchedule, any>,
  defaultValue: DefaultNipFeeSchedule
}

/** The current value of a setting (its default when unset or invalid). */
export const get = <A>(setting: Setting<A>) =>
  Effect.gen(function*() {
    const stored = yield* (yield* SettingsStore).get(setting.key)
    if (Option.isNone(stored)) return setting.defaultValue
    return yield* Schema.decodeUnknown(setting.schema)(stored.value).pipe(
      Effect.catchAll((error) =>
        Effect.logWarning("invalid app setting ignored; using the default").pipe(
          Effect.annotateLogs({ key: setting.key, error: String(error) }),
          Effect.as(setting.defaultValue)
        )
      )
    )
  })

const Count = Schema.Int.pipe(Schema.greaterThanOrEqualTo(0))
const PositiveCount = Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))
const KoboAmount = KoboJson.pipe(Schema.filter((n) => n >= 0n || "must not be negative"))

export interface PlanLimits {
  /** the smallest instalment a plan may have (₦1 by default) */
  readonly minInstalmentKobo: bigint
  /** the largest pot (₦100m by default) */
  readonly maxTotalKobo: bigint
  /** the longest plan (10 years by default) */
  readonly maxDurationDays: number
}

export const PlanLimitsSetting: Setting<PlanLimits> = {
  key: "plans.limits",
  schema: Schema.Struct({ minInstalmentKobo: KoboAmount, maxTotalKobo: KoboAmount, maxDurationDays: PositiveCount }),
  defaultValue: { minInstalmentKobo: 100n, maxTotalKobo: 10_000_000_000n, maxDurationDays: 3650 }
}

/** Borrow: lifetime cap per plan (the spec's 3). */
export const BorrowCap: Setting<number> = { key: "plans.borrow.lifetimeCap", schema: Count, defaultValue: 3 }

export interface ExtraCashRules {
  /** flat fee on the amount, on top of the NIP fee: 400 = 4% (the spec's) */
  readonly feeBasisPoints: bigint
  /** per local day in the plan's time zone (the spec's 3) */
  readonly perDay: number
  /** per plan, lifetime (the spec's 5) */
  readonly perPlan: number
}

export const ExtraCashSetting: Setting<ExtraCashRules> = {
  key: "plans.extraCash",
  schema: Schema.Struct({ feeBasisPoints: KoboAmount, perDay: Count, perPlan: Count }),
  defaultValue: { feeBasisPoints: 400n, perDay: 3, perPlan: 5 }
}

export interface PayoutRetryRules {
  /** failed payouts of one instalment at the destination bank before the plan is paused */
  readonly maxAttempts: number
  /** wait before trying a failed instalment again */
  readonly retryAfterMinutes: number
}

export const PayoutRetrySetting: Setting<PayoutRetryRules> = {
  key: "plans.payoutRetry",
  schema: Schema.Struct({ maxAttempts: PositiveCount, retryAfterMinutes: PositiveCount }),
  defaultValue: { maxAttempts: 3, retryAfterMinutes: 60 }
}

/** The keys of every setting (what `audit verify` checks against the audit log). */
export const allKeys: ReadonlyArray<string> = [NipFees, PlanLimitsSetting, BorrowCap, ExtraCashSetting, PayoutRetrySetting].map((s) => s.key)
