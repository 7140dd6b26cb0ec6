/**
 * The operator CLI: `npm run cli -- <command>` (the commands are in Cli.ts and commands/).
 *   migrate        apply pending database migrations (PGlite under DATA_DIR, or DATABASE_URL)
 *   check-config   validate the configuration as the service would at start-up, secrets hidden
 */
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { AppConfigLive } from "@app/adapters"
import { reportStartupFailure } from "@app/adapters/Runner"
import { Effect, Layer } from "effect"
import { run } from "./Cli.js"

run(process.argv).pipe(
  Effect.provide(Layer.mergeAll(NodeContext.layer, AppConfigLive)),
  Effect.tapErrorCause(reportStartupFailure),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
