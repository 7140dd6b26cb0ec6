/**
 * The sandbox bank as a listening HTTP server on 127.0.0.1 over whatever SqlClient it is given:
 * its migrations run first (own history table), then it serves `sandboxApp` and exposes its base URL.
 */
import { HttpServer } from "@effect/platform"
import type { ServeError } from "@effect/platform/HttpServerError"
import { NodeHttpServer } from "@effect/platform-node"
import type { MigrationError } from "@effect/sql/Migrator"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Context, Effect, Layer } from "effect"
import { createServer } from "node:http"
import { sandboxApp } from "./Http.js"
import { runSandboxMigrations } from "./Migrations.js"
import { type SandboxOptions, sandboxSettingsLayer } from "./Settings.js"

export class SandboxServer extends Context.Tag("sandbox/SandboxServer")<SandboxServer, {
  /** e.g. http://127.0.0.1:8090 (no trailing slash) */
  readonly baseUrl: string
}>() {}

/** Applies the sandbox's migrations (table `sandbox_migrations`) when built. */
export const SandboxMigrationsLive: Layer.Layer<never, MigrationError | SqlError, SqlClient.SqlClient> = Layer
  .effectDiscard(runSandboxMigrations)

export const sandboxServerLayer = (
  options: SandboxOptions
): Layer.Layer<SandboxServer, ServeError | MigrationError | SqlError, SqlClient.SqlClient> =>
  Layer.mergeAll(
    HttpServer.serve(sandboxApp),
    Layer.effect(
      SandboxServer,
      HttpServer.addressWith((address) =>
        address._tag === "TcpAddress"
          ? Effect.succeed({ baseUrl: `http://127.0.0.1:${address.port}` })
          : Effect.dieMessage("sandbox: expected a TCP address")
      )
    )
  ).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port: options.port, host: "127.0.0.1" })),
    Layer.provide(sandboxSettingsLayer(options)),
    Layer.provide(SandboxMigrationsLive)
  )
