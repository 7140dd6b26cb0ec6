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
    // connection and this one thread) would otherwise hold up the API's start
    SchedulerLive.pipe(
      Layer.provide(Api),
      Layer.provide(CoreBankingLive),
      // one metrics endpoint (METRICS_PORT) for the API and the scheduler of this process
      Layer.merge(MetricsLive),
      Layer.provide(Adapters),
      Layer.provide(TracingLive("kobo-plans")),
      Layer.provide(AppConfigLive)
    )
  )

/**
 * `npm run start:http`: the HTTP API alone (production runs the scheduler as its own process).
 * The provider (and the in-process sandbox…) is built BEFORE the server starts listening: a socket
 * that accepts requests before the routes exist leaves them unanswered. The sandbox's webhook goes
 * to PORT. Metrics on METRICS_PORT; traces to OTEL_EXPORTER_OTLP_ENDPOINT if set.
 */
export const runHttp = () =>
  runService(
    Api.pipe(
      Layer.provide(CoreBankingLive),
      // GET /metrics on METRICS_PORT and the gauge sampler
      Layer.merge(MetricsLive),
      Layer.provide(Adapters),
      // the tracer first, so every layer above (and the server's requests) is traced
      Layer.provide(TracingLive("kobo-plans-http")),
      Layer.provide(AppConfigLive)
    )
  )

/** `npm run start:scheduler`: the scheduled jobs alone, against the configured database. */
export const runScheduler = () =>
  runService(
    logStarted("scheduler", SchedulerLive).pipe(
      Layer.provide(CoreBankingLive),
      // GET /metrics on this process's METRICS_PORT (job runs, provider calls, payouts, gauges)
      Layer.merge(MetricsLive),
      Layer.provide(Adapters),
      Layer.provide(TracingLive("kobo-plans-scheduler")),
      Layer.provide(AppConfigLive)
    )
  )
