/**
 * The sandbox bank as a listening HTTP server on 127.0.0.1 (`node:http`, see `Http.ts`) over the
 * `SandboxBank` in context; it exposes its base URL. Several servers may serve one bank (e.g. with
 * other latency or rules): they see the same accounts. `sandboxLayer` is a server with a bank of
 * its own (in memory, or journaled in a file).
 */
import { ServeError } from "@effect/platform/HttpServerError"
import { Cause, Context, Effect, Layer, Option, Runtime } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { SandboxBank, sandboxBankLayer, type SandboxBankOptions } from "./Bank.js"
import type { JournalError } from "./bank/Journal.js"
import { sandboxHandler } from "./Http.js"
import { type SandboxOptions, SandboxSettings, sandboxSettingsLayer } from "./Settings.js"

export class SandboxServer extends Context.Tag("sandbox/SandboxServer")<SandboxServer, {
  /** e.g. http://127.0.0.1:8090 (no trailing slash) */
  readonly baseUrl: string
}>() {}

/** How long a stopping server lets the requests it is answering finish (latency included) before it cuts them. */
const DRAIN_MS = 2_000

export const sandboxServerLayer = (options: SandboxOptions): Layer.Layer<SandboxServer, ServeError, SandboxBank> =>
  Layer.scoped(
    SandboxServer,
    Effect.gen(function*() {
      const state = yield* SandboxBank
      const settings = yield* SandboxSettings
      const runtime = yield* Effect.runtime<never>()
      const runFork = Runtime.runFork(runtime)
      const handler = sandboxHandler(state, settings, {
        announce: Option.isNone(options.webhook) ? () => {} : (notification) => {
          runFork(settings.announce(notification))
        },
        onError: (error) => {
          runFork(Effect.logError("sandbox: request failed", Cause.die(error)))
        }
      })
      const server = http.createServer(handler.handle)
      const port = yield* Effect.acquireRelease(
        Effect.async<number, ServeError>((resume) => {
          const onError = (cause: Error) => resume(Effect.fail(new ServeError({ cause })))
          server.once("error", onError)
          server.listen(options.port, "127.0.0.1", () => {
            server.off("error", onError)
            resume(Effect.succeed((server.address() as AddressInfo).port))
          })
        }),
        () =>
          Effect.async<void>((resume) => {
            // no new connections; idle keep-alive ones go now, busy ones after their answer
            server.close(() => resume(Effect.void))
            server.closeIdleConnections()
            // a 0004 answer is held for seconds: it is not waited for (a requery tells its outcome)
            handler.dropHeld("slow")
            const deadline = Date.now() + DRAIN_MS
            const drain = setInterval(() => {
              server.closeIdleConnections()
              if (handler.inFlight() > 0 && Date.now() < deadline) return
              clearInterval(drain)
              handler.dropHeld("all")
              server.closeAllConnections()
            }, 10)
          })
      )
      return { baseUrl: `http://127.0.0.1:${port}` }
    })
  ).pipe(Layer.provide(sandboxSettingsLayer(options)))

/** A sandbox server with a bank of its own: in memory, or journaled in `journal` (see `sandboxBankLayer`). */
export const sandboxLayer = (
  options: SandboxOptions & SandboxBankOptions
): Layer.Layer<SandboxServer | SandboxBank, ServeError | JournalError> =>
  sandboxServerLayer(options).pipe(Layer.provideMerge(sandboxBankLayer(options)))
