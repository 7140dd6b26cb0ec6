/**
 * `npm start`: the embedded default in one process: the HTTP API, the scheduler and (unless
 * CORE_BANKING_URL is set) the sandbox bank, over one database (PGlite under DATA_DIR unless
 * DATABASE_URL is set). API and scheduler share one provider, whose webhook target is the API.
 */
import { AdaptersLive, AppConfigLive } from "@app/adapters"
import { runService } from "@app/adapters/Runner"
import { MetricsLive, TracingLive } from "@app/adapters/ops/Telemetry"
import { HttpAppWithoutProvider, NodeServerLive } from "@app/http"
import { CoreBankingLive } from "./CoreBankingLive.js"
import { SchedulerLive } from "@app/scheduler"
import { Layer } from "effect"

// The provider is built first and the server listens last: a socket that accepts requests before
// the routes exist leaves them unanswered. The sandbox's webhook goes to PORT.
runService(
  Layer.mergeAll(HttpAppWithoutProvider.pipe(Layer.provide(NodeServerLive)), SchedulerLive).pipe(
    Layer.provide(CoreBankingLive),
    // one metrics endpoint (METRICS_PORT) for the API and the scheduler of this process
    Layer.merge(MetricsLive),
    Layer.provide(AdaptersLive),
    Layer.provide(TracingLive("kobo-plans")),
    Layer.provide(AppConfigLive)
  )
)
