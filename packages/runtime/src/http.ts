/** `npm run start:http`: the HTTP API alone (production runs the scheduler as its own process). */
import { AdaptersLive, AppConfigLive } from "@app/adapters"
import { runService } from "@app/adapters/Runner"
import { MetricsLive, TracingLive } from "@app/adapters/ops/Telemetry"
import { HttpAppWithoutProvider, NodeServerLive } from "@app/http"
import { Layer } from "effect"
import { CoreBankingLive } from "./CoreBankingLive.js"

// The provider (and the in-process sandbox, its migrations…) is built BEFORE the server starts
// listening: a socket that accepts requests before the routes exist leaves them unanswered. The
// sandbox's webhook goes to PORT. Metrics on METRICS_PORT; traces to OTEL_EXPORTER_OTLP_ENDPOINT if set.
runService(
  HttpAppWithoutProvider.pipe(
    Layer.provide(NodeServerLive),
    Layer.provide(CoreBankingLive),
    // GET /metrics on METRICS_PORT and the gauge sampler
    Layer.merge(MetricsLive),
    Layer.provide(AdaptersLive),
    // the tracer first, so every layer above (and the server's requests) is traced
    Layer.provide(TracingLive("kobo-plans-http")),
    Layer.provide(AppConfigLive)
  )
)
