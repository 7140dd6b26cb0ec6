import * as SqlClient from "@effect/sql/SqlClient"
import { Settings } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { orDieDb } from "../sql/SqlSupport.js"

/** App settings as JSON values by key (bigints are stored as decimal strings). */
export const SettingsStoreSql = Layer.effect(
  Settings.SettingsStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    Settings.SettingsStore.of({
      get: (key) =>
        sql<{ value: unknown }>`SELECT value FROM app_settings WHERE key = ${key}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]).pipe(Option.map((r) => r.value))),
          orDieDb
        ),
      set: (key, value, now) => {
        const json = JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v))
        return orDieDb(sql`
          INSERT INTO app_settings (key, value, updated_at) VALUES (${key}, ${json}::jsonb, ${now})
          ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`)
      }
    }))
)
