/**
 * `check-config`: validate the configuration as the service would at start-up (a bad value stops it
 * with one line per variable) and print what it resolved to, secrets hidden: a table of plain
 * values (`(unset)` for what is not set), or `--json`.
 */
import { Command } from "@effect/cli"
import { AppConfig } from "@app/adapters"
import { Console, Effect, Option, Redacted } from "effect"
import { jsonOption, toJson } from "../Operator.js"

const HIDDEN = "<redacted>"

/** What an unset optional setting means, where it means more than "unset". */
const UNSET: Record<string, string> = {
  databaseUrl: "(unset: embedded PGlite under dataDir)",
  coreBankingUrl: "(unset: the sandbox bank, in-process)",
  notifyOutboxFile: "(unset: no outbox file)",
  oauth: "(unset: social sign-in not configured)",
  smtp: "(unset: emails go to the outbox file only)",
  sms: "(unset: SMS go to the outbox file only)",
  metricsPort: "(off)",
  otlpEndpoint: "(unset: traces are not exported)",
  adminBootstrap: "(unset)"
}

/** A configuration value as plain data: Options unwrapped (none = null), secrets hidden. */
export const plain = (value: unknown): unknown => {
  if (Redacted.isRedacted(value)) return HIDDEN
  if (Option.isOption(value)) return Option.match(value, { onNone: () => null, onSome: plain })
  if (Array.isArray(value)) return value.map(plain)
  if (typeof value === "object" && value !== null && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
  }
  return value
}

/** One row per setting, nested groups as `group.key`. */
const rows = (value: Record<string, unknown>, prefix = ""): Array<[string, string]> =>
  Object.entries(value).flatMap(([key, v]): Array<[string, string]> => {
    const name = `${prefix}${key}`
    if (v === null) return [[name, UNSET[name] ?? "(unset)"]]
    if (Array.isArray(v)) return [[name, v.length === 0 ? "(none)" : v.join(", ")]]
    if (typeof v === "object") return rows(v as Record<string, unknown>, `${name}.`)
    return [[name, String(v)]]
  })

export const checkConfig = Command.make("check-config", { json: jsonOption }, ({ json }) =>
  Effect.gen(function*() {
    const resolved = plain(yield* AppConfig) as Record<string, unknown>
    if (json) return yield* Console.log(toJson(resolved))
    // two columns, values whole (the shared table() cuts cells at 60 characters)
    const lines = rows(resolved)
    const width = Math.max(...lines.map(([name]) => name.length))
    yield* Console.log([...lines.map(([name, value]) => `${name.padEnd(width)}  ${value}`), "", "configuration valid"].join("\n"))
  })
).pipe(Command.withDescription("Validate the configuration as start-up does and print its values, secrets hidden"))
