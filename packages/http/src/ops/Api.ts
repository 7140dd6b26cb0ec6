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
  )
  .add(
    HttpApiEndpoint.get("ready", "/ready")
      .addSuccess(success("Health", ReadinessView))
      .addError(errors(ServiceNotReady))
  )
  .annotate(OpenApi.Title, "Operations")
{}
