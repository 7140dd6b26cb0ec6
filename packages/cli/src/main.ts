/**
 * The operator CLI: `npm run cli -- <command>` (the commands are in Cli.ts and commands/; every one
 * has `--help`, laid out in 100 columns: Help.ts). Exit codes: 0 done, 1 failed, 2 usage (bad
 * arguments, a malformed id, no operator), 3 not found, 4 refused (permission or state), 5 busy
 * (another process holds the embedded sandbox bank); see Operator.ts. An expected failure prints
 * one line, `error: …`, never a stack trace.
 */
import { ValidationError } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { AppConfigLive } from "@app/adapters"
import { reportStartupFailure } from "@app/adapters/Runner"
import { Cause, Console, Effect, Layer, Logger, LogLevel, Option } from "effect"
import { run } from "./Cli.js"
import { withFittedHelp } from "./Help.js"

const exitWith = (code: number, line: string) =>
  Console.error(`error: ${line}`).pipe(Effect.zipRight(Effect.sync(() => (process.exitCode = code))))

const wantsHelp = process.argv.slice(2).some((arg) => arg === "--help" || arg === "-h")

run(process.argv).pipe(
  (program) => (wantsHelp ? withFittedHelp(program) : program),
  Effect.provide(Layer.mergeAll(NodeContext.layer, AppConfigLive)),
  // the service's own info logs (migrations, sandbox start) would drown the command's output
  Logger.withMinimumLogLevel(LogLevel.Warning),
  Effect.catchAllCause((cause) => {
    const failure = Cause.failureOption(cause)
    if (Option.isSome(failure) && typeof failure.value === "object" && failure.value !== null && "_tag" in failure.value) {
      const error = failure.value as { readonly _tag: string; readonly exitCode?: number; readonly message?: string }
      if (error._tag === "CliFailure") return exitWith(error.exitCode ?? 1, error.message ?? "failed")
      // the embedded sandbox bank's journal is held by another process (`npm start`, another command)
      if (error._tag === "JournalError") return exitWith(5, error.message ?? "the sandbox bank is in use by another process")
      // @effect/cli has printed the usage problem already
      if (ValidationError.isValidationError(failure.value)) return Effect.sync(() => (process.exitCode = 2))
    }
    return reportStartupFailure(cause).pipe(Effect.zipRight(Effect.sync(() => (process.exitCode = 1))))
  }),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
