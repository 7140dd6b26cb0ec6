/**
 * The identity provider of social sign-in, verified with jose.
 *
 * - Signatures are checked against the provider's remote key set (JWKS), cached (10 minutes) and
 *   refetched when a token names an unknown `kid` (key rotation), at most once per
 *   `jwksRefreshCooldownMs`, so tokens with made-up kids cannot make us hammer the provider.
 * - Only asymmetric algorithms are accepted (RS256/384/512, PS256, ES256/384, EdDSA): `alg: none`
 *   and HS* (the RS/HS key-confusion attack, a public key used as an HMAC secret) are refused
 *   before any key is looked at.
 * - `iss` must be OAUTH_ISSUER, `aud` one of OAUTH_CLIENT_IDS, `exp` in the future with 60 s of
 *   skew (time from Effect's Clock); `sub` and `email` must be present.
 * - A web `code` is exchanged at OAUTH_TOKEN_URL (client_secret_post, with the first client id and
 *   OAUTH_REDIRECT_URI) and the id token it returns is verified the same way.
 */
import {
  IdentityProvider,
  IdentityProviderUnavailable,
  IdentityRejected,
  SocialSignInNotConfigured,
  Spans,
  type VerifiedIdentity
} from "@app/domain"
import { Clock, Effect, Layer, Option, Redacted } from "effect"
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from "jose"
import { AppConfig, type OAuthConfig } from "../AppConfig.js"

const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA"]
const CLOCK_SKEW_SECONDS = 60
const PROVIDER_TIMEOUT_MS = 5_000

/** jose's codes for a token that is simply not good (as opposed to a provider we cannot reach). */
const REJECTED_CODES = new Set([
  "ERR_JWT_EXPIRED",
  "ERR_JWT_CLAIM_VALIDATION_FAILED",
  "ERR_JWT_INVALID",
  "ERR_JWS_INVALID",
  "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
  "ERR_JWKS_NO_MATCHING_KEY",
  "ERR_JWKS_MULTIPLE_MATCHING_KEYS",
  "ERR_JOSE_ALG_NOT_ALLOWED",
  "ERR_JOSE_NOT_SUPPORTED"
])

const classify = (error: unknown): IdentityRejected | IdentityProviderUnavailable => {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : ""
  return REJECTED_CODES.has(code) ? new IdentityRejected({ reason: "invalid_token" }) : new IdentityProviderUnavailable()
}

const identityOf = (payload: JWTPayload): Option.Option<VerifiedIdentity> => {
  const text = (key: string) => (typeof payload[key] === "string" ? payload[key] as string : null)
  const email = text("email")
  if (typeof payload.sub !== "string" || payload.sub === "" || email === null) return Option.none()
  // some providers send the flag as the string "true"
  const verified = payload["email_verified"] === true || payload["email_verified"] === "true"
  return Option.some({ subject: payload.sub, email, emailVerified: verified, givenName: text("given_name"), familyName: text("family_name") })
}

const notConfigured = (missing: string) => Effect.fail(new SocialSignInNotConfigured({ missing }))

export const makeIdentityProvider = (config: OAuthConfig) => {
  const keys = createRemoteJWKSet(new URL(config.jwksUrl), {
    cacheMaxAge: 10 * 60_000,
    cooldownDuration: config.jwksRefreshCooldownMs,
    timeoutDuration: PROVIDER_TIMEOUT_MS
  })

  const verifyIdToken = (idToken: string) =>
    Effect.gen(function*() {
      const currentDate = new Date(yield* Clock.currentTimeMillis)
      const { payload } = yield* Effect.tryPromise({
        try: () =>
          jwtVerify(idToken, keys, {
            issuer: config.issuer,
            audience: [...config.clientIds],
            algorithms: ALGORITHMS,
            clockTolerance: CLOCK_SKEW_SECONDS,
            currentDate,
            requiredClaims: ["sub", "exp", "iat"]
          }),
        catch: classify
      })
      return yield* Option.match(identityOf(payload), {
        onNone: () => Effect.fail(new IdentityRejected({ reason: "invalid_token" })),
        onSome: Effect.succeed
      })
    }).pipe(
      Effect.tapErrorTag("IdentityProviderUnavailable", () => Effect.logWarning("identity provider key set unavailable")),
      Spans.withSpan("IdentityProvider.verifyIdToken")
    )

  const exchangeCode = (code: string) =>
    Effect.gen(function*() {
      if (Option.isNone(config.tokenUrl) || Option.isNone(config.clientSecret) || Option.isNone(config.redirectUri)) {
        return yield* notConfigured("OAUTH_TOKEN_URL, OAUTH_CLIENT_SECRET and OAUTH_REDIRECT_URI (web code exchange)")
      }
      const tokenUrl = config.tokenUrl.value
      const body = new URLSearchParams({
        grant_type: "authorization_code",
        code,
        client_id: config.clientIds[0]!,
        client_secret: Redacted.value(config.clientSecret.value),
        redirect_uri: config.redirectUri.value
      })
      const response = yield* Effect.tryPromise({
        try: (signal) =>
          fetch(tokenUrl, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
            body,
            signal: AbortSignal.any([signal, AbortSignal.timeout(PROVIDER_TIMEOUT_MS)])
          }),
        catch: () => new IdentityProviderUnavailable()
      })
      const json = yield* Effect.tryPromise({ try: () => response.json() as Promise<unknown>, catch: () => new IdentityProviderUnavailable() }).pipe(
        Effect.orElseSucceed((): unknown => null)
      )
      // the provider refusing the code (invalid_grant…) is the code's fault; anything else is the provider's
      if (response.status === 400 || response.status === 401) return yield* new IdentityRejected({ reason: "invalid_code" })
      const idToken = typeof json === "object" && json !== null && "id_token" in json ? json.id_token : undefined
      if (!response.ok || typeof idToken !== "string") {
        yield* Effect.logWarning("identity provider token endpoint failed").pipe(Effect.annotateLogs({ status: response.status }))
        return yield* new IdentityProviderUnavailable()
      }
      return yield* verifyIdToken(idToken)
    }).pipe(Spans.withSpan("IdentityProvider.exchangeCode"))

  return IdentityProvider.of({ verifyIdToken, exchangeCode })
}

/** Social sign-in as AppConfig configures it; without OAUTH_* every call is SocialSignInNotConfigured. */
export const IdentityProviderLive = Layer.effect(
  IdentityProvider,
  Effect.map(AppConfig, (config) =>
    Option.match(config.oauth, {
      onNone: () =>
        IdentityProvider.of({
          verifyIdToken: () => notConfigured("OAUTH_JWKS_URL, OAUTH_ISSUER and OAUTH_CLIENT_IDS"),
          exchangeCode: () => notConfigured("OAUTH_JWKS_URL, OAUTH_ISSUER and OAUTH_CLIENT_IDS")
        }),
      onSome: makeIdentityProvider
    }))
)
