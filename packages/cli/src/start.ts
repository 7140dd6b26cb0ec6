/**
 * `npm start`: the embedded default in one process: the HTTP API, the scheduler and (unless
 * CORE_BANKING_URL is set) the sandbox bank, over one database (PGlite under DATA_DIR unless
 * DATABASE_URL is set). API and scheduler share one provider, whose webhook target is the API.
 */
import { AdaptersLive, AppConfigLive } from "@app/adapters"
import { runService } from "@app/adapters/Runner"
import { HttpAppWithoutProvider, NodeServerLive } from "@app/http"
import { CoreBankingLive } from "@app/sandbox"
import { SchedulerLive } from "@app/scheduler"
import { Layer } from "effect"

runService(
  Layer.mergeAll(HttpAppWithoutProvider, SchedulerLive).pipe(
    Layer.provide(CoreBankingLive),
    Layer.provide(NodeServerLive),
    Layer.provide(AdaptersLive),
    Layer.provide(AppConfigLive)
  )
)
