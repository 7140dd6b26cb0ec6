/** `migrate`: apply pending database migrations (PGlite under DATA_DIR, or DATABASE_URL). */
import { Command } from "@effect/cli"
import { runMigrations, SqlClientLive } from "@app/adapters"
import { Console, Effect } from "effect"

export const migrate = Command.make("migrate", {}, () =>
  Effect.gen(function*() {
    const applied = yield* runMigrations
    yield* Console.log(
      applied.length === 0
        ? "Database schema is up to date."
        : `Applied ${applied.length} migration(s): ${applied.map(([id, name]) => `${id}_${name}`).join(", ")}`
    )
  }).pipe(Effect.provide(SqlClientLive))
).pipe(Command.withDescription("Apply pending database migrations"))
