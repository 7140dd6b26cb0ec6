/** `check-config`: validate the configuration as the service would at start-up, secrets hidden. */
import { Command } from "@effect/cli"
import { AppConfig } from "@app/adapters"
import { Console, Effect, Option, Redacted } from "effect"

export const checkConfig = Command.make("check-config", {}, () =>
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
