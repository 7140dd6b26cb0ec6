/**
 * Verification of our own HS256 JWTs (access and staff tokens) with node:crypto, synchronously.
 * Tokens are still signed with jose (Hs256AccessTokens.ts, Hs256StaffTokens.ts); only the check that
 * every authenticated request makes is done here.
 *
 * Why not jose's `jwtVerify`: jose 6 works on WebCrypto, and Node runs WebCrypto's HMAC as a job on
 * libuv's thread pool, the pool argon2 hashes passwords on. While eight customers signed in,
 * every authenticated request queued its token check behind ~100 ms argon2 jobs: GET
 * /customers/me went from 3 ms to 74 ms at the median (README, Benchmarks, round 11). It also cost
 * ~88 µs of CPU per check against ~9 µs here.
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

export interface Hs256Claims {
  readonly issuer: string
  readonly audience: string
}

const BASE64URL = /^[A-Za-z0-9_-]*$/

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
export const hs256Verifier = (key: Uint8Array, claims: Hs256Claims) => (token: string, nowMillis: number): string | undefined => {
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
  return typeof sub === "string" ? sub : undefined
}
