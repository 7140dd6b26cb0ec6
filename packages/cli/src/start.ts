/**
 * `npm start`: the embedded default in one process: the HTTP API and the scheduler over one
 * database (PGlite under DATA_DIR unless DATABASE_URL is set). The sandbox core banking provider
 * joins this process with the core banking issue.
 */
import { AdaptersLive, AppConfigLive } from "@app/adapters"
import { runService } from "@app/adapters/Runner"
import { HttpServerLive } from "@app/http"
import { SchedulerLive } from "@app/scheduler"
import { Layer } from "effect"

runService(
  Layer.mergeAll(HttpServerLive, SchedulerLive).pipe(Layer.provide(AdaptersLive), Layer.provide(AppConfigLive))
)
