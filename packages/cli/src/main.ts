/**
 * The operator CLI: `npm run cli -- <command>`.
 *   migrate        apply pending database migrations (PGlite under DATA_DIR, or DATABASE_URL)
 *   check-config   validate the configuration as the service would at start-up, secrets hidden
 */
import { Command } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { AppConfig, AppConfigLive, runMigrations, SqlClientLive } from "@app/adapters"
import { reportStartupFailure } from "@app/adapters/Runner"
import { Console, Effect, Layer, Option, Redacted } from "effect"

const migrate = Command.make("migrate", {}, () =>
  Effect.gen(function*() {
    const applied = yield* runMigrations
    yield* Console.log(
      applied.length === 0
        ? "Database schema is up to date."
        : `Applied ${applied.length} migration(s): ${applied.map(([id, name]) => `${id}_${name}`).join(", ")}`
    )
  }).pipe(Effect.provide(SqlClientLive))
).pipe(Command.withDescription("Apply pending database migrations"))

const checkConfig = Command.make("check-config", {}, () =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const shown = {
      ...config,
      databaseUrl: Option.match(config.databaseUrl, { onNone: () => "(unset: embedded PGlite)", onSome: () => "(set)" }),
      notifyOutboxFile: Option.getOrElse(config.notifyOutboxFile, () => "(unset)"),
      accessTokenSecret: Redacted.make("").toString(),
      secretHashKey: Redacted.make("").toString()
    }
    yield* Console.log(JSON.stringify(shown, null, 2))
  })
).pipe(Command.withDescription("Validate the configuration and print it with secrets hidden"))

const cli = Command.make("kobo-plans").pipe(
  Command.withDescription("Operator commands of the savings and disbursement service"),
  Command.withSubcommands([migrate, checkConfig])
)

const run = Command.run(cli, { name: "kobo-plans", version: "0.1.0" })

run(process.argv).pipe(
  Effect.provide(Layer.mergeAll(NodeContext.layer, AppConfigLive)),
  Effect.tapErrorCause(reportStartupFailure),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
