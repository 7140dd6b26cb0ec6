/**
 * App settings: fees, limits and caps that operators change without a deploy (admins edit them
 * with PATCH /admin/settings/{key}). Each setting has a key, a schema and a default (the spec's
 * value); a stored value that does not decode is ignored with a warning and the default applies,
 * so a bad edit can never stop money from moving at the documented price.
 */
import { Context, Effect, Option, Schema } from "effect"
import { DefaultNipFeeSchedule, isValidSchedule, type NipFeeSchedule } from "./Fees.js"

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
