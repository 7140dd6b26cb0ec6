/**
 * Runs a long-lived service layer as a process: a heap collected at 1.5 × its live set
 * (HeapTuning.ts), logs as JSON lines in production (written once per turn of the event loop:
 * ops/BufferedConsole.ts), prints a configuration error as one readable
 * line per bad variable, and on SIGINT/SIGTERM interrupts the layer so every finalizer (HTTP
 * server, database, scheduler) runs before the process exits.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Console, Effect, Layer, Logger, Option } from "effect"
import { describeConfigError, isConfigError } from "./AppConfig.js"
import { ProcessLockHeld } from "./concurrency/ProcessLock.js"
import { tuneHeap } from "./HeapTuning.js"
import { turnBufferedConsole } from "./ops/BufferedConsole.js"

/** The lock refusal a failure carries (as itself or as its cause, a few levels down), if any. */
const lockRefusal = (failure: unknown): ProcessLockHeld | undefined => {
  let at: unknown = failure
  for (let depth = 0; depth < 4 && typeof at === "object" && at !== null; depth++) {
    if (at instanceof ProcessLockHeld) return at
    at = (at as { readonly cause?: unknown }).cause
  }
  return undefined
}

/**
 * Prints why a process could not start: config errors as one line per variable, a data directory
 * or journal another process holds as one line naming it, others in full.
 */
export const reportStartupFailure = (cause: Cause.Cause<unknown>) => {
  if (Cause.isInterruptedOnly(cause)) return Effect.void
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const refused = lockRefusal(failure.value)
    if (refused !== undefined) return Console.error(refused.message)
  }
  return Option.isSome(failure) && isConfigError(failure.value)
    ? Console.error(`Invalid configuration:\n${describeConfigError(failure.value)}`)
    : Effect.logError("stopped on an error").pipe(Effect.annotateLogs("cause", Cause.pretty(cause)))
}

export const runService = <E>(layer: Layer.Layer<never, E, never>) => {
  // a bounded heap: a full collection at 1.5 × the live set (HeapTuning.ts)
  tuneHeap()
  return Layer.launch(layer).pipe(
    Effect.tapErrorCause(reportStartupFailure),
    Effect.provide(process.env.APP_ENV === "production" ? Logger.json : Logger.pretty),
    // the loggers write through Effect's console: one write per turn of the event loop instead
    // of one (JSON) to five (pretty) per line (ops/BufferedConsole.ts)
    Effect.withConsole(turnBufferedConsole()),
    // runMain would add its own pretty logger beside ours: production's lines must be JSON only
    NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true })
  )
}
