/**
 * Access tokens: HS256 JWTs signed with jose, 15 minutes, issuer and audience pinned. Issue and
 * verify read time from Effect's Clock, so tests move time with the TestClock.
 */
import { AccessTokens, Auth } from "@app/domain"
import { Clock, Duration, Effect, Layer, Option, Redacted } from "effect"
import { jwtVerify, SignJWT } from "jose"
import { AppConfig } from "../AppConfig.js"
import { importHs256Key } from "./HmacKey.js"

export const ISSUER = "kobo-plans"
export const CUSTOMER_AUDIENCE = "customer"

export const AccessTokensLive = Layer.effect(
  AccessTokens,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const key = yield* importHs256Key(new TextEncoder().encode(Redacted.value(config.accessTokenSecret)))
    const ttlSeconds = Duration.toSeconds(Auth.TokenPolicy.accessTokenTtl)
    return AccessTokens.of({
      issue: ({ accountId }) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const iat = Math.floor(now / 1000)
          return Effect.promise(() =>
            new SignJWT({})
              .setProtectedHeader({ alg: "HS256", typ: "JWT" })
              .setSubject(accountId)
              .setIssuer(ISSUER)
              .setAudience(CUSTOMER_AUDIENCE)
              .setIssuedAt(iat)
              .setExpirationTime(iat + ttlSeconds)
              .sign(key)
          )
        }),
      verify: (token) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.tryPromise(() =>
            jwtVerify(token, key, {
              issuer: ISSUER,
              audience: CUSTOMER_AUDIENCE,
              algorithms: ["HS256"],
              currentDate: new Date(now),
              clockTolerance: 0
            })
          ).pipe(
            Effect.map(({ payload }) =>
              typeof payload.sub === "string" ? Option.some({ accountId: payload.sub }) : Option.none()
            ),
            Effect.orElseSucceed(() => Option.none())
          ))
    })
  })
)
