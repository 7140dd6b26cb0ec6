/**
 * The HTTP server: the API with its handlers, the envelope middleware, the OpenAPI document at
 * /api/v1/openapi.json, a docs page at /docs, the admin web console at /admin (console/) and links
 * to them at / (ops/Home.ts), on
 * Node's http server. Around every request: security headers, CORS for APP_ORIGINS, the
 * REQUEST_TIMEOUT_MS limit and the MAX_BODY_BYTES limit (edge/ and ErrorMiddleware.ts).
 */
import { FileSystem, HttpApiBuilder, type HttpApp, HttpIncomingMessage, HttpMiddleware, HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { AppConfig } from "@app/adapters"
import { StaffAccess } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { Api } from "./Api.js"
import { ErrorEnvelopeMiddleware, rejectOversizedBodies } from "./ErrorMiddleware.js"
import { nodeServer } from "./edge/NodeServer.js"
import { requestTimeout } from "./edge/RequestTimeout.js"
import { aroundRequests } from "./edge/AroundRequests.js"
import { rejectNulCharacters } from "./edge/NulCharacters.js"
import { rejectUndecodablePaths } from "./edge/PercentEncoding.js"
import { withoutUnreceivedSpans } from "@app/adapters/ops/UnreceivedSpans"
import { ConsoleRoutes } from "./console/ConsoleStatic.js"
import { DocsRoutes } from "./ops/Docs.js"
import { HomeRoute } from "./ops/Home.js"
import { CustomerHandlers } from "./account/Handlers.js"
import { AuthenticationAllowingSuspendedLive, AuthenticationLive, CookieAuthenticationLive, StaffAuthenticationLive } from "./Authentication.js"
import { AdminAuthHandlers, AdminStaffHandlers } from "./admin/Handlers.js"
import { AdminAuditHandlers } from "./admin/AuditHandlers.js"
import { AdminOpsHandlers } from "./admin/OpsHandlers.js"
import { AdminLedgerHandlers } from "./admin/LedgerHandlers.js"
import { AdminOverviewHandlers } from "./admin/OverviewHandlers.js"
import { AdminSupportHandlers } from "./admin/SupportDeskHandlers.js"
import { AdminCustomersHandlers } from "./admin/CustomersHandlers.js"
import { AdminDeletionsHandlers } from "./admin/DeletionsHandlers.js"
import { AdminApprovalsHandlers } from "./admin/ApprovalsHandlers.js"
import { AdminAttentionHandlers } from "./admin/AttentionHandlers.js"
import { AuthHandlers, OAuthHandlers } from "./auth/Handlers.js"
import { BankHandlers, DepositHandlers, KycHandlers, WebhookHandlers } from "./banking/Handlers.js"
import { BeneficiaryHandlers } from "./beneficiaries/Handlers.js"
import { NotificationHandlers } from "./notifications/Handlers.js"
import { LifecycleHandlers } from "./lifecycle/Handlers.js"
import { OpsHandlers } from "./ops/Handlers.js"
import { PlanHandlers } from "./plans/Handlers.js"
import { ProfileHandlers } from "./profile/Handlers.js"
import { ReferralHandlers } from "./referrals/Handlers.js"
import { SpendingHandlers } from "./spending/Handlers.js"
import { SupportHandlers } from "./support/Handlers.js"
import { TransactionHandlers } from "./transactions/Handlers.js"
import { TransferHandlers } from "./transfers/Handlers.js"

export const ApiLive = HttpApiBuilder.api(Api).pipe(
  Layer.provide([
    AuthHandlers,
    OAuthHandlers,
    CustomerHandlers,
    NotificationHandlers,
    ReferralHandlers,
    KycHandlers,
    DepositHandlers,
    TransactionHandlers,
    TransferHandlers,
    BankHandlers,
    BeneficiaryHandlers,
    PlanHandlers,
    WebhookHandlers,
    ProfileHandlers,
    AdminAuthHandlers,
    AdminStaffHandlers,
    AdminAuditHandlers,
    AdminOpsHandlers,
    AdminLedgerHandlers,
    AdminOverviewHandlers,
    AdminSupportHandlers,
    AdminCustomersHandlers,
    AdminDeletionsHandlers,
    AdminApprovalsHandlers,
    AdminAttentionHandlers,
    SpendingHandlers,
    SupportHandlers,
    LifecycleHandlers,
    OpsHandlers
  ]),
  Layer.provide([AuthenticationLive, AuthenticationAllowingSuspendedLive, CookieAuthenticationLive, StaffAuthenticationLive])
)

/**
 * CORS for the web origins of APP_ORIGINS, with credentials (the app_token cookie); none when
 * APP_ORIGINS is unset, so browsers on other sites cannot read any answer.
 */
const corsFor = (origins: ReadonlyArray<string>) =>
  origins.length === 0
    ? <E, R>(app: HttpApp.Default<E, R>) => app
    : HttpMiddleware.cors({
      allowedOrigins: origins,
      credentials: true,
      allowedMethods: ["GET", "POST", "PATCH", "DELETE"],
      allowedHeaders: ["content-type", "authorization"],
      maxAge: 600
    })

/**
 * ADMIN_BOOTSTRAP_EMAIL/PASSWORD: while no staff member exists, they become the first superadmin
 * (before the server listens). Several processes starting at once create one: the email is unique.
 */
const StaffBootstrap = Layer.effectDiscard(
  Effect.flatMap(AppConfig, (config) =>
    Option.match(config.adminBootstrap, {
      onNone: () => Effect.void,
      onSome: ({ email, password }) =>
        StaffAccess.bootstrapSuperadmin(email, password).pipe(
          Effect.tap((created) => (created ? Effect.logInfo("first superadmin created from ADMIN_BOOTSTRAP_EMAIL") : Effect.void))
        )
    }))
)

/** Routes + middleware, served on whatever HttpServer is provided, given a core banking provider. */
export const HttpAppWithoutProvider = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    // no spans when nothing receives them (adapters' ops/UnreceivedSpans.ts)
    withoutUnreceivedSpans(HttpApiBuilder.serve((app) =>
      // correlation, security headers, request log and metrics outermost: they see every answer,
      // the edge's own included (edge/AroundRequests.ts)
      aroundRequests(config.appEnv)(
        corsFor(config.appOrigins)(
          requestTimeout(config.requestTimeoutMs)(
            rejectOversizedBodies(config.maxBodyBytes)(rejectNulCharacters(rejectUndecodablePaths(app)))
          )
        )
      )
    ).pipe(
      // the body size limit for every request, set once for the server (per request, it was
      // ~25 steps of Effect's runtime on each)
      Layer.provide(Layer.succeed(HttpIncomingMessage.MaxBodySize, Option.some(FileSystem.Size(config.maxBodyBytes))))
    )))
).pipe(
  // /docs and /api/v1/openapi.json, made at their first request (ops/Docs.ts)
  Layer.provide(DocsRoutes),
  // the admin web console's built files at /admin (console/ConsoleStatic.ts)
  Layer.provide(ConsoleRoutes),
  // GET /: links to the docs, the console and the probes (ops/Home.ts)
  Layer.provide(HomeRoute),
  Layer.provide(ErrorEnvelopeMiddleware),
  Layer.provide(ApiLive),
  Layer.provide(StaffBootstrap),
  // the router's default (100 characters) answered a longer path parameter 404 "Route not found";
  // each parameter's own schema bounds it (a 400 naming it), and Node bounds the whole URL
  Layer.provide(HttpRouter.setRouterConfig({ maxParamLength: Number.MAX_SAFE_INTEGER }))
)

/**
 * Node's HTTP server on PORT, with the headers limit for slow clients (edge/NodeServer.ts). It
 * listens before the API's handler is attached; a request accepted in between waits for it
 * (edge/EarlyRequests.ts) instead of going unanswered.
 */
export const NodeServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => NodeHttpServer.layer(() => nodeServer(), { port: config.port }))
)
