/** `npm run start:scheduler`: the scheduled jobs alone, against the configured database. */
import { AdaptersLive, AppConfigLive } from "@app/adapters"
import { runService } from "@app/adapters/Runner"
import { SchedulerLive } from "@app/scheduler"
import { Layer } from "effect"
import { CoreBankingLive } from "./CoreBankingLive.js"

runService(
  SchedulerLive.pipe(Layer.provide(CoreBankingLive), Layer.provide(AdaptersLive), Layer.provide(AppConfigLive))
)
