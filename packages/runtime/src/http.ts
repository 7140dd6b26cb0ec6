/** `npm run start:http`: the HTTP API alone (production runs the scheduler as its own process). */
import { AdaptersLive, AppConfigLive } from "@app/adapters"
import { runService } from "@app/adapters/Runner"
import { HttpAppWithoutProvider, NodeServerLive } from "@app/http"
import { Layer } from "effect"
import { CoreBankingLive } from "./CoreBankingLive.js"

// The provider (and the in-process sandbox, its migrations…) is built BEFORE the server starts
// listening: a socket that accepts requests before the routes exist leaves them unanswered. The
// sandbox's webhook goes to PORT.
runService(
  HttpAppWithoutProvider.pipe(
    Layer.provide(NodeServerLive),
    Layer.provide(CoreBankingLive),
    Layer.provide(AdaptersLive),
    Layer.provide(AppConfigLive)
  )
)
