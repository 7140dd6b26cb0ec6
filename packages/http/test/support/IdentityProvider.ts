/**
 * A real OpenID-Connect-like identity provider for tests of `POST /oauth/social-sign-in` against a
 * real peer on loopback: a `node:http` server on 127.0.0.1 (a free port) that serves its RS256 key
 * set at GET /jwks and exchanges one-time authorization codes for ID tokens at POST /token. Tests
 * mint good tokens and hostile ones (expired, wrong issuer, forged, `alg: none`, RS/HS key
 * confusion), rotate the signing key, and count/inspect the requests the service made.
 */
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { randomBytes } from "node:crypto"

/** The claims of an ID token about the signed-in person. */
export interface IdTokenClaims {
  readonly sub: string
  readonly email: string
  readonly aud: string
  readonly email_verified?: boolean
  readonly name?: string
  readonly given_name?: string
  readonly family_name?: string
}

export interface IdTokenOptions {
  /** Lifetime from now; negative = already expired. Default 600. */
  readonly expiresInSeconds?: number
  /** Overrides the `iss` claim (wrong-issuer tokens). */
  readonly issuer?: string
  /** Overrides the header `kid`. */
  readonly kid?: string
}

export interface IdentityProviderOptions {
  /** Default: the server's own base URL. */
  readonly issuer?: string
  /** client_id → client_secret accepted at /token. Default `{ "web-client": "web-secret" }`. */
  readonly clients?: Readonly<Record<string, string>>
}

export interface IdentityProvider {
  readonly baseUrl: string
  readonly issuer: string
  readonly jwksUrl: string
  readonly tokenUrl: string
  close(): Promise<void>
  /** How many times GET /jwks was served. */
  jwksRequests(): number
  /** The parsed form fields of every POST /token, in order. */
  tokenRequests(): Array<Record<string, string>>
  /** A new key pair with a new kid; the key set then holds only the new public key. */
  rotateKeys(): Promise<void>
  idToken(claims: IdTokenClaims, options?: IdTokenOptions): Promise<string>
  /** Signed with a key not in the key set, carrying the current kid. */
  forgedToken(claims: IdTokenClaims, options?: IdTokenOptions): Promise<string>
  /** `header.payload.` with `{"alg":"none","typ":"JWT"}`. */
  noneAlgToken(claims: IdTokenClaims, options?: IdTokenOptions): string
  /** HS256 with the current public key's SPKI PEM text as the HMAC secret, current kid. */
  hsConfusionToken(claims: IdTokenClaims, options?: IdTokenOptions): Promise<string>
  /** Registers a one-time authorization code that /token exchanges for an ID token of `claims`. */
  issueCode(claims: IdTokenClaims, options?: { readonly redirectUri?: string }): string
}

interface SigningKey {
  readonly kid: string
  readonly privateKey: CryptoKey
  readonly publicKey: CryptoKey
  readonly jwk: JWK
}

const random = (bytes = 24) => randomBytes(bytes).toString("base64url")

const newSigningKey = async (): Promise<SigningKey> => {
  const { privateKey, publicKey } = await generateKeyPair("RS256")
  const kid = `kid-${random(8)}`
  return { kid, privateKey, publicKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } }
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers })
  res.end(JSON.stringify(body))
}

/** Credentials from `Authorization: Basic …` (form-urlencoded parts, RFC 6749 §2.3.1), if any. */
const basicCredentials = (header: string | undefined): { id: string; secret: string } | undefined => {
  if (header === undefined || !header.toLowerCase().startsWith("basic ")) return undefined
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  if (colon < 0) return undefined
  const part = (s: string) => decodeURIComponent(s.replace(/\+/g, " "))
  return { id: part(decoded.slice(0, colon)), secret: part(decoded.slice(colon + 1)) }
}

export const startIdentityProvider = async (options: IdentityProviderOptions = {}): Promise<IdentityProvider> => {
  const clients = options.clients ?? { "web-client": "web-secret" }
  let current = await newSigningKey()
  let jwksCount = 0
  const tokenLog: Array<Record<string, string>> = []
  const codes = new Map<string, { claims: IdTokenClaims; redirectUri: string | undefined }>()
  // Assigned once listening; the handlers only run after that.
  let issuer = ""

  const payloadOf = (claims: IdTokenClaims, opts: IdTokenOptions) => {
    const iat = Math.floor(Date.now() / 1000)
    return {
      ...claims,
      email_verified: claims.email_verified ?? true,
      iss: opts.issuer ?? issuer,
      iat,
      exp: iat + (opts.expiresInSeconds ?? 600)
    }
  }

  const sign = (claims: IdTokenClaims, opts: IdTokenOptions, key: CryptoKey | Uint8Array, alg: string) =>
    new SignJWT(payloadOf(claims, opts)).setProtectedHeader({ alg, kid: opts.kid ?? current.kid, typ: "JWT" }).sign(key)

  const idToken = (claims: IdTokenClaims, opts: IdTokenOptions = {}) => sign(claims, opts, current.privateKey, "RS256")

  const token = async (req: IncomingMessage, res: ServerResponse) => {
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)))
    tokenLog.push(form)
    const basic = basicCredentials(req.headers.authorization)
    const clientId = basic?.id ?? form["client_id"]
    const clientSecret = basic?.secret ?? form["client_secret"]
    if (clientId === undefined || clientSecret === undefined || !Object.hasOwn(clients, clientId) || clients[clientId] !== clientSecret) {
      return sendJson(res, 401, { error: "invalid_client" }, { "www-authenticate": 'Basic realm="token"' })
    }
    if (form["grant_type"] !== "authorization_code") return sendJson(res, 400, { error: "unsupported_grant_type" })
    const code = form["code"]
    const redirectUri = form["redirect_uri"]
    if (code === undefined || redirectUri === undefined) return sendJson(res, 400, { error: "invalid_request" })
    const entry = codes.get(code)
    codes.delete(code) // one attempt per code, successful or not
    if (entry === undefined || (entry.redirectUri !== undefined && entry.redirectUri !== redirectUri)) {
      return sendJson(res, 400, { error: "invalid_grant" })
    }
    sendJson(res, 200, {
      access_token: random(),
      token_type: "Bearer",
      expires_in: 3600,
      id_token: await idToken(entry.claims)
    })
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname
    if (req.method === "GET" && path === "/jwks") {
      jwksCount++
      return sendJson(res, 200, { keys: [current.jwk] }, { "cache-control": "max-age=300" })
    }
    if (req.method === "POST" && path === "/token") {
      return void token(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: "server_error", detail: String(error) })
        else res.destroy()
      })
    }
    sendJson(res, 404, { error: "not_found" })
  })

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  issuer = options.issuer ?? baseUrl

  return {
    baseUrl,
    issuer,
    jwksUrl: `${baseUrl}/jwks`,
    tokenUrl: `${baseUrl}/token`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
    jwksRequests: () => jwksCount,
    tokenRequests: () => tokenLog.map((form) => ({ ...form })),
    rotateKeys: async () => {
      current = await newSigningKey()
    },
    idToken,
    forgedToken: async (claims, opts = {}) => {
      const { privateKey } = await generateKeyPair("RS256")
      return sign(claims, opts, privateKey, "RS256")
    },
    noneAlgToken: (claims, opts = {}) => {
      const part = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url")
      return `${part({ alg: "none", typ: "JWT" })}.${part(payloadOf(claims, opts))}.`
    },
    hsConfusionToken: async (claims, opts = {}) => {
      const pem = await exportSPKI(current.publicKey)
      return sign(claims, opts, new TextEncoder().encode(pem), "HS256")
    },
    issueCode: (claims, opts = {}) => {
      const code = random()
      codes.set(code, { claims, redirectUri: opts.redirectUri })
      return code
    }
  }
}
