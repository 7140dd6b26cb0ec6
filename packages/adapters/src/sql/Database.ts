/**
 * SqlClient layers for the two supported backends: a Postgres server
 * (@effect/sql-pg / node-postgres) and embedded PGlite. Both use the same
 * name transforms and return the same JS types for the same column types.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as PgClient from "@effect/sql-pg/PgClient"
import type { ConfigError } from "effect/ConfigError"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import * as Str from "effect/String"
import { createRequire } from "node:module"
import * as PgliteClient from "./PgliteClient.js"

/**
 * A name transform that remembers its answers. The names are the columns and fields the code
 * names (a few hundred), and every row of every result has its keys renamed (38 string builds for
 * a `RETURNING *` of `transactions`), every written field too (a regular expression each).
 */
const remembered = (transform: (name: string) => string) => {
  const known = new Map<string, string>()
  return (name: string): string => {
    let renamed = known.get(name)
    if (renamed === undefined) {
      renamed = transform(name)
      known.set(name, renamed)
    }
    return renamed
  }
}

/** snake_case in SQL, camelCase in rows. */
export const names = {
  transformQueryNames: remembered(Str.camelToSnake),
  transformResultNames: remembered(Str.snakeToCamel)
} as const

type TypeParser = (value: string) => unknown

/** The part of node-postgres' `CustomTypesConfig` we use. */
interface PgTypes {
  readonly getTypeParser: (oid: number, format?: "text" | "binary") => TypeParser
}

const DATE_OID = 1082
const DATE_ARRAY_OID = 1182
const TEXT_ARRAY_OID = 1009

/**
 * node-postgres type parsers with `date` (and `date[]`) kept as plain
 * 'YYYY-MM-DD' strings instead of local-midnight Dates; everything else (int8
 * and numeric as strings, timestamps as Dates, json parsed, ...) is pg's
 * default. `pg` ships no type declarations (and @types/pg is not installed),
 * so it is loaded untyped through `require` and narrowed to `PgTypes`; it is
 * the same `pg` that @effect/sql-pg uses.
 */
const pgTypes = (): PgTypes => {
  const defaults = (createRequire(import.meta.url)("pg") as { readonly types: PgTypes }).types
  return {
    getTypeParser: (oid, format = "text") => {
      if (format === "text") {
        if (oid === DATE_OID) return (value) => value
        if (oid === DATE_ARRAY_OID) return defaults.getTypeParser(TEXT_ARRAY_OID, "text")
      }
      return defaults.getTypeParser(oid, format)
    }
  }
}

export const pgLayer = (url: Redacted.Redacted<string>): Layer.Layer<SqlClient.SqlClient, SqlError | ConfigError> =>
  PgClient.layer({
    url,
    ...names,
    types: pgTypes(),
    maxConnections: 10,
    applicationName: "kobo-plans"
  })

/** `durable`: fsync on (see PgliteClient's `durable`); off by default, as PGlite ships. */
export const pgliteLayer = (dataDir: string | undefined, options: { readonly durable?: boolean } = {}): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  PgliteClient.layer({ dataDir, durable: options.durable === true, ...names })
