/**
 * Staff tokens: HS256 JWTs, 8 hours, audience "staff", signed with a key derived from
 * ACCESS_TOKEN_SECRET for this purpose alone. A customer token (audience "customer", the secret
 * itself as key) fails both the audience and the signature check here, and a staff token fails
 * them in Hs256AccessTokens: neither is accepted where the other is expected. Signed and checked
 * with node:crypto, as access tokens are (Hs256Jwt.ts).
 */
import { StaffAccess, StaffId, StaffTokens } from "@app/domain"
import { Clock, Duration, Effect, Layer, Option, Redacted } from "effect"
import { createHmac } from "node:crypto"
import { AppConfig } from "../AppConfig.js"
import { hs256Tokens } from "./Hs256Jwt.js"
import { ISSUER } from "./Hs256AccessTokens.js"

export const STAFF_AUDIENCE = "staff"

export const StaffTokensLive = Layer.effect(
  StaffTokens,
  Effect.map(AppConfig, (config) => {
    const key = createHmac("sha256", Redacted.value(config.accessTokenSecret)).update("staff-token-key").digest()
    const tokens = hs256Tokens(key, { issuer: ISSUER, audience: STAFF_AUDIENCE, ttlSeconds: Duration.toSeconds(StaffAccess.StaffPolicy.tokenTtl) })
    return StaffTokens.of({
      issue: (staffId, tokenVersion) => Effect.map(Clock.currentTimeMillis, (now) => tokens.issue(staffId, now, tokenVersion)),
      verify: (token) =>
        Effect.map(Clock.currentTimeMillis, (now) =>
          Option.map(Option.fromNullable(tokens.claimsOf(token, now)), (c) => ({ staffId: StaffId.make(c.subject), tokenVersion: c.version })))
    })
  })
)
