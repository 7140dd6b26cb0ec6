/** `npm run start:http`: the HTTP API alone (production runs the scheduler as its own process). */
import { AdaptersLive, AppConfigLive } from "@app/adapters"
import { runService } from "@app/adapters/Runner"
import { Layer } from "effect"
import { HttpServerLive } from "./Server.js"

runService(HttpServerLive.pipe(Layer.provide(AdaptersLive), Layer.provide(AppConfigLive)))
