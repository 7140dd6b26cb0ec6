/**
 * App settings in the back office: every key has a schema (settings/Settings.ts); staff with
 * settings:read list them, a superadmin (settings:write) changes one. An invalid value is refused
 * (400 naming `value`) and the old value stays; a change is audited with its before and after.
 */
import { Effect, Either, Option, ParseResult, Schema } from "effect"
import * as Settings from "../settings/Settings.js"
import { atomically, now } from "../shared/UseCase.js"
import * as Audit from "./Audit.js"
import { requirePermission } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"
import { withSpan } from "../shared/Spans.js"
import { Failure, validation, ValidationKind } from "../shared/Failure.js"

/** No setting has this key (404). */
export class SettingNotFound extends Failure("SettingNotFound", {
  status: 404,
  code: "SETTING_NOT_FOUND",
  message: "No such setting",
  meaning: "No app setting has this key (`error.key`); GET /admin/settings lists them"
})<{ readonly key: string }> {
  override answer() {
    return { ...super.answer(), detail: { key: this.key } }
  }
}
/**
 * The value does not fit the setting's schema (400): `fields` names each problem by its path in the
 * value (`value.perDay`, `value.tiers.0.feeKobo`; `value` for the whole), so a form shows it by its field.
 */
export class InvalidSettingValue extends Failure("InvalidSettingValue", ValidationKind)<{
  readonly message: string
  readonly fields?: Readonly<Record<string, ReadonlyArray<string>>>
}> {
  override answer() {
    return validation(this.fields ?? { value: [this.message] })
  }
}

/** The problems of a decode failure by their path in the value. */
const fieldsOf = (error: ParseResult.ParseError): Record<string, Array<string>> => {
  const fields: Record<string, Array<string>> = {}
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const field = ["value", ...issue.path.map(String)].join(".")
    ;(fields[field] ??= []).push(issue.message)
  }
  return fields
}

interface Entry {
  readonly setting: Settings.Setting<any>
  readonly description: string
}

/** Every setting staff can see and change. */
export const registry: ReadonlyArray<Entry> = [
  { setting: Settings.NipFees, description: "NIP fee tiers (upToKobo null = above the last) and VAT in basis points" },
  { setting: Settings.PlanLimitsSetting, description: "Smallest instalment, largest pot (kobo) and longest plan (days)" },
  { setting: Settings.BorrowCap, description: "Borrows per plan, lifetime" },
  { setting: Settings.ExtraCashSetting, description: "Extra Cash fee (basis points), uses per day and per plan" },
  { setting: Settings.PayoutRetrySetting, description: "Failed payouts of one instalment before the plan pauses, and the wait between tries" }
]

const find = (key: string) => Option.fromNullable(registry.find((e) => e.setting.key === key))

/** A value as JSON (bigints as decimal strings), the way it is stored and shown. */
const encoded = (setting: Settings.Setting<any>, value: unknown): unknown => Schema.encodeSync(setting.schema)(value)

export interface SettingView {
  readonly key: string
  readonly description: string
  readonly value: unknown
  readonly defaultValue: unknown
}

const view = (entry: Entry) =>
  Effect.map(Settings.get(entry.setting), (value) => ({
    key: entry.setting.key,
    description: entry.description,
    value: encoded(entry.setting, value),
    defaultValue: encoded(entry.setting, entry.setting.defaultValue)
  }) satisfies SettingView)

/** GET /admin/settings. */
export const list = (actor: StaffMember) =>
  Effect.zipRight(requirePermission(actor, "settings:read"), Effect.forEach(registry, view))

/** The checks a change makes before anything is stored (also run when four-eyes files a request). */
export const checkUpdate = (actor: StaffMember, key: string, value: unknown) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "settings:write")
    const entry = yield* Option.match(find(key), { onNone: () => Effect.fail(new SettingNotFound({ key })), onSome: Effect.succeed })
    const decoded = Schema.decodeUnknownEither(entry.setting.schema)(value, { errors: "all" })
    if (Either.isLeft(decoded)) {
      return yield* new InvalidSettingValue({
        message: ParseResult.TreeFormatter.formatErrorSync(decoded.left),
        fields: fieldsOf(decoded.left)
      })
    }
    return { entry, after: encoded(entry.setting, decoded.right) }
  })

/** PATCH /admin/settings/{key}: validated by the key's schema, stored, audited. */
export const update = (actor: StaffMember, key: string, value: unknown) =>
  Effect.gen(function*() {
    const { after, entry } = yield* checkUpdate(actor, key, value)
    const before = yield* view(entry)
    yield* atomically(
      Effect.gen(function*() {
        yield* (yield* Settings.SettingsStore).set(key, after, yield* now)
        yield* Audit.record({
          actorKind: "staff",
          actorId: actor.id,
          action: "settings.update",
          targetKind: "setting",
          targetId: key,
          before: before.value as Audit.Json,
          after: after as Audit.Json
        })
      })
    )
    return { ...before, value: after } satisfies SettingView
  }).pipe(withSpan("AdminSettings.update", { attributes: { key } }))
