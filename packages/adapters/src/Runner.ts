/**
 * Runs a long-lived service layer as a process: logs as JSON lines in production, prints a
 * configuration error as one readable line per bad variable, and on SIGINT/SIGTERM interrupts the
 * layer so every finalizer (HTTP server, database, scheduler) runs before the process exits.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Console, Effect, Layer, Logger, Option } from "effect"
import { describeConfigError, isConfigError } from "./AppConfig.js"

export const runService = <E>(layer: Layer.Layer<never, E, never>) =>
  Layer.launch(layer).pipe(
    Effect.tapErrorCause((cause) => {
      const failure = Cause.failureOption(cause)
      return Option.isSome(failure) && isConfigError(failure.value)
        ? Console.error(`Invalid configuration:\n${describeConfigError(failure.value)}`)
        : Effect.void
    }),
    Effect.provide(process.env.APP_ENV === "production" ? Logger.json : Logger.pretty),
    NodeRuntime.runMain({ disableErrorReporting: false })
  )
