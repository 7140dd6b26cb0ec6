/** `npm run start:scheduler`: the scheduled jobs alone, against the configured database. */
import { AdaptersLive, AppConfigLive } from "@app/adapters"
import { runService } from "@app/adapters/Runner"
import { MetricsLive, TracingLive } from "@app/adapters/ops/Telemetry"
import { SchedulerLive } from "@app/scheduler"
import { Layer } from "effect"
import { CoreBankingLive } from "./CoreBankingLive.js"

runService(
  SchedulerLive.pipe(
    Layer.provide(CoreBankingLive),
    // GET /metrics on this process's METRICS_PORT (job runs, provider calls, payouts, gauges)
    Layer.merge(MetricsLive),
    Layer.provide(AdaptersLive),
    Layer.provide(TracingLive("kobo-plans-scheduler")),
    Layer.provide(AppConfigLive)
  )
)
