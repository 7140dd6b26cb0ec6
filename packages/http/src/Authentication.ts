import { HttpServerRequest } from "@effect/platform"
import { AccessTokens, AccountRepo, Auth } from "@app/domain"
import { Effect, Layer, Redacted } from "effect"
import { toHttpFailure } from "./DomainErrors.js"
import { apiObjectForUrl } from "./ErrorMiddleware.js"
import { Authentication } from "./shared/Security.js"

/** Bearer tokens: a missing, expired or invalid token is 401; a suspended customer is 403. */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const context = yield* Effect.context<AccessTokens | AccountRepo>()
    return Authentication.of({
      bearer: (token) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          return yield* Auth.authenticate(Redacted.value(token)).pipe(
            Effect.mapError(toHttpFailure(apiObjectForUrl(request.url)))
          )
        }).pipe(Effect.provide(context))
    })
  })
)
