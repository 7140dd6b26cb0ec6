/**
 * Staff tokens: HS256 JWTs, 8 hours, audience "staff", signed with a key derived from
 * ACCESS_TOKEN_SECRET for this purpose alone. A customer token (audience "customer", the secret
 * itself as key) fails both the audience and the signature check here, and a staff token fails
 * them in Hs256AccessTokens: neither is accepted where the other is expected. Signed and checked
 * with node:crypto, as access tokens are (Hs256Jwt.ts).
 */
import { StaffAccess, StaffTokens } from "@app/domain"
import { Clock, Duration, Effect, Layer, Option, Redacted } from "effect"
import { createHmac } from "node:crypto"
import { AppConfig } from "../AppConfig.js"
import { hs256Signer, hs256Verifier } from "./Hs256Jwt.js"
import { ISSUER } from "./Hs256AccessTokens.js"

export const STAFF_AUDIENCE = "staff"

export const StaffTokensLive = Layer.effect(
  StaffTokens,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const secret = createHmac("sha256", Redacted.value(config.accessTokenSecret)).update("staff-token-key").digest()
    const sign = hs256Signer(secret)
    const subjectOf = hs256Verifier(secret, { issuer: ISSUER, audience: STAFF_AUDIENCE })
    const ttlSeconds = Duration.toSeconds(StaffAccess.StaffPolicy.tokenTtl)
    return StaffTokens.of({
      issue: (staffId) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const iat = Math.floor(now / 1000)
          return {
            token: sign({ sub: staffId, iss: ISSUER, aud: STAFF_AUDIENCE, iat, exp: iat + ttlSeconds }),
            expiresAt: new Date((iat + ttlSeconds) * 1000)
          }
        }),
      verify: (token) =>
        Effect.map(Clock.currentTimeMillis, (now) =>
          Option.map(Option.fromNullable(subjectOf(token, now)), (staffId) => ({ staffId })))
    })
  })
)
