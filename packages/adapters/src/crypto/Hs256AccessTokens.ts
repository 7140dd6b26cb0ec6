/**
 * Access tokens: HS256 JWTs, 15 minutes, issuer and audience pinned, signed and checked with
 * node:crypto (Hs256Jwt.ts: not on libuv's thread pool, where argon2 runs). Issue and verify read
 * time from Effect's Clock, so tests move time with the TestClock.
 */
import { AccessTokens, AccountId, Auth } from "@app/domain"
import { Clock, Duration, Effect, Layer, Option, Redacted } from "effect"
import { AppConfig } from "../AppConfig.js"
import { hs256Tokens } from "./Hs256Jwt.js"

export const ISSUER = "kobo-plans"
export const CUSTOMER_AUDIENCE = "customer"

export const AccessTokensLive = Layer.effect(
  AccessTokens,
  Effect.map(AppConfig, (config) => {
    const tokens = hs256Tokens(new TextEncoder().encode(Redacted.value(config.accessTokenSecret)), {
      issuer: ISSUER,
      audience: CUSTOMER_AUDIENCE,
      ttlSeconds: Duration.toSeconds(Auth.TokenPolicy.accessTokenTtl)
    })
    return AccessTokens.of({
      issue: ({ accountId, sessionVersion }) => Effect.map(Clock.currentTimeMillis, (now) => tokens.issue(accountId, now, sessionVersion).token),
      verify: (token) =>
        Effect.map(Clock.currentTimeMillis, (now) =>
          Option.map(Option.fromNullable(tokens.claimsOf(token, now)), (c) => ({ accountId: AccountId.make(c.subject), sessionVersion: c.version })))
    })
  })
)
