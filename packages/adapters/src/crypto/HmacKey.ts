/**
 * An HS256 key imported once, at layer construction, as a non-extractable WebCrypto `CryptoKey`.
 * Given the raw bytes instead, jose imports them again on every sign and verify
 * (`crypto.subtle.importKey`): 2.3% of the service's CPU under bench:api, one import per request.
 */
import { Effect } from "effect"

export const importHs256Key = (secret: Uint8Array) =>
  Effect.promise(() =>
    globalThis.crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"])
  )
