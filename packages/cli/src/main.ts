/**
 * The operator CLI: `npm run cli -- <command>` (the commands are in Cli.ts and commands/; every one
 * has `--help`). Exit codes: 0 done, 1 failed, 2 usage (bad arguments, no operator), 3 not found,
 * 4 refused (permission or state); see Operator.ts.
 */
import { ValidationError } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { AppConfigLive } from "@app/adapters"
import { reportStartupFailure } from "@app/adapters/Runner"
import { Cause, Console, Effect, Layer, Logger, LogLevel, Option } from "effect"
import { run } from "./Cli.js"

run(process.argv).pipe(
  Effect.provide(Layer.mergeAll(NodeContext.layer, AppConfigLive)),
  // the service's own info logs (migrations, sandbox start) would drown the command's output
  Logger.withMinimumLogLevel(LogLevel.Warning),
  Effect.catchAllCause((cause) => {
    const failure = Cause.failureOption(cause)
    if (Option.isSome(failure) && typeof failure.value === "object" && failure.value !== null && "_tag" in failure.value) {
      const error = failure.value as { readonly _tag: string; readonly exitCode?: number; readonly message?: string }
      if (error._tag === "CliFailure") {
        return Console.error(`error: ${error.message}`).pipe(Effect.zipRight(Effect.sync(() => (process.exitCode = error.exitCode ?? 1))))
      }
      // @effect/cli has printed the usage problem and the help already
      if (ValidationError.isValidationError(failure.value)) return Effect.sync(() => (process.exitCode = 2))
    }
    return reportStartupFailure(cause).pipe(Effect.zipRight(Effect.sync(() => (process.exitCode = 1))))
  }),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
