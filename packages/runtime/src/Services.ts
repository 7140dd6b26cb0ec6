/**
 * The runnables' layers: start.ts, http.ts and scheduler.ts load this module (and with it the
 * whole service) once they have begun copying a new database's files (TemplateCopy.ts).
 */
import { AdaptersLive, AppConfigLive } from "@app/adapters"
import { runService } from "@app/adapters/Runner"
import { HttpAppWithoutProvider, NodeServerLive } from "@app/http"
import { SchedulerLive } from "@app/scheduler"
import { Layer } from "effect"
import { CoreBankingLive } from "./CoreBankingLive.js"
import { logListening, logStarted, PgliteTemplateLive } from "./Startup.js"
import { MetricsLive, TracingLive } from "./Telemetry.js"

/** The adapters over a migrated database; a new embedded one starts from the build's template (Startup.ts). */
const Adapters = AdaptersLive.pipe(Layer.provide(PgliteTemplateLive))

/**
 * What each runnable stands on: the provider (with the in-process sandbox, unless
 * CORE_BANKING_URL is set), GET /metrics on this process's METRICS_PORT and the gauge sampler, the
 * adapters, the tracer (first, so every layer above, and the server's requests, is traced as
 * `serviceName`) and the configuration.
 */
const onPlatform = (serviceName: string) => <A, E, R>(layer: Layer.Layer<A, E, R>) =>
  layer.pipe(
    Layer.provide(CoreBankingLive),
    Layer.merge(MetricsLive),
    Layer.provide(Adapters),
    Layer.provide(TracingLive(serviceName)),
    Layer.provide(AppConfigLive)
  )

/** The API on PORT, then "API listening on …, started in N ms". */
const Api = logListening(HttpAppWithoutProvider.pipe(Layer.provideMerge(NodeServerLive)))

/**
 * `npm start`: the embedded default in one process: the HTTP API, the scheduler and (unless
 * CORE_BANKING_URL is set) the sandbox bank, over one database (PGlite under DATA_DIR unless
 * DATABASE_URL is set). API and scheduler share one provider, whose webhook target is the API.
 * The provider is built first and the server listens last: a socket that accepts requests before
 * the routes exist leaves them unanswered. The sandbox's webhook goes to PORT. The scheduler starts
 * when the API serves.
 */
export const runStart = () =>
  runService(
    // the scheduler once the API serves: its first runs (every job at once, on PGlite's one
    // connection and this one thread) would otherwise hold up the API's start; one metrics
    // endpoint (METRICS_PORT) for the API and the scheduler of this process
    SchedulerLive.pipe(Layer.provide(Api), onPlatform("kobo-plans"))
  )

/**
 * `npm run start:http`: the HTTP API alone (production runs the scheduler as its own process).
 * The provider (and the in-process sandbox…) is built BEFORE the server starts listening: a socket
 * that accepts requests before the routes exist leaves them unanswered. The sandbox's webhook goes
 * to PORT. Metrics on METRICS_PORT; traces to OTEL_EXPORTER_OTLP_ENDPOINT if set.
 */
export const runHttp = () => runService(Api.pipe(onPlatform("kobo-plans-http")))

/** `npm run start:scheduler`: the scheduled jobs alone, against the configured database. */
export const runScheduler = () =>
  runService(
    // its metrics: job runs, provider calls, payouts, gauges
    logStarted("scheduler", SchedulerLive).pipe(onPlatform("kobo-plans-scheduler"))
  )
