/** Self-check of the loopback identity provider used by the social sign-in tests. */
import { createRemoteJWKSet, jwtVerify } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startIdentityProvider, type IdentityProvider } from "./support/IdentityProvider.js"

const CLAIMS = { sub: "google-123", email: "ada@example.com", aud: "web-client", name: "Ada Obi" } as const
const REDIRECT = "https://app.example.com/callback"

let idp: IdentityProvider
let jwks: ReturnType<typeof createRemoteJWKSet>

const verify = (token: string) =>
  jwtVerify(token, jwks, { issuer: idp.issuer, audience: CLAIMS.aud, algorithms: ["RS256"] })

const exchange = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(idp.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString()
  })

describe("IdentityProvider (test support)", () => {
  beforeAll(async () => {
    idp = await startIdentityProvider()
    jwks = createRemoteJWKSet(new URL(idp.jwksUrl), { cooldownDuration: 0 })
  })
  afterAll(() => idp.close())

  it("serves the key set with caching headers and 404 elsewhere", async () => {
    expect(idp.issuer).toBe(idp.baseUrl)
    const reply = await fetch(idp.jwksUrl)
    expect(reply.status).toBe(200)
    expect(reply.headers.get("cache-control")).toBe("max-age=300")
    const body = (await reply.json()) as { keys: Array<Record<string, unknown>> }
    expect(body.keys).toHaveLength(1)
    expect(body.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" })
    expect(idp.jwksRequests()).toBe(1)
    expect((await fetch(`${idp.baseUrl}/nope`)).status).toBe(404)
  })

  it("issues ID tokens that verify with the right issuer and audience", async () => {
    const { payload, protectedHeader } = await verify(await idp.idToken(CLAIMS))
    expect(protectedHeader).toMatchObject({ alg: "RS256", typ: "JWT" })
    expect(payload).toMatchObject({ ...CLAIMS, iss: idp.issuer, email_verified: true })
    expect(payload.exp! - payload.iat!).toBe(600)
    await expect(verify(await idp.idToken(CLAIMS, { issuer: "https://evil.example" }))).rejects.toThrow()
    await expect(verify(await idp.idToken(CLAIMS, { expiresInSeconds: -60 }))).rejects.toThrow()
  })

  it("rotates keys: old tokens fail, new ones verify", async () => {
    const old = await idp.idToken(CLAIMS)
    await verify(old)
    await idp.rotateKeys()
    // A fresh verifier: the old one would still hold the removed key in its own cache.
    jwks = createRemoteJWKSet(new URL(idp.jwksUrl), { cooldownDuration: 0 })
    const served = idp.jwksRequests()
    await expect(verify(old)).rejects.toThrow()
    expect(idp.jwksRequests()).toBeGreaterThan(served)
    await expect(verify(await idp.idToken(CLAIMS))).resolves.toBeDefined()
  })

  it("rejects forged, alg-none and RS/HS confusion tokens under RS256", async () => {
    await expect(verify(await idp.forgedToken(CLAIMS))).rejects.toThrow()
    const none = idp.noneAlgToken(CLAIMS)
    expect(none.endsWith(".")).toBe(true)
    await expect(verify(none)).rejects.toThrow()
    await expect(verify(await idp.hsConfusionToken(CLAIMS))).rejects.toThrow()
  })

  it("exchanges a code once for an ID token that verifies", async () => {
    const code = idp.issueCode(CLAIMS, { redirectUri: REDIRECT })
    const form = {
      grant_type: "authorization_code",
      code,
      client_id: "web-client",
      client_secret: "web-secret",
      redirect_uri: REDIRECT
    }
    const first = await exchange(form)
    expect(first.status).toBe(200)
    const body = (await first.json()) as { access_token: string; token_type: string; expires_in: number; id_token: string }
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600 })
    expect(body.access_token.length).toBeGreaterThan(10)
    const { payload } = await verify(body.id_token)
    expect(payload.sub).toBe(CLAIMS.sub)

    const second = await exchange(form)
    expect(second.status).toBe(400)
    expect(await second.json()).toEqual({ error: "invalid_grant" })
    expect(idp.tokenRequests().at(-1)).toEqual(form)
  })

  it("accepts Basic client credentials and rejects a wrong redirect URI", async () => {
    const basic = `Basic ${Buffer.from("web-client:web-secret").toString("base64")}`
    const ok = await exchange(
      { grant_type: "authorization_code", code: idp.issueCode(CLAIMS), redirect_uri: REDIRECT },
      { authorization: basic }
    )
    expect(ok.status).toBe(200)
    const wrong = await exchange(
      { grant_type: "authorization_code", code: idp.issueCode(CLAIMS, { redirectUri: REDIRECT }), redirect_uri: "https://evil.example/cb" },
      { authorization: basic }
    )
    expect(wrong.status).toBe(400)
    expect(await wrong.json()).toEqual({ error: "invalid_grant" })
  })

  it("answers 401 invalid_client to a bad client secret", async () => {
    const reply = await exchange({
      grant_type: "authorization_code",
      code: idp.issueCode(CLAIMS),
      client_id: "web-client",
      client_secret: "wrong",
      redirect_uri: REDIRECT
    })
    expect(reply.status).toBe(401)
    expect(await reply.json()).toEqual({ error: "invalid_client" })
  })
})
