/**
 * The HTTP server: the API with its handlers, the envelope middleware, the OpenAPI document at
 * /api/v1/openapi.json and a docs page at /docs, on Node's http server.
 */
import { FileSystem, HttpApiBuilder, HttpApiSwagger, type HttpApp, HttpIncomingMessage, HttpMiddleware } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { AppConfig } from "@app/adapters"
import { Effect, Layer, Option } from "effect"
import { createServer } from "node:http"
import { Api } from "./Api.js"
import { ErrorEnvelopeMiddleware, rejectOversizedBodies } from "./ErrorMiddleware.js"
import { CustomerHandlers } from "./account/Handlers.js"
import { AuthenticationLive, CookieAuthenticationLive } from "./Authentication.js"
import { AuthHandlers, OAuthHandlers } from "./auth/Handlers.js"
import { BankHandlers, DepositHandlers, KycHandlers, WebhookHandlers } from "./banking/Handlers.js"
import { BeneficiaryHandlers } from "./beneficiaries/Handlers.js"
import { NotificationHandlers } from "./notifications/Handlers.js"
import { PlanHandlers } from "./plans/Handlers.js"
import { ProfileHandlers } from "./profile/Handlers.js"
import { ReferralHandlers } from "./referrals/Handlers.js"
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
    ProfileHandlers
  ]),
  Layer.provide([AuthenticationLive, CookieAuthenticationLive])
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

/** Routes + middleware, served on whatever HttpServer is provided, given a core banking provider. */
export const HttpAppWithoutProvider = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    HttpApiBuilder.serve((app) =>
      HttpMiddleware.logger(
        corsFor(config.appOrigins)(
          rejectOversizedBodies(config.maxBodyBytes)(
            HttpIncomingMessage.withMaxBodySize(app, Option.some(FileSystem.Size(config.maxBodyBytes)))
          )
        )
      )
    ))
).pipe(
  Layer.provide(HttpApiSwagger.layer({ path: "/docs" })),
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/api/v1/openapi.json" })),
  Layer.provide(ErrorEnvelopeMiddleware),
  Layer.provide(ApiLive)
)

/** Node's HTTP server on PORT. */
export const NodeServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => NodeHttpServer.layer(createServer, { port: config.port }))
)
