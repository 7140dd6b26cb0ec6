/**
 * What the runnables share about starting fast and saying so:
 * - `startupMs`: milliseconds since this process started (Node's `performance.timeOrigin`);
 * - `logListening`: once the API serves requests, one log line with its address and `startupMs`;
 * - `PgliteTemplateLive`: an empty PGlite data directory starts as a copy of the database the build
 *   made (initdb and the migrations; TemplateCopy.ts), instead of PGlite running initdb and the
 *   migrations running on a new database in the process (most of a fresh start-up).
 */
import { HttpServer } from "@effect/platform"
import { AppConfig } from "@app/adapters"
import { Context, Duration, Effect, Layer, Option } from "effect"
import * as path from "node:path"
import { seedFromTemplate } from "./TemplateCopy.js"

/** Milliseconds since this process started. */
export const startupMs = (): number => Math.round(performance.now())

/**
 * `server` (the API with its HttpServer provided and kept in the output), then one line saying
 * where it listens and how long after the process started: "API listening on http://…, started in N ms".
 */
export const logListening = <E, R>(server: Layer.Layer<HttpServer.HttpServer, E, R>) =>
  Layer.tap(server, (context) => {
    const address = HttpServer.formatAddress(Context.get(context, HttpServer.HttpServer).address)
    const ms = startupMs()
    return Effect.logInfo(`API listening on ${address}, started in ${ms} ms`).pipe(Effect.annotateLogs({ startupMs: ms }))
  })

/** The runnable is ready (no HTTP server): one line with `startupMs`. */
export const logStarted = <A, E, R>(name: string, layer: Layer.Layer<A, E, R>) =>
  Layer.tap(layer, () => {
    const ms = startupMs()
    return Effect.logInfo(`${name} started in ${ms} ms`).pipe(Effect.annotateLogs({ startupMs: ms }))
  })

/**
 * Without DATABASE_URL, an empty DATA_DIR/pglite (the directory SqlClientLive opens, see
 * @app/adapters Live.ts) starts as a copy of the build's template database (TemplateCopy.ts).
 * MigrationsLive still runs after it, finding nothing to do (or only what is newer than the
 * template). Provide it to AdaptersLive, which is then built after it.
 */
export const PgliteTemplateLive = Layer.effectDiscard(
  Effect.flatMap(AppConfig, (config) => {
    if (Option.isSome(config.databaseUrl)) return Effect.void
    const target = path.join(config.dataDir, "pglite")
    return Effect.promise(() => seedFromTemplate(target)).pipe(
      Effect.timed,
      Effect.flatMap(([elapsed, seeded]) =>
        seeded
          ? Effect.logInfo(`new database ${target} from the build's template`).pipe(
            Effect.annotateLogs({ waitedMs: Math.round(Duration.toMillis(elapsed)) })
          )
          : Effect.void
      )
    )
  })
)
