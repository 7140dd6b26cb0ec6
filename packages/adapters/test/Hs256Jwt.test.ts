/**
 * Our HS256 tokens (crypto/Hs256Jwt.ts) against jose. Signing: the same token as jose's SignJWT,
 * byte for byte, for random subjects and times. Checking, against jose's `jwtVerify` with the
 * options the service gave it: for each token below, for a good token with any one character
 * changed, and for random sets of claims, ours accepts it exactly when jose does, and gives the
 * same subject. The one place where ours is stricter (no `exp`) is asserted on its own.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { jwtVerify, SignJWT } from "jose"
import { createHmac } from "node:crypto"
import { hs256Signer, hs256Tokens, hs256Verifier } from "../src/crypto/Hs256Jwt.js"

const secret = new TextEncoder().encode("a-test-secret-that-is-long-enough-0123456789")
const otherSecret = new TextEncoder().encode("another-secret-that-is-long-enough-987654321")
const ISSUER = "kobo-plans"
const AUDIENCE = "customer"
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0)
const now = NOW / 1000

const verify = hs256Verifier(secret, { issuer: ISSUER, audience: AUDIENCE })

const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url")

/** A token with exactly this header and payload, signed with `key` (no library in between). */
const handMade = (header: unknown, payload: unknown, key: Uint8Array = secret) => {
  const input = `${b64(header)}.${b64(payload)}`
  return `${input}.${createHmac("sha256", key).update(input).digest("base64url")}`
}

const claims = (over: Record<string, unknown> = {}) => ({ sub: "account-1", iss: ISSUER, aud: AUDIENCE, iat: now - 60, exp: now + 840, ...over })
const HS256 = { alg: "HS256", typ: "JWT" }

const joseSubject = (token: string) =>
  jwtVerify(token, secret, { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"], currentDate: new Date(NOW), clockTolerance: 0 })
    .then(({ payload }) => (typeof payload.sub === "string" ? payload.sub : undefined), () => undefined)

const flip = (token: string, part: number) => {
  const parts = token.split(".")
  const s = parts[part]!
  parts[part] = s.slice(0, -2) + (s.at(-2) === "A" ? "B" : "A") + s.at(-1)
  return parts.join(".")
}

const cases = async (): Promise<ReadonlyArray<readonly [string, string]>> => {
  const signed = await new SignJWT({}).setProtectedHeader(HS256).setSubject("account-1").setIssuer(ISSUER).setAudience(AUDIENCE)
    .setIssuedAt(now - 60).setExpirationTime(now + 840).sign(secret)
  return [
    ["signed by jose", signed],
    ["hand-made, same claims", handMade(HS256, claims())],
    ["no typ", handMade({ alg: "HS256" }, claims())],
    ["audience in an array", handMade(HS256, claims({ aud: ["someone", AUDIENCE] }))],
    ["nbf now", handMade(HS256, claims({ nbf: now }))],
    ["exp one second ahead", handMade(HS256, claims({ exp: now + 1 }))],
    ["exp now (expired)", handMade(HS256, claims({ exp: now }))],
    ["exp past", handMade(HS256, claims({ exp: now - 1 }))],
    ["exp a string", handMade(HS256, claims({ exp: String(now + 840) }))],
    ["nbf ahead", handMade(HS256, claims({ nbf: now + 1 }))],
    ["iat a string", handMade(HS256, claims({ iat: "yesterday" }))],
    ["another issuer", handMade(HS256, claims({ iss: "someone-else" }))],
    ["no issuer", handMade(HS256, claims({ iss: undefined }))],
    ["another audience", handMade(HS256, claims({ aud: "staff" }))],
    ["audience array without ours", handMade(HS256, claims({ aud: ["staff"] }))],
    ["no subject", handMade(HS256, claims({ sub: undefined }))],
    ["subject a number", handMade(HS256, claims({ sub: 42 }))],
    ["another key", handMade(HS256, claims(), otherSecret)],
    ["alg none, no signature", `${b64({ alg: "none", typ: "JWT" })}.${b64(claims())}.`],
    ["alg none, signed", handMade({ alg: "none" }, claims())],
    ["alg HS512 in the header", handMade({ alg: "HS512" }, claims())],
    ["alg hs256 (case)", handMade({ alg: "hs256" }, claims())],
    ["crit header", handMade({ alg: "HS256", crit: ["exp"] }, claims())],
    ["b64 false", handMade({ alg: "HS256", b64: false, crit: ["b64"] }, claims())],
    ["payload tampered", flip(signed, 1)],
    ["signature tampered", flip(signed, 2)],
    ["signature cut short", signed.slice(0, -4)],
    ["signature empty", signed.split(".").slice(0, 2).join(".") + "."],
    ["four segments", `${signed}.${b64("x")}`],
    ["two segments", signed.split(".").slice(0, 2).join(".")],
    ["padding in a segment", signed.replace(".", "=.")],
    ["base64 (not url) characters", handMade(HS256, claims()).replace(/-|_/, "+")],
    ["payload not JSON", (() => { const input = `${b64(HS256)}.${b64("not json")}`; return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}` })()],
    ["payload an array", handMade(HS256, [claims()])],
    ["payload null", handMade(HS256, null)],
    ["header an array", handMade([HS256], claims())],
    ["garbage", "garbage"],
    ["empty", ""],
    ["a.b.c", "a.b.c"]
  ]
}

describe("Hs256Jwt", () => {
  it("signs as jose's SignJWT does, byte for byte, and jose accepts what it signs (property)", async () => {
    const sign = hs256Signer(secret)
    await FastCheck.assert(
      FastCheck.asyncProperty(
        FastCheck.string({ minLength: 1, maxLength: 40 }),
        FastCheck.integer({ min: 1_000_000_000, max: 4_000_000_000 }),
        FastCheck.integer({ min: 1, max: 86_400 }),
        async (sub, iat, ttl) => {
          const ours = sign({ sub, iss: ISSUER, aud: AUDIENCE, iat, exp: iat + ttl })
          const theirs = await new SignJWT({}).setProtectedHeader(HS256).setSubject(sub).setIssuer(ISSUER).setAudience(AUDIENCE)
            .setIssuedAt(iat).setExpirationTime(iat + ttl).sign(secret)
          expect(ours).toBe(theirs)
          const { payload } = await jwtVerify(ours, secret, { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"], currentDate: new Date(iat * 1000) })
          expect(payload.sub).toBe(sub)
          expect(verify(ours, iat * 1000)).toBe(sub)
        }
      ),
      { numRuns: 200 }
    )
  })


  it("accepts and refuses each token as jose does, with the same subject", async () => {
    const all = await cases()
    let accepted = 0
    for (const [name, token] of all) {
      const theirs = await joseSubject(token)
      expect({ name, subject: verify(token, NOW) }).toEqual({ name, subject: theirs })
      if (theirs !== undefined) accepted++
    }
    // the comparison covers both answers: six of these tokens are good
    expect(accepted).toBe(6)
  })

  it("a good token with one character changed anywhere: accepted or refused as jose does (property)", async () => {
    const good = handMade(HS256, claims())
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ "
    await FastCheck.assert(
      FastCheck.asyncProperty(
        FastCheck.nat({ max: good.length - 1 }),
        FastCheck.constantFrom(...alphabet),
        async (at, char) => {
          const token = good.slice(0, at) + char + good.slice(at + 1)
          expect({ token, subject: verify(token, NOW) }).toEqual({ token, subject: await joseSubject(token) })
        }
      ),
      { numRuns: 300 }
    )
  })

  it("random claims: accepted or refused as jose does, at the same instant (property)", async () => {
    // each claim is good at least half the time, so that both answers come up often
    const claim = <A>(good: A, bad: ReadonlyArray<unknown>) =>
      FastCheck.oneof({ arbitrary: FastCheck.constant(good), weight: 3 }, { arbitrary: FastCheck.constantFrom(undefined, ...bad), weight: 2 })
    let accepted = 0
    let refused = 0
    await FastCheck.assert(
      FastCheck.asyncProperty(
        FastCheck.record({
          sub: claim("account-1", [7, null]),
          iss: claim(ISSUER, ["someone-else", [ISSUER]]),
          aud: claim(AUDIENCE, ["staff", [AUDIENCE], ["staff", AUDIENCE], []]),
          exp: claim(now + 900, [now - 1, now, now + 1, String(now + 900)]),
          nbf: claim(now, [now - 1, now + 1, "now"]),
          iat: claim(now - 60, [now + 60, "then"])
        }),
        async (drawn) => {
          const payload = Object.fromEntries(Object.entries(drawn).filter(([, v]) => v !== undefined))
          const token = handMade(HS256, payload)
          const theirs = await joseSubject(token)
          // the one documented difference: without exp, ours refuses what jose accepts
          const expected = payload["exp"] === undefined ? undefined : theirs
          const ours = verify(token, NOW)
          expect({ payload, subject: ours }).toEqual({ payload, subject: expected })
          if (ours === undefined) refused++
          else accepted++
        }
      ),
      { numRuns: 1000 }
    )
    // ~5% of the draws are good tokens (0.6^6): both answers were compared many times
    expect(accepted).toBeGreaterThanOrEqual(10)
    expect(refused).toBeGreaterThanOrEqual(10)
  })

  it("refuses a token without exp, which jose would accept (ours always carry one)", async () => {
    const token = handMade(HS256, claims({ exp: undefined }))
    expect(await joseSubject(token)).toBe("account-1")
    expect(verify(token, NOW)).toBeUndefined()
  })

  it("reads the time it is given: the same token passes before its exp and fails at it", () => {
    const token = handMade(HS256, claims({ exp: now + 10 }))
    expect(verify(token, NOW + 9_999)).toBe("account-1")
    expect(verify(token, NOW + 10_000)).toBeUndefined()
  })

  it("a kind of token: issued with its issuer, audience and lifetime, good until its expiry, then not; jose agrees", async () => {
    const tokens = hs256Tokens(secret, { issuer: ISSUER, audience: AUDIENCE, ttlSeconds: 900 })
    const { expiresAt, token } = tokens.issue("account-1", NOW + 400)
    expect(expiresAt.getTime()).toBe(NOW + 900_000)
    expect(tokens.subjectOf(token, NOW + 899_999)).toBe("account-1")
    expect(tokens.subjectOf(token, NOW + 900_000)).toBeUndefined()
    expect(await joseSubject(token)).toBe("account-1")
    expect(hs256Tokens(secret, { issuer: ISSUER, audience: "staff", ttlSeconds: 900 }).subjectOf(token, NOW)).toBeUndefined()
  })

  it("a verifier for another audience or key refuses these tokens", () => {
    const token = handMade(HS256, claims())
    expect(hs256Verifier(secret, { issuer: ISSUER, audience: "staff" })(token, NOW)).toBeUndefined()
    expect(hs256Verifier(otherSecret, { issuer: ISSUER, audience: AUDIENCE })(token, NOW)).toBeUndefined()
  })
})
