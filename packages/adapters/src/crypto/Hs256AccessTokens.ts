/**
 * Access tokens: HS256 JWTs, 15 minutes, issuer and audience pinned, signed and checked with
 * node:crypto (Hs256Jwt.ts: not on libuv's thread pool, where argon2 runs). Issue and verify read
 * time from Effect's Clock, so tests move time with the TestClock.
 */
import { AccessTokens, Auth } from "@app/domain"
import { Clock, Duration, Effect, Layer, Option, Redacted } from "effect"
import { AppConfig } from "../AppConfig.js"
import { hs256Signer, hs256Verifier } from "./Hs256Jwt.js"

export const ISSUER = "kobo-plans"
export const CUSTOMER_AUDIENCE = "customer"

export const AccessTokensLive = Layer.effect(
  AccessTokens,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const secret = new TextEncoder().encode(Redacted.value(config.accessTokenSecret))
    const sign = hs256Signer(secret)
    const subjectOf = hs256Verifier(secret, { issuer: ISSUER, audience: CUSTOMER_AUDIENCE })
    const ttlSeconds = Duration.toSeconds(Auth.TokenPolicy.accessTokenTtl)
    return AccessTokens.of({
      issue: ({ accountId }) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const iat = Math.floor(now / 1000)
          return sign({ sub: accountId, iss: ISSUER, aud: CUSTOMER_AUDIENCE, iat, exp: iat + ttlSeconds })
        }),
      verify: (token) =>
        Effect.map(Clock.currentTimeMillis, (now) =>
          Option.map(Option.fromNullable(subjectOf(token, now)), (accountId) => ({ accountId })))
    })
  })
)
