/**
 * Our own HS256 JWTs (access and staff tokens: Hs256AccessTokens.ts, Hs256StaffTokens.ts), signed
 * and checked with node:crypto, synchronously.
 *
 * Why not jose's `SignJWT` and `jwtVerify`: jose 6 works on WebCrypto, and Node runs WebCrypto's
 * HMAC as a job on libuv's thread pool, the pool argon2 hashes passwords on. While eight customers
 * signed in, every authenticated request queued its token check behind ~100 ms argon2 jobs (GET
 * /customers/me at 4 connections: p50 61 to 64 ms against 26 to 35 ms with this check; README,
 * Benchmarks, round 11), and a token refresh its signature. A check also cost ~88 µs of CPU
 * against ~9 µs here. jose stays for the identity providers' tokens (JoseIdentityProvider.ts).
 *
 * Signing: the header `{"alg":"HS256","typ":"JWT"}` and the claims as given, each JSON in
 * base64url, and the HMAC-SHA256 of the two under the key: the token jose's SignJWT makes for the
 * same claims set in the same order (Hs256Jwt.test.ts compares them byte for byte).
 *
 * The checks are jose's for the options we gave it (`algorithms: ["HS256"]`, issuer, audience,
 * `clockTolerance: 0`), each refused token refused for the same reason:
 * - three base64url segments, the header and the payload JSON objects;
 * - the header's `alg` exactly "HS256"; a `crit` header (an extension we do not implement) refused;
 * - the HMAC-SHA256 of `header.payload` under the key equal to the signature, compared in constant
 *   time;
 * - `iss` equal to the issuer; `aud` the audience, or an array holding it;
 * - `exp` a number later than now (a token is expired at its `exp` second); `nbf`, when present, a
 *   number not after now; `iat`, when present, a number. One check is stricter than jose's: `exp`
 *   is required (jose lets a token without one through; ours always have one);
 * - `sub` a string (the account or staff id).
 */
import { createHmac, timingSafeEqual } from "node:crypto"

/** What a kind of token (access, staff) pins: who issues it and for whom. */
export interface Hs256Kind {
  readonly issuer: string
  readonly audience: string
}

const BASE64URL = /^[A-Za-z0-9_-]*$/

const HEADER = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url")

/** A signer of tokens with `key`: the compact JWT of `claims` (serialized in their order). */
export const hs256Signer = (key: Uint8Array) => (claims: Readonly<Record<string, string | number>>): string => {
  const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`
  return `${input}.${createHmac("sha256", key).update(input).digest("base64url")}`
}

const jsonObject = (segment: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"))
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

/**
 * A verifier for tokens signed with `key`: the token's subject when every check passes at
 * `nowMillis`, else undefined (which check failed is not told: each is a 401).
 */
export const hs256Verifier = (key: Uint8Array, claims: Hs256Kind) => {
  const verified = hs256Payload(key, claims)
  return (token: string, nowMillis: number): string | undefined => verified(token, nowMillis)?.sub as string | undefined
}

/** The verified claims (every check of hs256Verifier passed, `sub` a string), else undefined. */
const hs256Payload = (key: Uint8Array, claims: Hs256Kind) => (token: string, nowMillis: number): Record<string, unknown> | undefined => {
  const parts = token.split(".")
  if (parts.length !== 3) return undefined
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string]
  if (!BASE64URL.test(headerPart) || !BASE64URL.test(payloadPart) || !BASE64URL.test(signaturePart)) return undefined
  const header = jsonObject(headerPart)
  if (header === undefined || header["alg"] !== "HS256" || header["crit"] !== undefined) return undefined
  const signature = Buffer.from(signaturePart, "base64url")
  const expected = createHmac("sha256", key).update(`${headerPart}.${payloadPart}`).digest()
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return undefined
  const payload = jsonObject(payloadPart)
  if (payload === undefined) return undefined
  const now = Math.floor(nowMillis / 1000)
  const { aud, exp, iat, iss, nbf, sub } = payload
  if (iss !== claims.issuer) return undefined
  if (!(aud === claims.audience || (Array.isArray(aud) && aud.includes(claims.audience)))) return undefined
  if (typeof exp !== "number" || !(now < exp)) return undefined
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > now)) return undefined
  if (iat !== undefined && typeof iat !== "number") return undefined
  return typeof sub === "string" ? payload : undefined
}

/**
 * One kind of token under one key, as an adapter issues and checks it: the same issuer and
 * audience in both, `iat` and `exp` in whole seconds of `nowMillis`.
 */
export const hs256Tokens = (key: Uint8Array, kind: Hs256Kind & { readonly ttlSeconds: number }) => {
  const sign = hs256Signer(key)
  const verified = hs256Payload(key, kind)
  return {
    /**
     * `version` (the account's or staff member's session version) goes into the claim `sv` when it
     * is not 0; a token without `sv` is of version 0.
     */
    issue: (subject: string, nowMillis: number, version = 0) => {
      const iat = Math.floor(nowMillis / 1000)
      const exp = iat + kind.ttlSeconds
      const claims = { sub: subject, iss: kind.issuer, aud: kind.audience, iat, exp }
      return { token: sign(version === 0 ? claims : { ...claims, sv: version }), expiresAt: new Date(exp * 1000) }
    },
    subjectOf: hs256Verifier(key, kind),
    /** The subject and session version of a token that passes every check; undefined otherwise (an `sv` that is not a whole number too). */
    claimsOf: (token: string, nowMillis: number): { readonly subject: string; readonly version: number } | undefined => {
      const payload = verified(token, nowMillis)
      if (payload === undefined) return undefined
      const sv = payload["sv"] ?? 0
      return typeof sv === "number" && Number.isSafeInteger(sv) ? { subject: payload["sub"] as string, version: sv } : undefined
    }
  }
}
