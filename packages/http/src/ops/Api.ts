/**
 * The operations endpoints, for load balancers and orchestrators: no authentication, no /api/v1
 * prefix. GET /health says the process serves requests (liveness: always 200 while it does);
 * GET /ready says it can do its work (readiness: database, migrations, provider), 200 or 503.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errors, success } from "../shared/Envelope.js"
import { ServiceNotReady } from "./Errors.js"
import { HealthView, ReadinessView } from "./Views.js"

export class OpsApi extends HttpApiGroup.make("ops")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(success("Health", HealthView))
      .annotate(OpenApi.Summary, "Check liveness")
      .annotate(OpenApi.Description, "Liveness: 200 {status: \"up\"} whenever the process serves requests. Checks nothing else.")
  )
  .add(
    HttpApiEndpoint.get("ready", "/ready")
      .addSuccess(success("Health", ReadinessView))
      .addError(errors(ServiceNotReady))
      .annotate(OpenApi.Summary, "Check readiness")
      .annotate(
        OpenApi.Description,
        "Readiness: the database answers, every known migration is applied, and the core banking provider answers its " +
          "bank list within a short time limit (that answer is reused for 5 seconds). 200 when all hold; otherwise 503 " +
          "SERVICE_NOT_READY with `error.checks` (each \"ok\" or the reason) and `error.failed`."
      )
  )
  .annotate(OpenApi.Title, "Operations")
{}
